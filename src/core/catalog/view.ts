import { privilegesArtifact, type ColumnInfo, type ForeignKeyInfo, type SourceInfo, type SourcePrivileges, type TableInfo } from './model';
import { formatName, splitName } from './names';
import type { CatalogStore, IndexRun } from './store';
import { fuzzyMatches } from '../envelope/fuzzy';
import { SEARCH_INDEX_ARTIFACT } from '../search/input';

/**
 * The read model every tool uses: the whole catalog in memory with the lookups tools need (by name, case-folded,
 * reverse foreign keys), built once per catalog generation.
 */

export interface TableEntry {
  readonly source: SourceInfo;
  readonly table: TableInfo;
  /** `schema.table` as shown to agents. */
  readonly qualifiedName: string;
  /** Unique across sources: `source:schema.table`. */
  readonly key: string;
}

export interface IncomingForeignKey {
  readonly from: TableEntry;
  readonly fk: ForeignKeyInfo;
}

export type Resolution<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly reason: 'malformed'; readonly message: string; readonly candidates: readonly string[] }
  | { readonly ok: false; readonly reason: 'unknown'; readonly message: string; readonly candidates: readonly string[]; readonly table?: string }
  | { readonly ok: false; readonly reason: 'ambiguous'; readonly message: string; readonly candidates: readonly string[]; readonly sources: readonly string[] }
  | { readonly ok: false; readonly reason: 'unknown_source'; readonly message: string; readonly candidates: readonly string[] };

export class CatalogView {
  readonly sources: readonly SourceInfo[];
  readonly entries: readonly TableEntry[];
  private readonly byExact = new Map<string, TableEntry[]>();
  private readonly byFolded = new Map<string, TableEntry[]>();
  private readonly byKey = new Map<string, TableEntry>();
  private readonly incoming = new Map<string, IncomingForeignKey[]>();

  constructor(
    readonly generation: number,
    sources: readonly SourceInfo[],
    tables: ReadonlyArray<{ sourceId: string; table: TableInfo }>,
    readonly runs: readonly IndexRun[] = [],
    readonly savedAt: string | null = null,
    /** The search index persisted by the indexer for this generation, if any (see core/search/input.ts). */
    readonly searchIndexBytes: Uint8Array | null = null,
    /** What each source's indexing role may do, by source id (recorded at its last full read). */
    readonly privileges: ReadonlyMap<string, SourcePrivileges> = new Map(),
  ) {
    this.sources = sources;
    const byId = new Map(sources.map((s) => [s.id, s]));
    const entries: TableEntry[] = [];
    for (const { sourceId, table } of tables) {
      const source = byId.get(sourceId);
      if (!source) continue;
      const qualifiedName = formatName(table.schema, table.name);
      const entry: TableEntry = { source, table, qualifiedName, key: `${source.name}:${qualifiedName}` };
      entries.push(entry);
      this.byKey.set(entry.key, entry);
      push(this.byExact, `${table.schema}\u0000${table.name}`, entry);
      push(this.byFolded, `${table.schema.toLowerCase()}\u0000${table.name.toLowerCase()}`, entry);
    }
    this.entries = entries;
    for (const e of entries) {
      for (const fk of e.table.foreignKeys) {
        const target = this.lookup(e.source.name, fk.targetSchema, fk.targetTable);
        if (target) push(this.incoming, target.key, { from: e, fk });
      }
    }
  }

  static fromStore(store: CatalogStore): CatalogView {
    return new CatalogView(
      store.generation,
      store.listSources().map((s) => s.info),
      store.loadAllTables(),
      store.listRuns(50),
      store.getMeta('saved_at'),
      store.getArtifact(SEARCH_INDEX_ARTIFACT),
      new Map(store.listSources().flatMap((s) => {
        const bytes = store.getArtifact(privilegesArtifact(s.info.id));
        return bytes ? [[s.info.id, JSON.parse(Buffer.from(bytes).toString('utf8')) as SourcePrivileges] as const] : [];
      })),
    );
  }

  get isEmpty(): boolean {
    return this.sources.length === 0;
  }

  sourceByName(name: string): SourceInfo | undefined {
    return this.sources.find((s) => s.name === name) ?? this.sources.find((s) => s.name.toLowerCase() === name.toLowerCase());
  }

  /** Exact lookup inside one source (used to follow FKs). */
  lookup(sourceName: string, schema: string, table: string): TableEntry | undefined {
    return this.byKey.get(`${sourceName}:${formatName(schema, table)}`);
  }

  tablesOf(sourceName?: string): TableEntry[] {
    return sourceName ? this.entries.filter((e) => e.source.name === sourceName) : [...this.entries];
  }

  incomingForeignKeys(entry: TableEntry): readonly IncomingForeignKey[] {
    return this.incoming.get(entry.key) ?? [];
  }

  private allQualifiedNames(sourceName?: string): string[] {
    return [...new Set(this.tablesOf(sourceName).map((e) => e.qualifiedName))];
  }

  /** Resolves `schema.table` (exact, then case-insensitive), optionally within one source. */
  resolveTable(name: string, sourceName?: string): Resolution<TableEntry> {
    if (sourceName !== undefined && !this.sourceByName(sourceName)) {
      return {
        ok: false,
        reason: 'unknown_source',
        message: `Source '${sourceName}' is not indexed.`,
        candidates: fuzzyMatches(sourceName, this.sources.map((s) => s.name), 5, 0.3),
      };
    }
    const src = sourceName === undefined ? undefined : this.sourceByName(sourceName)!.name;
    const parsed = splitName(name);
    if (!parsed.ok) {
      return { ok: false, reason: 'malformed', message: `Table name '${name}' is malformed: ${parsed.reason}; expected 'schema.table'.`, candidates: fuzzyMatches(name, this.allQualifiedNames(src)) };
    }
    if (parsed.parts.length !== 2) {
      const bare = parsed.parts[parsed.parts.length - 1]!;
      const candidates = this.tablesOf(src)
        .filter((e) => e.table.name.toLowerCase() === bare.toLowerCase())
        .map((e) => e.qualifiedName);
      return {
        ok: false,
        reason: 'malformed',
        message:
          parsed.parts.length === 1
            ? `Table name '${name}' has no schema; expected 'schema.table'${candidates.length ? ` (did you mean ${candidates.map((c) => `'${c}'`).join(' or ')}?)` : ''}.`
            : `Table name '${name}' has ${parsed.parts.length} parts; expected 'schema.table'.`,
        candidates: candidates.length ? [...new Set(candidates)] : fuzzyMatches(bare, this.allQualifiedNames(src)),
      };
    }
    const [schema, table] = parsed.parts as [string, string];
    let found = this.byExact.get(`${schema}\u0000${table}`) ?? [];
    if (src) found = found.filter((e) => e.source.name === src);
    if (found.length === 0) {
      found = this.byFolded.get(`${schema.toLowerCase()}\u0000${table.toLowerCase()}`) ?? [];
      if (src) found = found.filter((e) => e.source.name === src);
    }
    if (found.length === 1) return { ok: true, value: found[0]! };
    if (found.length > 1) {
      const sources = [...new Set(found.map((e) => e.source.name))];
      if (sources.length === 1) {
        // Same source, names differing only by case: ambiguous without exact case.
        return { ok: false, reason: 'malformed', message: `Table name '${name}' matches several tables that differ only by case; quote it exactly.`, candidates: found.map((e) => e.qualifiedName) };
      }
      return {
        ok: false,
        reason: 'ambiguous',
        message: `Table '${name}' exists in several sources (${sources.join(', ')}); pass 'source' to choose one.`,
        candidates: found.map((e) => e.key),
        sources,
      };
    }
    return {
      ok: false,
      reason: 'unknown',
      message: `Table '${name}' not found${src ? ` in source '${src}'` : ''}.`,
      candidates: fuzzyMatches(name, this.allQualifiedNames(src)),
    };
  }

  /** Resolves `schema.table.column`. */
  resolveColumn(name: string, sourceName?: string): Resolution<{ entry: TableEntry; column: ColumnInfo }> {
    const parsed = splitName(name);
    if (!parsed.ok || parsed.parts.length !== 3) {
      return {
        ok: false,
        reason: 'malformed',
        message: `Column name '${name}' is malformed${parsed.ok ? `: it has ${parsed.parts.length} part(s)` : `: ${parsed.reason}`}; expected 'schema.table.column'.`,
        candidates: [],
      };
    }
    const [schema, table, column] = parsed.parts as [string, string, string];
    const t = this.resolveTable(formatName(schema, table), sourceName);
    if (!t.ok) return t;
    const cols = t.value.table.columns;
    const col = cols.find((c) => c.name === column) ?? cols.find((c) => c.name.toLowerCase() === column.toLowerCase());
    if (!col) {
      return {
        ok: false,
        reason: 'unknown',
        message: `Column '${column}' not found in table '${t.value.qualifiedName}'.`,
        table: t.value.qualifiedName,
        candidates: fuzzyMatches(column, cols.map((c) => c.name)).map((c) => `${t.value.qualifiedName}.${formatName(c)}`),
      };
    }
    return { ok: true, value: { entry: t.value, column: col } };
  }
}

function push<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const a = m.get(k);
  if (a) a.push(v);
  else m.set(k, [v]);
}
