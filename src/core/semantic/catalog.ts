import type { ColumnInfo, TableInfo } from '../catalog/model';
import type { TableRef } from './types';

/**
 * The slice of the catalog the semantic layer reads: tables by qualified name, and columns by name with a
 * case-insensitive fallback (definitions written `invoiceid` find Chinook's `InvoiceId` when that is the only
 * match). Built once per catalog generation; lookups are O(1) so a compile stays well under a millisecond.
 */
export interface SemanticCatalog {
  table(ref: TableRef, source?: string | null): TableInfo | undefined;
  column(table: TableInfo, name: string): ColumnInfo | undefined;
  /** Qualified `schema.table` names, for fuzzy suggestions. */
  readonly tableNames: readonly string[];
}

interface TableEntry {
  readonly table: TableInfo;
  readonly exact: ReadonlyMap<string, ColumnInfo>;
  readonly folded: ReadonlyMap<string, ColumnInfo | null>;
}

export interface CatalogSourceTables {
  readonly source: string;
  readonly tables: readonly TableInfo[];
}

/** One or more sources; an entity with no `source` matches the first source that has its table. */
export function semanticCatalog(input: readonly TableInfo[] | readonly CatalogSourceTables[]): SemanticCatalog {
  const sources: CatalogSourceTables[] =
    input.length > 0 && 'source' in input[0]! && 'tables' in input[0]! ? [...(input as readonly CatalogSourceTables[])] : [{ source: '', tables: input as readonly TableInfo[] }];
  const any = new Map<string, TableEntry>();
  const bySource = new Map<string, TableEntry>();
  const entries = new WeakMap<TableInfo, TableEntry>();
  const names: string[] = [];
  for (const s of sources) {
    for (const t of s.tables) {
      const exact = new Map<string, ColumnInfo>();
      const folded = new Map<string, ColumnInfo | null>();
      for (const c of t.columns) {
        exact.set(c.name, c);
        const k = c.name.toLowerCase();
        folded.set(k, folded.has(k) ? null : c);
      }
      const entry: TableEntry = { table: t, exact, folded };
      entries.set(t, entry);
      const key = `${t.schema}\u0000${t.name}`;
      if (!any.has(key)) {
        any.set(key, entry);
        names.push(`${t.schema}.${t.name}`);
      }
      bySource.set(`${s.source}\u0000${key}`, entry);
    }
  }
  const foldedTables = new Map<string, TableEntry | null>();
  for (const [k, e] of any) {
    const f = k.toLowerCase();
    foldedTables.set(f, foldedTables.has(f) ? null : e);
  }
  return {
    tableNames: names,
    table(ref, source) {
      const key = `${ref.schema}\u0000${ref.name}`;
      const e = (source ? bySource.get(`${source}\u0000${key}`) : undefined) ?? any.get(key) ?? foldedTables.get(key.toLowerCase()) ?? undefined;
      return e?.table;
    },
    column(table, name) {
      const e = entries.get(table);
      if (!e) return table.columns.find((c) => c.name === name);
      return e.exact.get(name) ?? e.folded.get(name.toLowerCase()) ?? undefined;
    },
  };
}

export type TimeKind = 'timestamp' | 'date' | 'year' | 'text' | 'unsupported';

/**
 * What a column's declared type allows as a time dimension. Integer columns named like a year (Pagila's
 * `release_year`, a `year` domain) support only the `year` grain; SQLite has no date type, so TEXT/DATETIME
 * declarations holding ISO-8601 strings are read through strftime.
 */
export function timeKindOf(column: ColumnInfo): TimeKind {
  const t = column.dataType.toLowerCase();
  if (t.includes('timestamp') || t.includes('datetime')) return 'timestamp';
  if (t === 'date') return 'date';
  if (t === 'year' || (/year/i.test(column.name) && /int|numeric|year/.test(t))) return 'year';
  if (/time/.test(t)) return 'unsupported';
  if (t === 'text' || t.startsWith('varchar') || t.startsWith('character') || t === '') return 'text';
  return 'unsupported';
}

export function isNumericType(dataType: string): boolean {
  return /int|numeric|decimal|real|double|float|money|number/i.test(dataType);
}
