import {
  qualifiedName,
  type CheckConstraint,
  type ColumnInfo,
  type ColumnStats,
  type EnumInfo,
  type ForeignKeyInfo,
  type IndexInfo,
  type KeyConstraint,
  type RelationKind,
  type SchemaInfo,
  type TableInfo,
} from '../../catalog/model';
import { tableFingerprint } from '../fingerprint';
import type { ColumnRow, ConstraintRow, EnumRow, IndexRow, PartitionCommentRow, RelationRow, SchemaRow, StatsRow } from './queries';

/** Raw catalog rows → domain model, in one place. Partitions are folded into their root here. */

const KIND: Readonly<Record<string, RelationKind>> = {
  r: 'table',
  v: 'view',
  m: 'materialized_view',
  p: 'partitioned_table',
  f: 'foreign_table',
};

/** pg_constraint.confupdtype/confdeltype codes, https://www.postgresql.org/docs/current/catalog-pg-constraint.html */
const FK_ACTION: Readonly<Record<string, string>> = {
  a: 'NO ACTION',
  r: 'RESTRICT',
  c: 'CASCADE',
  n: 'SET NULL',
  d: 'SET DEFAULT',
};

export interface CatalogRows {
  readonly schemas: readonly SchemaRow[];
  readonly relations: readonly RelationRow[];
  readonly columns: readonly ColumnRow[];
  readonly constraints: readonly ConstraintRow[];
  readonly indexes: readonly IndexRow[];
  readonly enums: readonly EnumRow[];
  readonly stats: readonly StatsRow[];
  /** Comments on partitions' columns (PARTITION_COLUMN_COMMENTS_SQL), added to their root's column comment. */
  readonly partitionComments?: readonly PartitionCommentRow[];
}

export interface MappedCatalog {
  readonly schemas: readonly SchemaInfo[];
  readonly tables: readonly TableInfo[];
  readonly enums: readonly EnumInfo[];
  /** Kept relations (partitions excluded) by oid, for sampling. */
  readonly kept: ReadonlyMap<number, RelationRow>;
  /** Text-like column names per kept relation oid, for sampling. */
  readonly textColumns: ReadonlyMap<number, readonly string[]>;
  /** Those of textColumns that hold documents (json, tsvector, arrays): sampled for the PII scan, not for labels. */
  readonly documentColumns: ReadonlyMap<number, ReadonlySet<string>>;
}

/** Splits kept relations from partitions: a partition whose root is kept is folded; others are dropped. */
export function keptRelations(relations: readonly RelationRow[], keepSchemas: ReadonlySet<string> | null): Map<number, RelationRow> {
  const kept = new Map<number, RelationRow>();
  for (const r of relations) {
    if (r.is_partition) continue;
    if (keepSchemas && !keepSchemas.has(r.schema)) continue;
    kept.set(r.oid, r);
  }
  return kept;
}

export function mapCatalog(rows: CatalogRows, keepSchemas: ReadonlySet<string> | null): MappedCatalog {
  const byOid = new Map(rows.relations.map((r) => [r.oid, r] as const));
  const kept = keptRelations(rows.relations, keepSchemas);
  const rootOf = (oid: number): number => byOid.get(oid)?.root_oid ?? oid;

  const partitionComments = new Map<string, string[]>();
  for (const p of rows.partitionComments ?? []) {
    const key = `${p.root}\u0000${p.column}`;
    partitionComments.set(key, [...(partitionComments.get(key) ?? []), p.comment]);
  }
  // Inheritance children (not partitions): a read of the parent reads their rows too.
  const inheritors = new Map<number, string[]>();
  for (const r of rows.relations) {
    if (!kept.has(r.oid)) continue;
    for (const parent of r.inherits_from ?? []) inheritors.set(parent, [...(inheritors.get(parent) ?? []), qualifiedName(r.schema, r.name)]);
  }
  const children = new Map<number, RelationRow[]>();
  for (const r of rows.relations) {
    if (!r.is_partition || r.root_oid === null || !kept.has(r.root_oid)) continue;
    const list = children.get(r.root_oid) ?? [];
    list.push(r);
    children.set(r.root_oid, list);
  }

  const enumsByOid = new Map(rows.enums.map((e) => [e.type_oid, e] as const));
  const usedEnums = new Set<number>();
  const columnsByRel = group(rows.columns, (c) => c.rel_oid);
  const indexesByRel = group(rows.indexes, (i) => i.rel_oid);
  const keptByName = new Map([...kept.values()].map((r) => [qualifiedName(r.schema, r.name), r] as const));
  const statsByTable = new Map<string, Map<string, StatsRow>>();
  for (const s of rows.stats) {
    const key = qualifiedName(s.schema, s.table);
    const perCol = statsByTable.get(key) ?? new Map<string, StatsRow>();
    const prior = perCol.get(s.column);
    // Partitioned parents only have inherited (whole-tree) statistics; plain tables prefer their own rows.
    const wantInherited = keptByName.get(key)?.relkind === 'p';
    if (!prior || (prior.inherited !== wantInherited && s.inherited === wantInherited)) perCol.set(s.column, s);
    statsByTable.set(key, perCol);
  }

  const constraintsByRoot = new Map<number, ConstraintRow[]>();
  for (const c of rows.constraints) {
    const isPartition = byOid.get(c.rel_oid)?.is_partition ?? false;
    // Only FKs declared directly on a partition are folded into the parent; its own keys and checks are per-partition.
    if (isPartition && c.type !== 'f') continue;
    const root = rootOf(c.rel_oid);
    if (!kept.has(root)) continue;
    const list = constraintsByRoot.get(root) ?? [];
    list.push(c);
    constraintsByRoot.set(root, list);
  }

  const textColumns = new Map<number, string[]>();
  const documentColumns = new Map<number, Set<string>>();
  const tables: TableInfo[] = [];
  for (const rel of kept.values()) {
    const parts = (children.get(rel.oid) ?? []).sort((a, b) => cmp(qualifiedName(a.schema, a.name), qualifiedName(b.schema, b.name)));
    const rowEstimate = estimateRows(rel, parts);
    const stats = statsByTable.get(qualifiedName(rel.schema, rel.name));
    const columns: ColumnInfo[] = (columnsByRel.get(rel.oid) ?? []).map((c) => {
      const en = c.enum_oid !== null ? enumsByOid.get(c.enum_oid) : undefined;
      if (en) usedEnums.add(en.type_oid);
      if (c.is_text || c.is_document) {
        const list = textColumns.get(rel.oid) ?? [];
        list.push(c.name);
        textColumns.set(rel.oid, list);
      }
      if (c.is_document && !c.is_text) {
        const docs = documentColumns.get(rel.oid) ?? new Set<string>();
        docs.add(c.name);
        documentColumns.set(rel.oid, docs);
      }
      const s = stats?.get(c.name);
      return {
        name: c.name,
        ordinal: c.ordinal,
        dataType: c.data_type,
        isNullable: !c.not_null,
        // For generated columns PostgreSQL keeps the generation expression in pg_attrdef; it is reported here.
        defaultExpr: c.default_expr,
        isGenerated: c.generated !== '',
        isIdentity: c.identity !== '',
        comment: withPartitionComments(c.comment, partitionComments.get(`${rel.oid}\u0000${c.name}`)),
        enumLabels: en ? [...en.labels] : null,
        stats: s ? mapStats(s, rowEstimate) : null,
        pii: null,
      };
    });

    // The parent's own constraints first, so a FK declared on the parent wins over its copies on partitions.
    const cons = [...(constraintsByRoot.get(rel.oid) ?? [])].sort(
      (a, b) => Number(a.rel_oid !== rel.oid) - Number(b.rel_oid !== rel.oid) || cmp(a.name, b.name),
    );
    let primaryKey: KeyConstraint | null = null;
    const uniqueConstraints: KeyConstraint[] = [];
    const checkConstraints: CheckConstraint[] = [];
    const fkByShape = new Map<string, ForeignKeyInfo>();
    for (const c of cons) {
      if (c.type === 'p' && c.rel_oid === rel.oid) primaryKey = { name: c.name, columns: c.columns };
      else if (c.type === 'u' && c.rel_oid === rel.oid) uniqueConstraints.push({ name: c.name, columns: c.columns });
      else if (c.type === 'c' && c.rel_oid === rel.oid) checkConstraints.push({ name: c.name, expression: c.check_expr ?? '' });
      else if (c.type === 'f') {
        // A reference to a partition is a reference to the table users see: its root.
        const target = c.target_oid !== null ? byOid.get(rootOf(c.target_oid)) : undefined;
        const fk: ForeignKeyInfo = {
          name: c.name,
          columns: c.columns,
          targetSchema: target?.schema ?? c.target_schema ?? '',
          targetTable: target?.name ?? c.target_table ?? '',
          targetColumns: c.target_columns ?? [],
          onDelete: c.on_delete ? (FK_ACTION[c.on_delete] ?? null) : null,
          onUpdate: c.on_update ? (FK_ACTION[c.on_update] ?? null) : null,
        };
        const shape = JSON.stringify([fk.columns, fk.targetSchema, fk.targetTable, fk.targetColumns]);
        // The same FK declared on every partition is one relationship: keep the first (parent's, else lowest name).
        if (!fkByShape.has(shape)) fkByShape.set(shape, fk);
      }
    }

    const indexes: IndexInfo[] = (indexesByRel.get(rel.oid) ?? []).map((i) => ({
      name: i.name,
      columns: i.columns,
      isUnique: i.is_unique,
      isPrimary: i.is_primary,
      method: i.method,
      predicate: i.predicate,
      ...(i.is_clustered ? { isClustered: true } : {}),
    }));

    const base: Omit<TableInfo, 'fingerprint'> = {
      schema: rel.schema,
      name: rel.name,
      kind: KIND[rel.relkind] ?? 'table',
      comment: rel.comment,
      rowEstimate,
      columns,
      primaryKey,
      uniqueConstraints,
      checkConstraints,
      foreignKeys: [...fkByShape.values()].sort((a, b) => cmp(a.name, b.name)),
      indexes,
      partitions: parts.map((p) => qualifiedName(p.schema, p.name)),
      viewDefinition: rel.view_definition,
      ...(rel.partition_key ? { partitionKey: rel.partition_key } : {}),
      ...(inheritors.has(rel.oid) ? { inheritedBy: [...inheritors.get(rel.oid)!].sort(cmp) } : {}),
    };
    tables.push({ ...base, fingerprint: tableFingerprint(base) });
  }

  const schemaNames = new Set(rows.schemas.map((s) => s.name));
  const enums: EnumInfo[] = rows.enums
    .filter((e) => schemaNames.has(e.schema) || usedEnums.has(e.type_oid))
    .map((e) => ({ schema: e.schema, name: e.name, labels: [...e.labels] }));

  return {
    schemas: rows.schemas.map((s) => ({ name: s.name, comment: s.comment })),
    tables,
    enums,
    kept,
    textColumns,
    documentColumns,
  };
}

/** reltuples is -1 before the first VACUUM/ANALYZE (PostgreSQL 14+): unknown, not empty. */
function estimateRows(rel: RelationRow, parts: readonly RelationRow[]): number | null {
  if (rel.relkind === 'v') return null;
  const known = (r: RelationRow): number | null => (r.reltuples === null || r.reltuples < 0 ? null : Math.round(r.reltuples));
  if (parts.length > 0) {
    const leaves = parts.filter((p) => p.relkind !== 'p').map(known).filter((n): n is number => n !== null);
    if (leaves.length > 0) return leaves.reduce((a, b) => a + b, 0);
  }
  return known(rel);
}

/** n_distinct < 0 is a fraction of the row count (https://www.postgresql.org/docs/current/view-pg-stats.html). */
function mapStats(s: StatsRow, rowEstimate: number | null): ColumnStats {
  let distinct: number | null = null;
  if (s.n_distinct !== null && s.n_distinct > 0) distinct = Math.round(s.n_distinct);
  else if (s.n_distinct !== null && s.n_distinct < 0 && rowEstimate !== null) distinct = Math.max(1, Math.round(-s.n_distinct * rowEstimate));
  return {
    nullFraction: s.null_frac,
    distinctEstimate: distinct,
    mostCommonValues: s.mcv,
    mostCommonFreqs: s.mcf,
    minValue: s.min_value,
    maxValue: s.max_value,
    avgWidth: s.avg_width,
    origin: 'pg_stats',
  };
}

function group<T>(xs: readonly T[], key: (x: T) => number): Map<number, T[]> {
  const out = new Map<number, T[]>();
  for (const x of xs) {
    const k = key(x);
    const list = out.get(k);
    if (list) list.push(x);
    else out.set(k, [x]);
  }
  return out;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A folded parent's column comment with the distinct comments of its partitions' column of the same name. */
function withPartitionComments(own: string | null, parts: readonly string[] | undefined): string | null {
  const extra = [...new Set(parts ?? [])].filter((p) => p && p !== own);
  if (extra.length === 0) return own;
  return [own, ...extra].filter((x): x is string => !!x).join(' / ');
}
