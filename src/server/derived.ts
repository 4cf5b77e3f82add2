import type { TableInfo } from '../core/catalog/model';
import type { CatalogView } from '../core/catalog/view';
import { buildSearchIndex } from '../core/search';
import type { SearchIndex } from '../core/search';
import type { PiiGate } from './deps';

/**
 * Data derived from one catalog generation and reused by every call until the catalog changes: the search index.
 * PII-blocked columns are left out of what is indexed, so neither their names nor their values can surface in a hit
 * or its explanation.
 */
export class DerivedData {
  private readonly search = new WeakMap<CatalogView, SearchIndex>();

  constructor(private readonly pii: PiiGate) {}

  searchIndex(view: CatalogView): SearchIndex {
    let idx = this.search.get(view);
    if (!idx) {
      idx = buildSearchIndex({ tables: view.entries.map((e) => ({ sourceName: e.source.name, table: this.visibleTable(e.table) })) });
      this.search.set(view, idx);
    }
    return idx;
  }

  private visibleTable(t: TableInfo): TableInfo {
    const hidden = t.columns.filter((c) => this.pii.blockedCategories(c.pii).length > 0);
    if (hidden.length === 0) return t;
    const names = new Set(hidden.map((c) => c.name));
    return { ...t, columns: t.columns.filter((c) => !names.has(c.name)) };
  }
}
