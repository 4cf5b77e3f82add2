import { stringify } from 'yaml';
import type { ColumnInfo, TableInfo } from '../catalog/model';
import { deriveConfidence } from '../envelope/confidence';
import type { Confidence, InferenceMethod } from '../envelope/kinds';
import { isNumericType, timeKindOf } from './catalog';
import type { Aggregation, Cardinality, EntityGroup, TimeGrain } from './types';
import { TIME_GRAINS } from './types';
import { isUniqueKey } from './validate';

/**
 * Definitions suggested from the catalog, deterministic and offline:
 * - an entity per table with a primary key or a unique key over NOT NULL columns;
 * - a join per declared foreign key (composite and self-referencing included), cardinality from whether the FK
 *   columns are themselves unique (one_to_one) or not (many_to_one), `fk_constraint`;
 * - joins inferred from names and types where no FK is declared (`rental.customer_id` → `customer.customer_id`),
 *   `name_inferred`, with a score for ordering;
 * - starter metrics: a row count per entity and sums of money-like numeric columns.
 * Everything is `origin: suggested`, `validation_state: draft` until a person applies it.
 */

export interface EntitySuggestion {
  readonly name: string;
  readonly description: string | null;
  readonly table: string;
  readonly identity: readonly string[];
  readonly group: EntityGroup;
  readonly timeDimension: string | null;
  readonly inferenceMethod: InferenceMethod;
  readonly reason: string;
}

export interface JoinSuggestion {
  readonly name: string;
  readonly from: string;
  readonly to: string;
  readonly on: readonly { readonly from: string; readonly to: string }[];
  readonly cardinality: Cardinality;
  readonly inferenceMethod: InferenceMethod;
  /** Internal score 0..1 used to order suggestions (1 for declared FKs); never shown as a raw float. */
  readonly score: number;
  /** `derive_confidence(inference_method, 'draft')`: what the join is worth until someone applies it. */
  readonly confidence: Confidence;
  readonly reason: string;
}

export interface MetricSuggestion {
  readonly name: string;
  readonly description: string;
  readonly entity: string;
  readonly agg: Aggregation;
  readonly column: string | null;
  readonly timeDimension: string | null;
  readonly timeGrains: readonly TimeGrain[];
  readonly inferenceMethod: InferenceMethod;
  readonly reason: string;
}

export interface Suggestions {
  readonly entities: readonly EntitySuggestion[];
  readonly joins: readonly JoinSuggestion[];
  readonly metrics: readonly MetricSuggestion[];
}

export interface SuggestOptions {
  /** Names already defined; suggestions never reuse them. */
  readonly existingNames?: ReadonlySet<string>;
  /** Skip name-based join inference (only declared FKs). */
  readonly declaredOnly?: boolean;
}

const MONEY = /(amount|total|price|cost|revenue|sales|balance|fee|charge|paid|subtotal|tax|freight|discount)/i;
const KEYISH = /(^id$|_id$|Id$|^pk_|_key$|_no$|_number$)/;
const STALE_TIME = /(last_update|updated|modified|changed|deleted|birth)/i;
const BUSINESS_TIME = /(date|_at$|At$|time)/;

function snake(s: string): string {
  return s
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toLowerCase();
}

function singular(word: string): string {
  if (/ies$/.test(word)) return `${word.slice(0, -3)}y`;
  if (/(ss|us|is)$/.test(word)) return word;
  if (/(ches|shes|xes|ses)$/.test(word)) return word.slice(0, -2);
  if (/s$/.test(word)) return word.slice(0, -1);
  return word;
}

function groupFor(name: string): EntityGroup {
  if (/(customer|user|person|people|employee|staff|member|account|contact|actor|artist)/.test(name)) return 'identity';
  if (/(invoice|payment|order|bill|charge|transaction|refund|subscription)/.test(name)) return 'billing';
  if (/(rental|event|log|visit|session|activity|shipment|booking)/.test(name)) return 'activity';
  if (/(film|product|track|album|item|inventory|category|genre|catalog)/.test(name)) return 'catalog';
  return 'other';
}

function identityOf(t: TableInfo): readonly string[] | null {
  if (t.primaryKey && t.primaryKey.columns.length > 0) return t.primaryKey.columns;
  const notNull = (cols: readonly string[]): boolean => cols.every((c) => t.columns.find((x) => x.name === c)?.isNullable === false);
  const u = t.uniqueConstraints.find((k) => k.columns.length > 0 && notNull(k.columns));
  if (u) return u.columns;
  const ix = t.indexes.find((i) => i.isUnique && !i.predicate && i.columns.length > 0 && notNull(i.columns));
  return ix ? ix.columns : null;
}

function typeFamily(dataType: string): 'int' | 'num' | 'text' | 'uuid' | 'other' {
  const t = dataType.toLowerCase();
  if (/uuid/.test(t)) return 'uuid';
  if (/int|serial/.test(t)) return 'int';
  if (/numeric|decimal|real|double|float/.test(t)) return 'num';
  if (/char|text|clob|string/.test(t)) return 'text';
  return 'other';
}

function businessTimeColumn(t: TableInfo): ColumnInfo | null {
  const candidates = t.columns.filter((c) => {
    const k = timeKindOf(c);
    return (k === 'timestamp' || k === 'date') && !STALE_TIME.test(c.name);
  });
  return candidates.find((c) => BUSINESS_TIME.test(c.name)) ?? candidates[0] ?? null;
}

export function suggestFromCatalog(tables: readonly TableInfo[], opts: SuggestOptions = {}): Suggestions {
  const taken = new Set(opts.existingNames ?? []);
  const unique = (base: string): string => {
    let n = base;
    for (let i = 2; taken.has(n); i++) n = `${base}_${i}`;
    taken.add(n);
    return n;
  };

  // Entities. Table names that repeat across schemas get the schema as a prefix.
  const nameCount = new Map<string, number>();
  for (const t of tables) nameCount.set(snake(t.name), (nameCount.get(snake(t.name)) ?? 0) + 1);
  const entityOf = new Map<TableInfo, EntitySuggestion>();
  const entities: EntitySuggestion[] = [];
  for (const t of tables) {
    const identity = identityOf(t);
    if (!identity) continue;
    const base = snake(t.name);
    const name = unique((nameCount.get(base) ?? 0) > 1 ? `${snake(t.schema)}_${base}` : base);
    const time = businessTimeColumn(t);
    const e: EntitySuggestion = {
      name,
      description: t.comment,
      table: `${t.schema}.${t.name}`,
      identity,
      group: groupFor(base),
      timeDimension: time ? time.name : null,
      inferenceMethod: 'fk_constraint',
      reason: t.primaryKey ? `primary key (${identity.join(', ')})` : `unique not-null key (${identity.join(', ')})`,
    };
    entityOf.set(t, e);
    entities.push(e);
  }
  const tableByName = new Map(tables.map((t) => [`${t.schema}.${t.name}`, t]));

  // Joins from declared foreign keys.
  const joins: JoinSuggestion[] = [];
  const covered = new Set<string>();
  const pairCount = new Map<string, number>();
  for (const t of tables) for (const fk of t.foreignKeys) pairCount.set(`${t.schema}.${t.name}>${fk.targetSchema}.${fk.targetTable}`, (pairCount.get(`${t.schema}.${t.name}>${fk.targetSchema}.${fk.targetTable}`) ?? 0) + 1);
  for (const t of tables) {
    const from = entityOf.get(t);
    for (const fk of t.foreignKeys) {
      fk.columns.forEach((c) => covered.add(`${t.schema}.${t.name}.${c}`));
      const target = tableByName.get(`${fk.targetSchema}.${fk.targetTable}`);
      const to = target ? entityOf.get(target) : undefined;
      if (!from || !to || fk.targetColumns.length !== fk.columns.length) continue;
      const self = target === t;
      const several = (pairCount.get(`${t.schema}.${t.name}>${fk.targetSchema}.${fk.targetTable}`) ?? 0) > 1;
      const stem = snake(fk.columns.join('_')).replace(/_id$/, '');
      const name = unique(self || several ? `${from.name}_${stem}` : `${from.name}_${to.name}`);
      joins.push({
        name,
        from: from.name,
        to: to.name,
        on: fk.columns.map((c, i) => ({ from: c, to: fk.targetColumns[i]! })),
        cardinality: isUniqueKey(t, fk.columns) ? 'one_to_one' : 'many_to_one',
        inferenceMethod: 'fk_constraint',
        score: 1,
        confidence: deriveConfidence('fk_constraint', 'draft'),
        reason: `foreign key ${fk.name}${self ? ' (self-reference: define a role entity on the same table to group by the referenced side)' : ''}`,
      });
    }
  }

  // Joins inferred from names: `<stem>_id` / `<stem>Id` → a table named <stem> (or its plural) with a one-column key.
  if (!opts.declaredOnly) {
    const keyed = new Map<string, Array<{ table: TableInfo; key: ColumnInfo }>>();
    for (const t of tables) {
      const id = identityOf(t);
      if (!id || id.length !== 1 || !entityOf.has(t)) continue;
      const key = t.columns.find((c) => c.name === id[0])!;
      const stem = singular(snake(t.name));
      keyed.set(stem, [...(keyed.get(stem) ?? []), { table: t, key }]);
    }
    for (const t of tables) {
      const from = entityOf.get(t);
      if (!from) continue;
      const ownKey = identityOf(t);
      for (const c of t.columns) {
        if (covered.has(`${t.schema}.${t.name}.${c.name}`)) continue;
        const m = /^(.*?)(?:_id|Id|ID)$/.exec(c.name);
        if (!m || !m[1]) continue;
        const words = snake(m[1]).split('_');
        // `manager_staff_id` → try `manager_staff`, then `staff`.
        let hit: { table: TableInfo; key: ColumnInfo } | undefined;
        let exactStem = true;
        for (let i = 0; i < words.length && !hit; i++) {
          const stem = singular(words.slice(i).join('_'));
          const cands = (keyed.get(stem) ?? []).filter((x) => x.table !== t || (ownKey?.length === 1 && ownKey[0] !== c.name));
          const sameSchema = cands.filter((x) => x.table.schema === t.schema);
          const pick = sameSchema.length === 1 ? sameSchema[0] : cands.length === 1 ? cands[0] : undefined;
          if (pick) {
            hit = pick;
            exactStem = i === 0;
          }
        }
        if (!hit) continue;
        if (hit.table === t && ownKey?.length === 1 && ownKey[0] === c.name) continue;
        const fa = typeFamily(c.dataType);
        const fb = typeFamily(hit.key.dataType);
        if (fa !== fb || fa === 'other') continue;
        const to = entityOf.get(hit.table)!;
        const sameName = hit.key.name.toLowerCase() === c.name.toLowerCase();
        const score = 0.45 + (sameName ? 0.2 : 0) + (exactStem ? 0.1 : 0) + (hit.table.schema === t.schema ? 0.05 : 0);
        const isOwnKey = ownKey?.length === 1 && ownKey[0] === c.name;
        const capped = Math.min(score, 0.79);
        joins.push({
          name: unique(exactStem && hit.table !== t ? `${from.name}_${to.name}` : `${from.name}_${snake(m[1])}`),
          from: from.name,
          to: to.name,
          on: [{ from: c.name, to: hit.key.name }],
          cardinality: isOwnKey || isUniqueKey(t, [c.name]) ? 'one_to_one' : 'many_to_one',
          inferenceMethod: 'name_inferred',
          score: capped,
          confidence: deriveConfidence('name_inferred', 'draft'),
          reason: `no declared foreign key; '${c.name}' (${c.dataType}) names '${hit.table.schema}.${hit.table.name}' whose key '${hit.key.name}' has the same type family`,
        });
      }
    }
  }

  // Starter metrics.
  const metrics: MetricSuggestion[] = [];
  for (const t of tables) {
    const e = entityOf.get(t);
    if (!e) continue;
    const time = e.timeDimension ? `${e.name}.${e.timeDimension}` : null;
    const grains = time ? [...TIME_GRAINS] : [];
    metrics.push({ name: unique(`${e.name}_count`), description: `Number of ${e.name} rows.`, entity: e.name, agg: 'count', column: null, timeDimension: time, timeGrains: grains, inferenceMethod: 'fk_constraint', reason: `row count of ${e.table}` });
    for (const c of t.columns) {
      if (!isNumericType(c.dataType) || KEYISH.test(c.name) || !MONEY.test(c.name) || e.identity.includes(c.name)) continue;
      metrics.push({
        name: unique(`${e.name}_${snake(c.name)}_sum`),
        description: `Sum of ${e.name}.${c.name}.`,
        entity: e.name,
        agg: 'sum',
        column: c.name,
        timeDimension: time,
        timeGrains: grains,
        inferenceMethod: 'name_inferred',
        reason: `numeric column '${c.name}' (${c.dataType}) named like money`,
      });
    }
  }
  joins.sort((a, b) => b.score - a.score || a.name.localeCompare(b.name));
  return { entities, joins, metrics };
}

export interface YamlFile {
  /** Relative path inside `.schemabrain/`. */
  readonly path: string;
  readonly content: string;
}

const HEADER = '# Suggested by SchemaBrain from the catalog. Review, then set validation_state: applied (or confirmed).\n';

/** Renders suggestions as definitions files (version 1 grammar), one file per kind. */
export function suggestionsToYaml(s: Suggestions, opts: { readonly prefix?: string } = {}): YamlFile[] {
  const prefix = opts.prefix ?? 'suggested';
  const trust = (method: InferenceMethod): Record<string, string> => ({ origin: 'suggested', inference_method: method, validation_state: 'draft' });
  const files: YamlFile[] = [];
  if (s.entities.length) {
    const entities = s.entities.map((e) => ({
      name: e.name,
      ...(e.description ? { description: e.description } : {}),
      table: e.table,
      identity: e.identity.length === 1 ? e.identity[0] : [...e.identity],
      group: e.group,
      ...(e.timeDimension ? { time_dimension: e.timeDimension } : {}),
      ...trust(e.inferenceMethod),
    }));
    files.push({ path: `${prefix}-entities.yaml`, content: HEADER + stringify({ version: 1, entities }, { lineWidth: 0 }) });
  }
  if (s.joins.length) {
    const doc = stringify({ version: 1, joins: s.joins.map((j) => ({ name: j.name, description: j.reason, from: j.from, to: j.to, on: j.on.map((k) => ({ from: k.from, to: k.to })), cardinality: j.cardinality, ...trust(j.inferenceMethod) })) }, { lineWidth: 0 });
    files.push({ path: `${prefix}-joins.yaml`, content: HEADER + doc });
  }
  if (s.metrics.length) {
    const metrics = s.metrics.map((m) => ({
      name: m.name,
      description: m.description,
      entity: m.entity,
      measure: m.column ? { agg: m.agg, column: m.column } : { agg: m.agg },
      ...(m.timeDimension ? { time_dimension: m.timeDimension, time_grains: [...m.timeGrains] } : {}),
      ...trust(m.inferenceMethod),
    }));
    files.push({ path: `${prefix}-metrics.yaml`, content: HEADER + stringify({ version: 1, metrics }, { lineWidth: 0 }) });
  }
  return files;
}
