import type { TableInfo } from '../catalog/model';
import { fuzzyMatches } from '../envelope/fuzzy';
import { isNumericType, timeKindOf } from './catalog';
import type { SemanticCatalog } from './catalog';
import { expressionColumns } from './expression';
import { buildModel } from './types';
import type { DefinitionLocation, DiagnosticFix, EntityDef, JoinDef, MetricDef, SemanticModel, Severity } from './types';

export type Reporter = (loc: DefinitionLocation | null, severity: Severity, code: string, message: string, fix?: DiagnosticFix, keyOnly?: boolean) => void;

/**
 * Cross-checks definitions against each other and, when given, against the catalog. Objects whose references
 * inside the model are broken (a join to an unknown entity) are dropped so the planner never sees them; objects
 * that only disagree with the catalog stay, and the planner answers `schema_drift` or `unknown_*_column` for
 * them at call time, which is what an agent can act on.
 */
export function validateModel(model: SemanticModel, catalog: SemanticCatalog | undefined, report: Reporter): SemanticModel {
  const entityNames = [...model.entities.keys()];
  const at = (def: { location: DefinitionLocation | null }, ...sub: (string | number)[]): DefinitionLocation | null =>
    def.location ? { file: def.location.file, path: [...def.location.path, ...sub] } : null;
  const tableOf = new Map<string, TableInfo>();

  const checkColumn = (table: TableInfo, column: string, loc: DefinitionLocation | null, what: string, entity: string): boolean => {
    if (!catalog) return true;
    if (catalog.column(table, column)) return true;
    const best = fuzzyMatches(column, table.columns.map((c) => c.name), 1, 0.4)[0];
    report(loc, 'error', 'unknown_column', `${what} '${column}' is not a column of ${table.schema}.${table.name} (entity '${entity}')${best ? `; did you mean '${best}'?` : ''}`, best ? { title: `Change to '${best}'`, replacement: best } : undefined);
    return false;
  };
  const unknownEntity = (name: string, loc: DefinitionLocation | null, what: string): void => {
    const best = fuzzyMatches(name, entityNames, 1, 0.4)[0];
    report(loc, 'error', 'unknown_entity', `${what} '${name}' is not a defined entity${best ? `; did you mean '${best}'?` : ''}`, best ? { title: `Change to '${best}'`, replacement: best } : undefined);
  };

  const entities: EntityDef[] = [];
  for (const e of model.entities.values()) {
    entities.push(e);
    if (!catalog) continue;
    const t = catalog.table(e.table, e.source);
    if (!t) {
      const q = `${e.table.schema}.${e.table.name}`;
      const best = fuzzyMatches(q, catalog.tableNames, 1, 0.4)[0];
      report(at(e, 'table'), 'error', 'unknown_table', `table '${q}' of entity '${e.name}' is not in the catalog${best ? `; did you mean '${best}'?` : ''} (re-index if it was added recently)`, best ? { title: `Change to '${best}'`, replacement: best } : undefined);
      continue;
    }
    tableOf.set(e.name, t);
    e.identity.forEach((c, i) => checkColumn(t, c, at(e, 'identity', ...(e.identity.length > 1 ? [i] : [])), 'identity column', e.name));
    if (e.identity.length === 0) {
      report(at(e, 'name'), 'warning', 'no_identity', `entity '${e.name}' has no identity column: metrics on it cannot be de-duplicated across one-to-many joins`);
    }
    if (e.timeDimension && checkColumn(t, e.timeDimension, at(e, 'time_dimension'), 'time dimension', e.name)) {
      const col = catalog.column(t, e.timeDimension)!;
      if (timeKindOf(col) === 'unsupported') report(at(e, 'time_dimension'), 'warning', 'not_a_time_column', `time dimension '${e.timeDimension}' has type ${col.dataType}, which no time grain supports`);
    }
  }

  const joins: JoinDef[] = [];
  for (const j of model.joins.values()) {
    let ok = true;
    for (const side of ['from', 'to'] as const) {
      if (!model.entities.has(j[side])) {
        unknownEntity(j[side], at(j, side), `join '${j.name}' ${side}`);
        ok = false;
      }
    }
    if (!ok) continue;
    joins.push(j);
    const ft = tableOf.get(j.from);
    const tt = tableOf.get(j.to);
    j.on.forEach((k, i) => {
      if (ft) checkColumn(ft, k.from, at(j, 'on', i, 'from'), `join '${j.name}' column`, j.from);
      if (tt) checkColumn(tt, k.to, at(j, 'on', i, 'to'), `join '${j.name}' column`, j.to);
    });
    if (catalog && ft && tt) {
      const toUnique = isUniqueKey(tt, j.on.map((k) => k.to), catalog);
      const fromUnique = isUniqueKey(ft, j.on.map((k) => k.from), catalog);
      const toOne = j.cardinality === 'many_to_one' || j.cardinality === 'one_to_one';
      const fromOne = j.cardinality === 'one_to_many' || j.cardinality === 'one_to_one';
      if ((toOne && !toUnique) || (fromOne && !fromUnique)) {
        report(at(j, 'cardinality'), 'warning', 'cardinality_unverified', `join '${j.name}' is declared ${j.cardinality}, but the 'one' side's columns are not a primary or unique key in the catalog; if they repeat, metrics through this join are inflated`);
      }
    }
  }

  const metrics: MetricDef[] = [];
  for (const m of model.metrics.values()) {
    if (!model.entities.has(m.entity)) {
      unknownEntity(m.entity, at(m, 'entity'), `metric '${m.name}' entity`);
      continue;
    }
    let ok = true;
    const refs: Array<[string, DefinitionLocation | null, string]> = m.filters.map((f, i) => [f.column, at(m, 'filters', i, 'column'), 'filter column']);
    if (m.timeDimension) refs.push([m.timeDimension.includes('.') ? m.timeDimension : `${m.entity}.${m.timeDimension}`, at(m, 'time_dimension'), 'time dimension']);
    for (const [ref, loc, what] of refs) {
      const dot = ref.indexOf('.');
      if (dot <= 0 || dot === ref.length - 1 || ref.indexOf('.', dot + 1) >= 0) {
        report(loc, 'error', 'malformed_reference', `${what} '${ref}' must be written entity.column`);
        ok = false;
        continue;
      }
      const ent = ref.slice(0, dot);
      if (!model.entities.has(ent)) {
        unknownEntity(ent, loc, `${what}`);
        ok = false;
        continue;
      }
      const t = tableOf.get(ent);
      if (t && checkColumn(t, ref.slice(dot + 1), loc, what, ent) && what === 'time dimension') {
        const col = catalog!.column(t, ref.slice(dot + 1))!;
        if (timeKindOf(col) === 'unsupported') report(loc, 'warning', 'not_a_time_column', `time dimension '${ref}' has type ${col.dataType}, which no time grain supports`);
      }
    }
    if (!ok) continue;
    metrics.push(m);
    const t = tableOf.get(m.entity);
    if (!t) continue;
    if (m.measure.column && checkColumn(t, m.measure.column, at(m, 'measure', 'column'), 'measure column', m.entity)) {
      const col = catalog!.column(t, m.measure.column)!;
      if ((m.measure.agg === 'sum' || m.measure.agg === 'avg') && !isNumericType(col.dataType)) {
        report(at(m, 'measure', 'agg'), 'warning', 'non_numeric_measure', `${m.measure.agg} over '${m.measure.column}' of type ${col.dataType}: the engine may reject or coerce it`);
      }
    }
    if (m.measure.expressionAst) {
      for (const c of expressionColumns(m.measure.expressionAst)) checkColumn(t, c, at(m, 'measure', 'expression'), 'expression column', m.entity);
    }
  }
  return buildModel(entities, joins, metrics);
}

/** True when the columns cover a primary key, unique constraint or unique index of the table. */
export function isUniqueKey(table: TableInfo, columns: readonly string[], catalog?: SemanticCatalog): boolean {
  const norm = (c: string): string => (catalog ? catalog.column(table, c)?.name ?? c : c);
  const cols = new Set(columns.map(norm));
  const keys: (readonly string[])[] = [];
  if (table.primaryKey) keys.push(table.primaryKey.columns);
  for (const u of table.uniqueConstraints) keys.push(u.columns);
  for (const ix of table.indexes) if (ix.isUnique && !ix.predicate) keys.push(ix.columns);
  return keys.some((k) => k.length > 0 && k.every((c) => cols.has(c)));
}
