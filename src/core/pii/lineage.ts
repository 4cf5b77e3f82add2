import type { ColumnInfo, PiiTag, RowTypeRef } from '../catalog/model';
import { blockingSignals, propagate } from './propagate';

/**
 * A generated column is computed from other columns of its row (`ssn_last4 text GENERATED ALWAYS AS (right(ssn, 4))`,
 * a `tsvector` over a name and an SSN): it holds what they hold, under another name. Each generated column takes the
 * tags of the columns its expression names, merged with its own (`propagate`), so whatever blocks, masks or scrubs a
 * source column does the same to every column computed from it — in the catalog's statistics, in masking, in
 * profiles and in search.
 *
 * The expression is read for identifiers only; a word that merely looks like a column name (a string literal, a
 * function named like a column) adds that column's tags too, which can only block more. A generated column whose
 * expression the catalog does not hold (SQLite keeps it in the table's DDL only) takes the tags of every tagged
 * column of its table. Generated columns built on generated columns (MySQL allows it) are followed to a fixed point.
 */
export function withGeneratedLineage<C extends ColumnInfo>(columns: readonly C[]): readonly C[] {
  if (!columns.some((c) => c.isGenerated)) return columns;
  const byName = new Map(columns.map((c, i) => [c.name.toLowerCase(), i]));
  const sources: number[][] = columns.map((c, i) => {
    if (!c.isGenerated) return [];
    const expr = generationExpression(c.defaultExpr);
    if (expr === null) return columns.map((_, j) => j).filter((j) => j !== i);
    const out = new Set<number>();
    for (const word of identifiers(expr)) {
      const j = byName.get(word);
      if (j !== undefined && j !== i) out.add(j);
    }
    return [...out];
  });
  const tags: Array<PiiTag | null> = columns.map((c) => c.pii);
  for (let round = 0; round < columns.length; round++) {
    let moved = false;
    sources.forEach((from, i) => {
      const tagged = from.filter((j) => tags[j] !== null);
      if (tagged.length === 0) return;
      const merged = withSignal(propagate([tags[i], ...tagged.map((j) => tags[j])]), `generated_from:${tagged.map((j) => columns[j]!.name).join(',')}`);
      if (sameLineage(tags[i], merged, 'generated_from:')) return;
      tags[i] = merged;
      moved = true;
    });
    if (!moved) break;
  }
  if (tags.every((t, i) => t === columns[i]!.pii)) return columns;
  return columns.map((c, i) => (tags[i] === c.pii ? c : { ...c, pii: tags[i] }));
}

/**
 * The expression of a generated column as introspection reports it: PostgreSQL gives the bare expression, MySQL
 * `GENERATED ALWAYS AS (expr) STORED`; null when there is none (SQLite).
 */
function generationExpression(defaultExpr: string | null): string | null {
  if (defaultExpr === null || defaultExpr.trim() === '') return null;
  return defaultExpr;
}

const IDENTIFIER = /"((?:[^"]|"")+)"|`((?:[^`]|``)+)`|\[([^\]]+)\]|([A-Za-z_\u0080-\uffff][\w$\u0080-\uffff]*)/g;

/** The identifiers of an SQL text, lower-case and unquoted ("…", `…`, […] or bare): a word that names a column counts. */
export function identifiers(expr: string): Set<string> {
  const out = new Set<string>();
  for (const m of expr.matchAll(IDENTIFIER)) {
    if (m[3] !== undefined) for (const inner of identifiers(m[3])) out.add(inner); // `ARRAY[a.ssn]`, or `[a b]`
    const word = m[1]?.replace(/""/g, '"') ?? m[2]?.replace(/``/g, '`') ?? m[3] ?? m[4]!;
    out.add(word.toLowerCase());
  }
  return out;
}

function withSignal(tag: PiiTag, signal: string): PiiTag {
  const kind = signal.slice(0, signal.indexOf(':') + 1);
  return tag.signals.includes(signal) ? tag : { ...tag, signals: [...tag.signals.filter((s) => !s.startsWith(kind)), signal] };
}

/** Whether `a` is already `b` as far as a lineage pass of `kind` (`generated_from:`, `view_reads:`) goes: a fixed point. */
function sameLineage(a: PiiTag | null, b: PiiTag, kind: string): boolean {
  return a !== null && a.sensitivity === b.sensitivity && blockingSignals(a) === blockingSignals(b) && a.categories.length === b.categories.length && a.categories.every((c, i) => c === b.categories[i]) && a.signals.some((s) => s.startsWith(kind));
}

/**
 * A column with its statistics' values (common values, min and max) dropped when it is tagged: raw values of PII
 * columns never reach the catalog. Counts and widths stay.
 */
export function withoutValueStats<C extends ColumnInfo>(c: C): C {
  if (!c.pii || !c.stats) return c;
  return { ...c, stats: { ...c.stats, mostCommonValues: null, mostCommonFreqs: null, minValue: null, maxValue: null } };
}

type Relation = {
  readonly schema: string;
  readonly name: string;
  readonly kind: string;
  readonly viewDefinition: string | null;
  readonly columns: readonly ColumnInfo[];
  readonly foreignKeys?: readonly { readonly columns: readonly string[]; readonly targetSchema: string; readonly targetTable: string; readonly targetColumns: readonly string[] }[];
  readonly inheritedBy?: readonly string[];
};

const TOKEN = /"((?:[^"]|"")+)"|`((?:[^`]|``)+)`|\[([^\]]+)\]|'(?:[^']|'')*'|([A-Za-z_\u0080-\uffff][\w$\u0080-\uffff]*)|(\d+(?:\.\d+)?)|(\S)/g;

interface Token {
  readonly word: string | null;
  readonly punct: string | null;
}

function tokens(sql: string): Token[] {
  const out: Token[] = [];
  for (const m of sql.matchAll(TOKEN)) {
    // `[…]` is a quoted name in SQLite and an array subscript or constructor elsewhere (`ARRAY[users.ssn]`): its
    // text is read as the tokens inside it, whichever it is, so a column named in an array is not lost.
    if (m[3] !== undefined) {
      out.push({ word: null, punct: '[' }, ...tokens(m[3]), { word: null, punct: ']' });
      if (/^[\w$\u0080-\uffff ]+$/.test(m[3])) out.push({ word: m[3].toLowerCase(), punct: null });
      continue;
    }
    const word = m[1]?.replace(/""/g, '"') ?? m[2]?.replace(/``/g, '`') ?? m[4] ?? null;
    out.push(word !== null ? { word: word.toLowerCase(), punct: null } : { word: null, punct: m[5] ?? m[6] ?? m[0]![0]! });
  }
  return out;
}

/** SQL words after which a name is not an alias of the expression before it. */
const NOT_AN_ALIAS_AFTER = new Set(['select', 'distinct', 'all', 'from', 'join', 'on', 'where', 'and', 'or', 'not', 'by', 'having', 'when', 'then', 'else', 'case', 'in', 'is', 'like', 'union', 'except', 'intersect', 'with', 'over', 'partition', 'using', 'lateral', 'only', 'into', 'between', 'exists', 'any', 'some', 'limit', 'offset', 'window', 'returning', 'cast', 'array', 'row', 'values', 'natural', 'left', 'right', 'inner', 'outer', 'full', 'cross', 'group', 'order']);

/**
 * Whether `name` is given to some expression of the definition as its alias: `expr AS name`, or an implicit alias
 * (`expr name`, where the word before is a name, a literal or a closing parenthesis, not a keyword or a comma).
 */
function isAliased(toks: readonly Token[], name: string): boolean {
  for (let i = 1; i < toks.length; i++) {
    if (toks[i]!.word !== name) continue;
    const prev = toks[i - 1]!;
    if (prev.word === 'as') return true;
    if (prev.punct === ')' || (prev.punct !== null && /[\d']/.test(prev.punct))) return true;
    if (prev.word !== null && !NOT_AN_ALIAS_AFTER.has(prev.word)) return true;
  }
  return false;
}

/**
 * A view (or materialized view) holds what the relations it reads hold: each of its columns takes tags from the
 * tagged columns its definition names. A column that passes a base column through under that column's own name
 * takes that column's tags; a column that is given its name by an alias (renamed or computed: `ssn AS ref_code`,
 * `right(card, 4) last4`) may come from any column the definition names, so it takes the tags of every tagged
 * column the definition names (fail closed: a definition is read for names, not parsed). Views over views are
 * followed to a fixed point. Relations that are not views are returned as they are; a relation is returned as it
 * was when nothing changed.
 */
export function withViewLineage<T extends Relation>(relations: readonly T[]): T[] {
  const views = relations.map((r, i) => [r, i] as const).filter(([r]) => (r.kind === 'view' || r.kind === 'materialized_view') && r.viewDefinition);
  const out = [...relations];
  if (views.length === 0) return out;
  const parsed = new Map(views.map(([r, i]) => [i, tokens(r.viewDefinition!)]));
  for (let round = 0; round <= views.length; round++) {
    // Tagged columns by relation name (bare and schema-qualified), as this round sees them.
    const relationsByName = new Map<string, T[]>();
    for (const r of out) for (const key of [r.name.toLowerCase(), `${r.schema}.${r.name}`.toLowerCase()]) relationsByName.set(key, [...(relationsByName.get(key) ?? []), r]);
    const byRelation = new Map<string, ColumnInfo[]>();
    for (const r of out) {
      const tagged = r.columns.filter((c) => c.pii !== null);
      if (tagged.length === 0) continue;
      for (const key of [r.name.toLowerCase(), `${r.schema}.${r.name}`.toLowerCase()]) byRelation.set(key, [...(byRelation.get(key) ?? []), ...tagged]);
    }
    let moved = false;
    for (const [, i] of views) {
      const toks = parsed.get(i)!;
      const words = new Set(toks.flatMap((t) => (t.word === null ? [] : [t.word])));
      // Tagged columns of the relations the definition names, that the definition names.
      const read = new Map<string, Array<PiiTag>>();
      for (const w of words) {
        for (const c of byRelation.get(w) ?? []) {
          if (c === undefined || !words.has(c.name.toLowerCase()) || relations[i]!.columns.includes(c)) continue;
          read.set(c.name.toLowerCase(), [...(read.get(c.name.toLowerCase()) ?? []), c.pii!]);
        }
      }
      // Whole rows: a relation, or its alias, used as a value (`row_to_json(u)`, `u::text`, `u.*::text`,
      // `json_build_object('k', c)`) carries every column of it; such a word reads all the relation's tagged columns.
      const aliases = aliasesOf(toks, byRelation);
      for (const [word, relation] of aliases) {
        if (!usedWhole(toks, word, byRelation)) continue;
        read.set(word, [...(read.get(word) ?? []), ...(byRelation.get(relation) ?? []).map((c) => c.pii!)]);
      }
      // `t.*` and a bare `*` read every column of the relations they cover, each under its own name, though the
      // definition never writes the names.
      for (const covered of starred(toks, aliases)) {
        for (const c of byRelation.get(covered) ?? []) {
          if (relations[i]!.columns.includes(c)) continue;
          read.set(c.name.toLowerCase(), [...(read.get(c.name.toLowerCase()) ?? []), c.pii!]);
        }
      }
      if (read.size === 0) continue;
      const all = [...read.values()].flat();
      const items = selectItems(toks);
      const current = out[i]!;
      // A view with a column list (`CREATE VIEW v(a, b) AS SELECT id, ssn …`, SQLite keeps the SELECT alone) renames
      // its items by position: when none of its columns is named as an item, the k-th column is the k-th item.
      const itemList = items ? [...items.values()] : null;
      const byPosition = itemList !== null && itemList.length === current.columns.length && current.columns.every((c) => !items!.has(c.name.toLowerCase()));
      // Every column name of the relations the definition names: a view column named like none of them, and named by
      // no item or alias, is explained by nothing here and may come from anything the definition reads.
      const namedColumns = new Set<string>();
      for (const w of words) for (const r of relationsByName.get(w) ?? []) for (const c of r.columns) namedColumns.add(c.name.toLowerCase());
      const columns = current.columns.map((c, k) => {
        const name = c.name.toLowerCase();
        // A simple SELECT list names what each output column is made of; otherwise a column named by an alias may
        // come from any column the definition reads, and one that is not is a pass-through of the column of its name.
        const item = byPosition ? itemList![k] : items?.get(name);
        const from = item
          ? [...item].flatMap((w) => read.get(w) ?? [])
          : isAliased(toks, name) || !namedColumns.has(name)
            ? all
            : (read.get(name) ?? []);
        if (from.length === 0) return c;
        const merged = withSignal(propagate([c.pii, ...from]), `view_reads:${[...read.keys()].sort().join(',')}`);
        return sameLineage(c.pii, merged, 'view_reads:') ? c : { ...c, pii: merged };
      });
      if (columns.some((c, k) => c !== current.columns[k])) {
        out[i] = { ...current, columns };
        moved = true;
      }
    }
    if (!moved) break;
  }
  return out;
}

/**
 * The relations of a definition with tagged columns, each by its name and by the alias it is given
 * (`FROM users u`, `JOIN users AS u`): word → relation key of `byRelation`.
 */
function aliasesOf(toks: readonly Token[], byRelation: ReadonlyMap<string, readonly ColumnInfo[]>): Map<string, string> {
  const out = new Map<string, string>();
  for (let k = 0; k < toks.length; k++) {
    const w = toks[k]!.word;
    if (w === null || !byRelation.has(w) || toks[k + 1]?.punct === '.') continue;
    out.set(w, w);
    const n1 = toks[k + 1];
    const alias = n1?.word === 'as' ? toks[k + 2]?.word : n1?.word !== null && n1?.word !== undefined && !NOT_AN_ALIAS_AFTER.has(n1.word) ? n1.word : null;
    if (alias) out.set(alias, w);
  }
  return out;
}

/**
 * Whether `word` (a relation or its alias) appears as a value somewhere: not before a `.` (`u.email` is one column),
 * and not where a relation is named or given its alias (after FROM, JOIN or the relation's own name).
 */
function usedWhole(toks: readonly Token[], word: string, byRelation: ReadonlyMap<string, readonly ColumnInfo[]>): boolean {
  for (let k = 0; k < toks.length; k++) {
    if (toks[k]!.word !== word) continue;
    if (toks[k + 1]?.punct === '.') {
      // `u.*` as a value (`row_to_json(u.*)`, `u.*::text`, `(u.*)::users`); as a SELECT item it passes the columns
      // through under their names, which `starred` covers.
      if (toks[k + 2]?.punct === '*' && !isStarItem(toks, k)) return true;
      continue;
    }
    const prev = toks[k - 1];
    if (prev?.punct === '.') continue; // schema.relation
    if (prev?.word === 'from' || prev?.word === 'join' || prev?.word === 'only') continue;
    if (prev?.word !== null && prev?.word !== undefined && byRelation.has(prev.word)) continue; // `users u`
    if (prev?.word === 'as' && toks[k - 2]?.word !== null && toks[k - 2]?.word !== undefined && byRelation.has(toks[k - 2]!.word!)) continue;
    if (byRelation.has(word) && toks[k + 1]?.word !== null && toks[k + 1]?.word !== undefined && !NOT_AN_ALIAS_AFTER.has(toks[k + 1]!.word!)) continue; // `users u` in a FROM list after a comma
    return true;
  }
  return false;
}

/** Whether `t.*` at token k (the `t`) is a SELECT item of its own: after SELECT, DISTINCT or a comma, before a comma or FROM. */
function isStarItem(toks: readonly Token[], k: number): boolean {
  const prev = toks[k - 1];
  const next = toks[k + 3];
  const starts = prev?.word === 'select' || prev?.word === 'distinct' || prev?.word === 'all' || prev?.punct === ',';
  const ends = next === undefined || next.punct === ',' || next.punct === ';' || next.punct === ')' || next.word === 'from';
  return starts && ends;
}

/**
 * The relations (keys of `byRelation`) whose columns a `*` or `t.*` of the definition covers: `t.*` the relation of
 * alias t; a bare `*` item (after SELECT, DISTINCT or a comma, not `count(*)` or a product) every relation named.
 */
function starred(toks: readonly Token[], aliases: ReadonlyMap<string, string>): Set<string> {
  const out = new Set<string>();
  for (let k = 0; k < toks.length; k++) {
    if (toks[k]!.punct !== '*') continue;
    const prev = toks[k - 1];
    if (prev?.punct === '.') {
      const rel = aliases.get(toks[k - 2]?.word ?? '');
      if (rel) out.add(rel);
    } else if (prev?.word === 'select' || prev?.word === 'distinct' || prev?.word === 'all' || prev?.punct === ',') {
      for (const rel of aliases.values()) out.add(rel);
    }
  }
  return out;
}

/**
 * The output columns of a definition that is one plain SELECT — no set operation, no WITH, no subquery outside its
 * SELECT list — each with the words its expression uses; null for any other definition. `a.b` names column b; an
 * item named by `AS x` or an implicit alias is x; a bare column or `t.c` is named after it; `*` and `t.*` give no
 * entry (their columns pass through under their own names).
 */
function selectItems(toks: readonly Token[]): Map<string, Set<string>> | null {
  let start = 0;
  if (toks[0]?.word !== 'select') return null;
  start = 1;
  if (toks[start]?.word === 'distinct' || toks[start]?.word === 'all') start++;
  let depth = 0;
  let end = toks.length;
  for (let k = start; k < toks.length; k++) {
    const t = toks[k]!;
    if (t.punct === '(') depth++;
    else if (t.punct === ')') depth--;
    else if (depth === 0 && t.word === 'from') {
      end = k;
      break;
    }
  }
  // Past the SELECT list: no other SELECT (a derived table, a CTE, a set operation) may feed the output.
  for (let k = end; k < toks.length; k++) if (toks[k]!.word === 'select' || toks[k]!.word === 'union' || toks[k]!.word === 'intersect' || toks[k]!.word === 'except') return null;
  const out = new Map<string, Set<string>>();
  let item: Token[] = [];
  const close = (): boolean => {
    if (item.length === 0) return false;
    const last = item[item.length - 1]!;
    // A qualifier (`u` of `u.email`) names where a column comes from, not a value the item reads whole.
    const words = new Set(item.flatMap((t, k) => (t.word === null || (item[k + 1]?.punct === '.' && item[k + 2]?.punct !== '*') ? [] : [t.word])));
    if (last.punct === '*') {
      item = [];
      return true;
    }
    if (last.word === null) return false;
    const prev = item[item.length - 2];
    const simple = item.length === 1 || (item.length === 3 && item[1]!.punct === '.' && item[0]!.word !== null);
    if (!simple && !(prev?.word === 'as' || prev?.punct === ')' || (prev?.word !== null && prev?.word !== undefined && !NOT_AN_ALIAS_AFTER.has(prev.word)))) return false;
    const name = last.word;
    const used = out.get(name) ?? new Set<string>();
    for (const w of words) used.add(w);
    out.set(name, used);
    item = [];
    return true;
  };
  depth = 0;
  for (let k = start; k < end; k++) {
    const t = toks[k]!;
    if (t.punct === '(') depth++;
    else if (t.punct === ')') depth--;
    if (depth === 0 && t.punct === ',') {
      if (!close()) return null;
      continue;
    }
    item.push(t);
  }
  return close() || item.length === 0 ? out : null;
}


/**
 * A column whose type is a relation's row type (`u users`, `history users[]`: PostgreSQL gives every table, view and
 * composite a type of its own name) holds whole rows of that relation: it takes the tags of every tagged column of
 * the relation, merged with its own. The type is matched as introspection writes it (`users`, `public.users`,
 * `"Users"`, with `[]` for an array); a bare name that more than one schema uses matches all of them (fail closed).
 */
export function withRowTypeLineage<T extends Relation>(relations: readonly T[], refs: readonly RowTypeRef[] = []): T[] {
  // Explicit references (what the database says a column's type holds, at any depth) by `schema.table` → column.
  const explicit = new Map<string, Map<string, string[]>>();
  for (const r of refs) {
    const key = `${r.schema}.${r.table}`.toLowerCase();
    const m = explicit.get(key) ?? new Map<string, string[]>();
    m.set(r.column, [...(m.get(r.column) ?? []), `${r.refSchema}.${r.refTable}`.toLowerCase()]);
    explicit.set(key, m);
  }
  const byType = new Map<string, ColumnInfo[]>();
  for (const r of relations) {
    const tagged = r.columns.filter((c) => c.pii !== null);
    if (tagged.length === 0) continue;
    for (const key of [r.name.toLowerCase(), `${r.schema}.${r.name}`.toLowerCase()]) byType.set(key, [...(byType.get(key) ?? []), ...tagged]);
  }
  if (byType.size === 0) return [...relations];
  return relations.map((r) => {
    const held = explicit.get(`${r.schema}.${r.name}`.toLowerCase());
    const columns = r.columns.map((c) => {
      const type = c.dataType.replace(/(\s*\[\d*\])+$/, '').trim();
      const key = type.split('.').map((p) => (p.startsWith('"') && p.endsWith('"') ? p.slice(1, -1).replace(/""/g, '"') : p)).join('.').toLowerCase();
      const keys = [key, ...(held?.get(c.name) ?? [])];
      const from = keys.flatMap((k) => byType.get(k) ?? []).filter((s) => !r.columns.includes(s));
      if (from.length === 0) return c;
      const merged = withSignal(propagate([c.pii, ...from.map((s) => s.pii!)]), `row_type:${key}`);
      return sameLineage(c.pii, merged, 'row_type:') ? c : { ...c, pii: merged };
    });
    return columns.some((c, k) => c !== r.columns[k]) ? { ...r, columns } : r;
  });
}

/**
 * A column that references another through a foreign key holds that column's values (`visa.holder` REFERENCES
 * `person.passport_number`): it takes the referenced column's tags, merged with its own.
 */
export function withForeignKeyLineage<T extends Relation>(relations: readonly T[]): T[] {
  const byName = new Map(relations.map((r) => [`${r.schema}.${r.name}`.toLowerCase(), r]));
  return relations.map((r) => {
    if (!r.foreignKeys?.length) return r;
    const from = new Map<string, ColumnInfo[]>();
    for (const fk of r.foreignKeys) {
      const target = byName.get(`${fk.targetSchema}.${fk.targetTable}`.toLowerCase());
      if (!target) continue;
      fk.columns.forEach((c, k) => {
        const t = target.columns.find((x) => x.name === fk.targetColumns[k]);
        if (t?.pii && !(target === r && t.name === c)) from.set(c, [...(from.get(c) ?? []), t]);
      });
    }
    if (from.size === 0) return r;
    const columns = r.columns.map((c) => {
      const refs = from.get(c.name);
      if (!refs) return c;
      const merged = withSignal(propagate([c.pii, ...refs.map((t) => t.pii!)]), `references:${refs.map((t) => t.name).join(',')}`);
      return sameLineage(c.pii, merged, 'references:') ? c : { ...c, pii: merged };
    });
    return columns.some((c, k) => c !== r.columns[k]) ? { ...r, columns } : r;
  });
}

/**
 * A read of a table reads the rows of the tables that inherit from it (PostgreSQL `INHERITS`): each of its columns
 * takes the tags of the column of the same name in every such table, at any depth (to a fixed point with the rest).
 */
export function withInheritanceLineage<T extends Relation>(relations: readonly T[]): T[] {
  if (!relations.some((r) => r.inheritedBy?.length)) return [...relations];
  const byName = new Map(relations.map((r) => [`${r.schema}.${r.name}`.toLowerCase(), r]));
  return relations.map((parent) => {
    if (!parent.inheritedBy?.length) return parent;
    const kids = parent.inheritedBy.map((q) => byName.get(q.toLowerCase())).filter((k): k is T => k !== undefined);
    const columns = parent.columns.map((c) => {
      const from = kids.flatMap((k) => k.columns.filter((x) => x.name === c.name && x.pii !== null).map((x) => x.pii!));
      if (from.length === 0) return c;
      const merged = withSignal(propagate([c.pii, ...from]), `inherited_by:${kids.map((k) => k.name).sort().join(',')}`);
      return sameLineage(c.pii, merged, 'inherited_by:') ? c : { ...c, pii: merged };
    });
    return columns.some((c, k) => c !== parent.columns[k]) ? { ...parent, columns } : parent;
  });
}

/**
 * A materialized view holds the rows its definition gave at its last refresh, and a view it reads (at any depth) may
 * have been defined otherwise then: `CREATE MATERIALIZED VIEW m AS SELECT * FROM v` filled while `v` read a password,
 * `v` redefined since without a refresh. Its rows cannot be traced to today's definitions, so a materialized view that
 * reads a view takes, on every column, the tags of every tagged column of every relation it reaches through its views
 * (fail closed). One that reads tables only is traced as any view is (withViewLineage).
 */
export function withMaterializedViewLineage<T extends Relation>(relations: readonly T[]): T[] {
  const byName = new Map<string, T[]>();
  for (const r of relations) for (const key of [r.name.toLowerCase(), `${r.schema}.${r.name}`.toLowerCase()]) byName.set(key, [...(byName.get(key) ?? []), r]);
  const named = (r: T): T[] => {
    const out = new Set<T>();
    for (const w of identifiers(r.viewDefinition ?? '')) for (const x of byName.get(w) ?? []) if (x !== r) out.add(x);
    return [...out];
  };
  return relations.map((m) => {
    if (m.kind !== 'materialized_view' || !m.viewDefinition) return m;
    const direct = named(m);
    if (!direct.some((x) => x.kind === 'view')) return m;
    const reached = new Set<T>();
    const stack = [...direct];
    while (stack.length > 0 && reached.size < 10_000) {
      const x = stack.pop()!;
      if (reached.has(x)) continue;
      reached.add(x);
      if (x.kind === 'view' || x.kind === 'materialized_view') stack.push(...named(x));
    }
    const tagged = [...reached].flatMap((x) => x.columns.filter((c) => c.pii !== null));
    if (tagged.length === 0) return m;
    const columns = m.columns.map((c) => {
      const merged = withSignal(propagate([c.pii, ...tagged.map((t) => t.pii!)]), `refreshed_through:${[...reached].filter((x) => x.kind === 'view').map((x) => x.name).sort().join(',')}`);
      return sameLineage(c.pii, merged, 'refreshed_through:') ? c : { ...c, pii: merged };
    });
    return columns.some((c, k) => c !== m.columns[k]) ? { ...m, columns } : m;
  });
}

/**
 * Every lineage pass over one source's relations, as the indexer runs them: generated columns within each table, then
 * foreign keys, views and row types feeding each other to a fixed point. The team server runs it again after applying a published
 * column override at serve time, so what is derived from an overridden column follows it without a re-index (there
 * the database's explicit row-type references are not at hand: a column's type names the relation).
 */
export function withLineage<T extends Relation>(relations: readonly T[], refs: readonly RowTypeRef[] = []): T[] {
  let lineage: T[] = relations.map((t) => {
    const columns = withGeneratedLineage(t.columns);
    return columns === t.columns ? t : { ...t, columns };
  });
  for (let round = 0; round < 8; round++) {
    const next = withMaterializedViewLineage(withRowTypeLineage(withViewLineage(withInheritanceLineage(withForeignKeyLineage(lineage))), refs)).map((t) => {
      const columns = withGeneratedLineage(t.columns); // a generated column over one that took tags in this round
      return columns === t.columns ? t : { ...t, columns };
    });
    const same = next.every((t, k) => t.columns.every((c, j) => c.pii === lineage[k]!.columns[j]!.pii));
    lineage = next;
    if (same) break;
  }
  return lineage;
}
