import type { CatalogView } from '../core/catalog/view';
import { buildSearchIndex, deserializeIndex, searchInput } from '../core/search';
import type { SearchIndex } from '../core/search';
import type { PiiGate } from './deps';

/**
 * Data derived from one catalog generation and reused by every call until the catalog changes: the search index,
 * loaded from the bytes the indexer persisted when they match this server's input (same tables, same PII policy),
 * built afresh otherwise.
 */
export class DerivedData {
  private readonly search = new WeakMap<CatalogView, SearchIndex>();

  constructor(private readonly pii: PiiGate) {}

  searchIndex(view: CatalogView): SearchIndex {
    let idx = this.search.get(view);
    if (!idx) {
      const input = searchInput(
        view.entries.map((e) => ({ sourceName: e.source.name, table: e.table })),
        (tag) => this.pii.blockedCategories(tag).length > 0,
      );
      idx = (view.searchIndexBytes && deserializeIndex(view.searchIndexBytes, input)) || buildSearchIndex(input);
      this.search.set(view, idx);
    }
    return idx;
  }
}
