/** Minimal TableInfo construction for benchmark catalogs built from files rather than from a live database. */
import type { ColumnInfo, ForeignKeyInfo, TableInfo } from '../../src/core/catalog/model';

export interface ColumnSpec {
  readonly name: string;
  readonly dataType?: string;
  readonly comment?: string | null;
  readonly enumLabels?: readonly string[] | null;
}

export interface TableSpec {
  readonly schema: string;
  readonly name: string;
  readonly comment?: string | null;
  readonly columns: readonly ColumnSpec[];
  readonly primaryKey?: readonly string[];
  readonly foreignKeys?: readonly ForeignKeyInfo[];
  readonly partitions?: readonly string[];
}

export function makeColumn(c: ColumnSpec, ordinal: number): ColumnInfo {
  return {
    name: c.name,
    ordinal,
    dataType: c.dataType ?? 'text',
    isNullable: true,
    defaultExpr: null,
    isGenerated: false,
    isIdentity: false,
    comment: c.comment ?? null,
    enumLabels: c.enumLabels ?? null,
    stats: null,
    pii: null,
  };
}

export function makeTable(t: TableSpec): TableInfo {
  return {
    schema: t.schema,
    name: t.name,
    kind: 'table',
    comment: t.comment ?? null,
    rowEstimate: null,
    columns: t.columns.map((c, i) => makeColumn(c, i + 1)),
    primaryKey: t.primaryKey && t.primaryKey.length > 0 ? { name: `${t.name}_pkey`, columns: t.primaryKey } : null,
    uniqueConstraints: [],
    checkConstraints: [],
    foreignKeys: t.foreignKeys ?? [],
    indexes: [],
    partitions: t.partitions ?? [],
    viewDefinition: null,
    fingerprint: '',
  };
}

export function fk(name: string, columns: readonly string[], targetSchema: string, targetTable: string, targetColumns: readonly string[]): ForeignKeyInfo {
  return { name, columns, targetSchema, targetTable, targetColumns, onDelete: null, onUpdate: null };
}
