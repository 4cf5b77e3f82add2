import { CatalogProvider, type CatalogState } from '../../core/catalog/provider';
import { CatalogView } from '../../core/catalog/view';
import { currentPrincipal } from '../../core/store/principal';
import { visibleSources } from './access';

/**
 * The catalog as the request's principal may see it: a principal scoped to some sources gets a view holding only
 * those (every tool, search included, then cannot name or find another source's tables). The narrowed view is
 * cached per generation and scope, so its search index is built once.
 */
export class ScopedCatalogProvider extends CatalogProvider {
  private readonly narrowed = new WeakMap<CatalogView, Map<string, CatalogView>>();

  override async get(): Promise<CatalogState> {
    const state = await super.get();
    const p = currentPrincipal();
    const allowed = p ? visibleSources(p) : null;
    if (state.state !== 'ready' || !allowed) return state;
    const key = [...allowed].sort().join('\u0000');
    let byScope = this.narrowed.get(state.view);
    if (!byScope) this.narrowed.set(state.view, (byScope = new Map()));
    let view = byScope.get(key);
    if (!view) {
      const v = state.view;
      const sources = v.sources.filter((s) => allowed.has(s.name));
      const ids = new Set(sources.map((s) => s.id));
      view = new CatalogView(
        v.generation,
        sources,
        v.entries.filter((e) => ids.has(e.source.id)).map((e) => ({ sourceId: e.source.id, table: e.table })),
        v.runs.filter((r) => ids.has(r.sourceId)),
        v.savedAt,
        null, // the persisted search index covers every source
      );
      byScope.set(key, view);
    }
    return { state: 'ready', view };
  }
}
