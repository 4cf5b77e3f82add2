import type { CatalogView } from '../../core/catalog/view';

/**
 * Prefix lookup over the catalog's names for completion/complete: sorted, case-folded keys and a binary search, so
 * a 10,000-table catalog answers in microseconds. Matches are ordered as find_relevant_tables lists a catalog for
 * '*': most foreign-key links first, then catalog order. The degree is counted here rather than by running '*'
 * through the search index, so the first completion never waits for that index to be built.
 */
export interface TableName {
  readonly source: string;
  readonly schema: string;
  readonly table: string;
  readonly qualified: string;
  /** Position in the '*' order: lower is more connected. */
  readonly rank: number;
}

interface Keyed<T> {
  readonly key: string;
  readonly item: T;
}

function sorted<T>(rows: Array<Keyed<T>>): Array<Keyed<T>> {
  return rows.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** Items whose key starts with `prefix` (already folded), in key order. */
function prefixRange<T>(rows: ReadonlyArray<Keyed<T>>, prefix: string): Array<Keyed<T>> {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (rows[mid]!.key < prefix) lo = mid + 1;
    else hi = mid;
  }
  const out: Array<Keyed<T>> = [];
  for (let i = lo; i < rows.length && rows[i]!.key.startsWith(prefix); i++) out.push(rows[i]!);
  return out;
}

export class NameIndex {
  readonly tables: readonly TableName[];
  private readonly byTable: ReadonlyArray<Keyed<TableName>>;
  private readonly byQualified: ReadonlyArray<Keyed<TableName>>;
  readonly sources: readonly string[];
  private readonly schemas: ReadonlyMap<string, readonly string[]>;

  constructor(view: CatalogView) {
    const degree = (i: number): number => view.entries[i]!.table.foreignKeys.length + view.incomingForeignKeys(view.entries[i]!).length;
    const order = view.entries.map((_, i) => i).sort((a, b) => degree(b) - degree(a) || a - b);
    const rank = new Array<number>(order.length);
    order.forEach((entryIndex, position) => (rank[entryIndex] = position));
    this.tables = view.entries.map((e, i) => ({ source: e.source.name, schema: e.table.schema, table: e.table.name, qualified: e.qualifiedName, rank: rank[i]! }));
    this.byTable = sorted(this.tables.map((t) => ({ key: t.table.toLowerCase(), item: t })));
    this.byQualified = sorted(this.tables.map((t) => ({ key: `${t.schema}.${t.table}`.toLowerCase(), item: t })));
    this.sources = view.sources.map((s) => s.name);
    const schemas = new Map<string, Set<string>>();
    for (const t of this.tables) {
      let s = schemas.get(t.source);
      if (!s) schemas.set(t.source, (s = new Set()));
      s.add(t.schema);
    }
    this.schemas = new Map([...schemas].map(([k, v]) => [k, [...v].sort()]));
  }

  schemasOf(source?: string): string[] {
    if (source) return [...(this.schemas.get(source) ?? [])];
    return [...new Set([...this.schemas.values()].flat())].sort();
  }

  /** Tables whose name or `schema.table` starts with `prefix` (case-insensitive), filtered, best-connected first. */
  tablesWithPrefix(prefix: string, filter: { source?: string; schema?: string } = {}): TableName[] {
    const p = prefix.toLowerCase();
    const seen = new Set<TableName>();
    // "Alb" matches main.Album by its name; "main.Al" and "pub" (public.*) match by the qualified name.
    for (const r of prefixRange(this.byTable, p)) seen.add(r.item);
    for (const r of prefixRange(this.byQualified, p)) seen.add(r.item);
    const out = [...seen].filter((t) => (!filter.source || t.source === filter.source) && (!filter.schema || t.schema === filter.schema));
    return out.sort((a, b) => a.rank - b.rank);
  }
}

/** Strings that start with `prefix` (case-insensitive) first, then those containing it; original order kept. */
export function matchNames(names: Iterable<string>, prefix: string): string[] {
  const p = prefix.toLowerCase();
  const starts: string[] = [];
  const contains: string[] = [];
  for (const n of names) {
    const l = n.toLowerCase();
    if (l.startsWith(p)) starts.push(n);
    else if (p && l.includes(p)) contains.push(n);
  }
  return [...starts, ...contains];
}
