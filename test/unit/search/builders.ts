import type { ColumnInfo, ForeignKeyInfo, TableInfo } from '../../../src/core/catalog/model';
import { RANKING } from '../../../src/core/search/rank';
import type { SearchTableInput } from '../../../src/core/search/index';

/**
 * Small catalogs for the search tests, all in schema `public` of source `db`. Each test file says how a column's
 * type follows from its name (the search reads types: integer ids, timestamps, text labels).
 */
export function catalogBuilders(typeOf: (column: string) => string): {
  column: (name: string, extra?: Partial<ColumnInfo>) => ColumnInfo;
  table: (name: string, columns: ReadonlyArray<string | ColumnInfo>, fks?: ForeignKeyInfo[]) => TableInfo;
} {
  const column = (name: string, extra: Partial<ColumnInfo> = {}): ColumnInfo => ({
    name,
    ordinal: 1,
    dataType: typeOf(name),
    isNullable: true,
    defaultExpr: null,
    isGenerated: false,
    isIdentity: false,
    comment: null,
    enumLabels: null,
    stats: null,
    pii: null,
    ...extra,
  });
  const table = (name: string, columns: ReadonlyArray<string | ColumnInfo>, fks: ForeignKeyInfo[] = []): TableInfo => ({
    schema: 'public',
    name,
    kind: 'table',
    comment: null,
    rowEstimate: null,
    columns: columns.map((c, i) => ({ ...(typeof c === 'string' ? column(c) : c), ordinal: i + 1 })),
    primaryKey: null,
    uniqueConstraints: [],
    checkConstraints: [],
    foreignKeys: fks,
    indexes: [],
    partitions: [],
    viewDefinition: null,
    fingerprint: '',
  });
  return { column, table };
}

export function fk(columns: string[], targetTable: string, targetColumns: string[] = ['id']): ForeignKeyInfo {
  return { name: `${columns.join('_')}_${targetTable}_fkey`, columns, targetSchema: 'public', targetTable, targetColumns, onDelete: null, onUpdate: null };
}

/** The table with a primary key of these columns. */
export const keyed = (t: TableInfo, columns: string[]): TableInfo => ({ ...t, primaryKey: { name: `${t.name}_pkey`, columns } });
export const src = (tables: TableInfo[], sourceName = 'db'): SearchTableInput[] => tables.map((t) => ({ sourceName, table: t }));
export const names = (hits: ReadonlyArray<{ qualifiedName: string }>): string[] => hits.map((h) => h.qualifiedName.replace(/^public\./, ''));
/** The hits with their reasons, a line each: the message of an assertion about a ranking. */
export const reasons = (hits: ReadonlyArray<{ qualifiedName: string; why: readonly string[] }>): string => hits.map((h) => `${h.qualifiedName}: ${h.why.join('; ')}`).join('\n');
/** The reasons a hit of `public.<table>` gives, or none when the table is not among the hits. */
export const whyOf = (hits: ReadonlyArray<{ qualifiedName: string; why: readonly string[] }>, table: string): readonly string[] => hits.find((h) => h.qualifiedName === `public.${table}`)?.why ?? [];

/** Runs `fn` with one ranking constant (`RANKING` in rank.ts) set to `value`, and restores it afterwards. */
export function withRanking<T>(name: keyof typeof RANKING, value: number, fn: () => T): T {
  const constants = RANKING as unknown as Record<string, number>;
  const saved = constants[name]!;
  constants[name] = value;
  try {
    return fn();
  } finally {
    constants[name] = saved;
  }
}
