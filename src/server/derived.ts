import { splitName } from '../core/catalog/names';
import type { CatalogView } from '../core/catalog/view';
import { buildSearchIndex, deserializeIndex, openPersistedIndex, searchInput, visibleTable } from '../core/search';
import type { SearchIndex } from '../core/search';
import type { SemanticModel } from '../core/semantic';
import type { PiiGate } from './deps';
import type { PiiTag } from '../core/catalog/model';

/**
 * Data derived from one catalog generation and reused by every call until the catalog changes: the search index,
 * loaded from the bytes the indexer persisted when they match this server's input (same tables, same PII policy),
 * built afresh otherwise.
 */
export class DerivedData {
  private readonly search = new WeakMap<CatalogView, SearchIndex>();
  private readonly withSemantic = new WeakMap<CatalogView, { model: SemanticModel; index: SearchIndex }>();
  /** Whether a call has asked for an index yet, and whether probe() has put its question (once per process). */
  private asked = false;
  private probed = false;

  constructor(private readonly pii: PiiGate) {}

  /**
   * The index over the catalog's tables; with a semantic model that defines entities, their names and descriptions
   * and their metrics' words are indexed on the bound tables too (cached per catalog generation and model).
   */
  searchIndex(view: CatalogView, semantic?: SemanticModel): SearchIndex {
    this.asked = true;
    return this.indexFor(view, semantic);
  }

  private indexFor(view: CatalogView, semantic?: SemanticModel): SearchIndex {
    if (semantic && semantic.entities.size > 0) {
      const hit = this.withSemantic.get(view);
      if (hit && hit.model === semantic) return hit.index;
      const index = buildSearchIndex({
        ...this.tableInput(view),
        entities: [...semantic.entities.values()].map((e) => ({ name: e.name, description: e.description, table: `${e.table.schema}.${e.table.name}`, ...(e.source ? { sourceName: e.source } : {}) })),
        metrics: [...semantic.metrics.values()].map((m) => ({ name: m.name, description: m.description, entity: m.entity })),
      });
      this.withSemantic.set(view, { model: semantic, index });
      return index;
    }
    // The tables alone: opened from the file's frame, loaded from its postings, or built.
    const opened = this.opened(view);
    if (opened) return opened;
    const input = this.tableInput(view);
    const idx = (view.searchIndexBytes && deserializeIndex(view.searchIndexBytes, input)) || buildSearchIndex(input);
    this.search.set(view, idx);
    return idx;
  }

  /**
   * Opens the index persisted with this catalog file ahead of the first question, when there is one to open (a few
   * tens of milliseconds at 10,000 tables); an index that must be built from the tables is left to the first call that
   * needs it, so no caller waits behind a build it did not ask for. True when the index is ready.
   */
  warm(view: CatalogView): boolean {
    return this.opened(view) !== null;
  }

  /**
   * For a server left idle before its first call: the index a first call would use (opened, loaded or built; with the
   * workspace's semantic model when it defines entities) and one question about the catalog's two most connected
   * tables, put once per process and only while no call has asked for an index yet. The first call then finds the
   * index ready and the ranking code compiled (at 10,000 tables its search takes about half as long; at a few
   * hundred, the build is most of a first call). It reads the relations its hits name, as a call would. True when it
   * ran.
   */
  probe(view: CatalogView, semantic?: SemanticModel): boolean {
    if (this.asked || this.probed || view.isEmpty) return false;
    this.probed = true;
    const index = this.indexFor(view, semantic);
    const central = index.search('*', { limit: 2 }).hits.map((h) => {
      const name = splitName(h.qualifiedName);
      return (name.ok ? name.parts[name.parts.length - 1]! : h.qualifiedName).replace(/_/g, ' ');
    });
    if (central.length > 0) index.search(`which ${central.join(' and ')}`, { limit: 10, withJoinTree: true });
    return true;
  }

  /** The index this view already has, or the one persisted with its file (kept for the next call); null otherwise. */
  private opened(view: CatalogView): SearchIndex | null {
    const known = this.search.get(view);
    if (known) return known;
    const idx = this.persisted(view);
    if (idx) this.search.set(view, idx);
    return idx;
  }

  /**
   * The index persisted with this very catalog file, used as it is: no table is read (a lazily read view stays
   * lazy) until a hit is explained. Null when the bytes belong to another generation or another PII policy.
   */
  private persisted(view: CatalogView): SearchIndex | null {
    if (!view.fromFile || !view.searchIndexBytes) return null;
    const isBlocked = (tag: PiiTag | null): boolean => this.pii.blockedCategories(tag).length > 0;
    return openPersistedIndex(view.searchIndexBytes, {
      generation: view.generation,
      tables: view.entries,
      isBlocked,
      table: (d) => visibleTable(view.entries[d]!.table, isBlocked),
    });
  }

  private tableInput(view: CatalogView): ReturnType<typeof searchInput> {
    return searchInput(
      view.entries.map((e) => ({ sourceName: e.source.name, table: e.table })),
      (tag) => this.pii.blockedCategories(tag).length > 0,
    );
  }
}
