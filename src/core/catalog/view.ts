import { privilegesArtifact, type ColumnInfo, type ForeignKeyInfo, type SourceInfo, type SourcePrivileges, type TableInfo } from './model';
import { formatName, splitName } from './names';
import { CatalogError, type CatalogStore, type IndexRun } from './store';
import { fuzzyMatches } from '../envelope/fuzzy';
import { SEARCH_INDEX_ARTIFACT } from '../search/input';

/** Catalog artifact: the relation list and reverse foreign keys of the view, ready to use (see CatalogView.open). */
export const VIEW_FRAME_ARTIFACT = 'catalog-view/v1';

/** The relations of a catalog file, read on demand. */
interface LazyRelations {
  /** Per relation, in view order: source id, qualified name (formatName), table name. */
  readonly sourceIds: readonly string[];
  readonly qualified: readonly string[];
  readonly names: readonly string[];
  /** By relation: the [referencing relation, index of its foreign key] pairs that point at it. */
  readonly incoming: ReadonlyMap<number, ReadonlyArray<readonly [number, number]>>;
  /** The relation at a position of `relations`, read from the store. */
  readonly load: (position: number) => TableInfo;
}

interface ViewFrame {
  readonly format: 1;
  readonly generation: number;
  readonly sources: readonly string[];
  /** Source index per relation. */
  readonly source: readonly number[];
  readonly schemas: readonly string[];
  readonly names: readonly string[];
  /** formatName(schema, name) per relation. */
  readonly qualified: readonly string[];
  /** [relation, [[referencing relation, foreign key index], …]] */
  readonly incoming: ReadonlyArray<readonly [number, ReadonlyArray<readonly [number, number]>]>;
}

/** Closes the store of a view that reads relations on demand once nothing can read from it any more. */
const openStores = new FinalizationRegistry<CatalogStore>((store) => store.close());

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
  /** Entries by qualified name (formatName(schema, table), which is one-to-one with the pair). */
  private readonly byExact = new Map<string, TableEntry[]>();
  /** Built on first use: by lower-cased qualified name (lower-casing commutes with formatName), by key, by position. */
  private folded: Map<string, TableEntry[]> | null = null;
  private keyed: Map<string, TableEntry> | null = null;
  private positions: Map<string, number> | null = null;
  private readonly incoming = new Map<string, IncomingForeignKey[]>();
  /** Table names by position (so that looking names up never reads a relation). */
  private readonly names: readonly string[];
  private readonly lazy: LazyRelations | null = null;
  /**
   * True for a view read from a catalog file as saved (CatalogView.open): the search index persisted with that
   * generation may then be used as it is, without the tables.
   */
  readonly fromFile: boolean = false;

  constructor(
    readonly generation: number,
    sources: readonly SourceInfo[],
    tables: ReadonlyArray<{ sourceId: string; table: TableInfo }> | LazyRelations,
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
    const names: string[] = [];
    if (isLazy(tables)) {
      const { sourceIds, qualified } = tables;
      for (let i = 0; i < qualified.length; i++) {
        const source = byId.get(sourceIds[i]!);
        if (!source) throw new CatalogError('corrupt', `the catalog's relation list names source ${sourceIds[i]!}, which it does not hold`);
        const entry = new StoredEntry(source, qualified[i]!, i, tables.load);
        entries.push(entry);
        push(this.byExact, qualified[i]!, entry);
      }
      this.lazy = tables;
      this.entries = entries;
      this.names = tables.names;
      return;
    }
    for (const { sourceId, table } of tables) {
      const source = byId.get(sourceId);
      if (!source) continue;
      const qualifiedName = formatName(table.schema, table.name);
      const entry: TableEntry = { source, table, qualifiedName, key: `${source.name}:${qualifiedName}` };
      entries.push(entry);
      names.push(table.name);
      push(this.byExact, qualifiedName, entry);
    }
    this.entries = entries;
    this.names = names;
    for (const e of entries) {
      for (const fk of e.table.foreignKeys) {
        const target = this.lookup(e.source.name, fk.targetSchema, fk.targetTable);
        if (target) push(this.incoming, target.key, { from: e, fk });
      }
    }
  }

  private get byKey(): Map<string, TableEntry> {
    return (this.keyed ??= new Map(this.entries.map((e) => [e.key, e])));
  }

  private get byFolded(): Map<string, TableEntry[]> {
    if (this.folded === null) {
      this.folded = new Map();
      for (const e of this.entries) push(this.folded, e.qualifiedName.toLowerCase(), e);
    }
    return this.folded;
  }

  private position(entry: TableEntry): number | undefined {
    return (this.positions ??= new Map(this.entries.map((e, i) => [e.key, i]))).get(entry.key);
  }

  /** Whether relations are read from the catalog file when first used (see CatalogView.open). */
  get readsOnDemand(): boolean {
    return this.lazy !== null;
  }

  /**
   * The view of an open catalog. When the indexer saved the view's frame with this generation (relation names and
   * reverse foreign keys), the view is built from it alone and reads each relation from the store when a tool first
   * uses it: the store then stays open, owned by the view, and is closed once the view and its tables are
   * unreachable (`owned` is true, and the caller must not close it). Otherwise every relation is read now, as
   * fromStore does, and the caller closes the store.
   */
  static open(store: CatalogStore): { view: CatalogView; owned: boolean } {
    const frame = readViewFrame(store);
    const whole = (): { view: CatalogView; owned: boolean } => {
      const view = CatalogView.fromStore(store);
      (view as { fromFile: boolean }).fromFile = true;
      return { view, owned: false };
    };
    if (frame === null) return whole();
    const incoming = new Map(frame.incoming);
    const ids = frame.source.map((si) => frame.sources[si]!);
    const token = {};
    let unread = frame.names.length;
    const bodies: LazyRelations = {
      sourceIds: ids,
      qualified: frame.qualified,
      names: frame.names,
      incoming,
      // Each entry calls this once and keeps the table; when every one has, nothing reads the store again.
      load: (i) => {
        const t = store.loadTable(ids[i]!, frame.schemas[i]!, frame.names[i]!);
        if (t === null) throw new CatalogError('corrupt', `catalog ${store.path ?? ''} lists ${frame.qualified[i]!} but does not hold it`);
        if (--unread === 0) {
          openStores.unregister(token);
          store.close();
        }
        return t;
      },
    };
    let view: CatalogView;
    try {
      view = CatalogView.assemble(store, bodies);
    } catch (e) {
      if (e instanceof CatalogError) return whole(); // a frame that names a source the file does not hold
      throw e;
    }
    (view as { fromFile: boolean }).fromFile = true;
    // Every entry holds `load` (and only it reaches the store): once no entry, view or search doc can read any
    // more, the store is closed.
    openStores.register(bodies.load, store, token);
    return { view, owned: true };
  }

  private static assemble(store: CatalogStore, tables: ReadonlyArray<{ sourceId: string; table: TableInfo }> | LazyRelations): CatalogView {
    const sources = store.listSources();
    return new CatalogView(
      store.generation,
      sources.map((s) => s.info),
      tables,
      store.listRuns(50),
      store.getMeta('saved_at'),
      store.getArtifact(SEARCH_INDEX_ARTIFACT),
      new Map(sources.flatMap((s) => {
        const bytes = store.getArtifact(privilegesArtifact(s.info.id));
        return bytes ? [[s.info.id, JSON.parse(Buffer.from(bytes).toString('utf8')) as SourcePrivileges] as const] : [];
      })),
    );
  }

  /**
   * The frame CatalogView.open reads: relation names in view order and reverse foreign keys, for the catalog saved
   * as `generation` (the indexer writes it right before saving, from a view over every relation).
   */
  static encodeFrame(view: CatalogView, generation: number): Uint8Array {
    const sources: string[] = [];
    const sourceIdx = new Map<string, number>();
    const position = new Map<string, number>();
    const source = view.entries.map((e, i) => {
      let si = sourceIdx.get(e.source.id);
      if (si === undefined) {
        si = sources.length;
        sources.push(e.source.id);
        sourceIdx.set(e.source.id, si);
      }
      position.set(e.key, i);
      return si;
    });
    const incoming: Array<[number, Array<[number, number]>]> = [];
    view.entries.forEach((e, i) => {
      const list = view.incomingForeignKeys(e);
      if (list.length > 0) incoming.push([i, list.map((r) => [position.get(r.from.key)!, r.from.table.foreignKeys.indexOf(r.fk)])]);
    });
    const relations = {
      source,
      schemas: view.entries.map((e) => e.table.schema),
      names: view.entries.map((e) => e.table.name),
      qualified: view.entries.map((e) => e.qualifiedName),
    };
    const frame: ViewFrame = { format: 1, generation, sources, ...relations, incoming };
    return Buffer.from(JSON.stringify(frame), 'utf8');
  }

  /** The view with every relation read and parsed now (the store can be closed right after). */
  static fromStore(store: CatalogStore): CatalogView {
    return CatalogView.assemble(store, store.loadAllTables());
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
    const known = this.incoming.get(entry.key);
    if (known || !this.lazy) return known ?? [];
    const i = this.position(entry);
    const pairs = i === undefined ? undefined : this.lazy.incoming.get(i);
    const list = (pairs ?? []).map(([from, k]): IncomingForeignKey => {
      const e = this.entries[from]!;
      return { from: e, fk: e.table.foreignKeys[k]! };
    });
    this.incoming.set(entry.key, list);
    return list;
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
        .filter((e) => this.names[this.position(e)!]!.toLowerCase() === bare.toLowerCase())
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
    let found = this.byExact.get(formatName(schema, table)) ?? [];
    if (src) found = found.filter((e) => e.source.name === src);
    if (found.length === 0) {
      found = this.byFolded.get(formatName(schema, table).toLowerCase()) ?? [];
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

/** An entry whose table is read from the catalog file and parsed on first use, then kept. */
class StoredEntry implements TableEntry {
  readonly key: string;
  private loaded: TableInfo | undefined;

  constructor(
    readonly source: SourceInfo,
    readonly qualifiedName: string,
    private readonly position: number,
    private readonly load: LazyRelations['load'],
  ) {
    this.key = `${source.name}:${qualifiedName}`;
  }

  get table(): TableInfo {
    return (this.loaded ??= this.load(this.position));
  }
}

function isLazy(tables: ReadonlyArray<{ sourceId: string; table: TableInfo }> | LazyRelations): tables is LazyRelations {
  return !Array.isArray(tables);
}

/** The saved view frame when it belongs to this generation of the catalog, else null. */
function readViewFrame(store: CatalogStore): ViewFrame | null {
  const text = store.getArtifactText(VIEW_FRAME_ARTIFACT);
  if (text === null) return null;
  try {
    const frame = JSON.parse(text) as ViewFrame;
    if (frame.format !== 1 || frame.generation !== store.generation) return null;
    const n = frame.names.length;
    const whole = [frame.source, frame.schemas, frame.qualified].every((a) => Array.isArray(a) && a.length === n) && Array.isArray(frame.incoming);
    return whole && frame.source.every((si) => frame.sources[si] !== undefined) ? frame : null;
  } catch {
    return null;
  }
}
