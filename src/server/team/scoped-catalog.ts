import { CatalogProvider, type CatalogState } from '../../core/catalog/provider';
import { CatalogView } from '../../core/catalog/view';
import { currentPrincipal } from '../../core/store/principal';
import { visibleSources } from './access';
import type { TeamPiiPolicy } from './team-pii';

/**
 * The catalog as the request's principal may see it: a principal scoped to some sources gets a view holding only
 * those (every tool, search included, then cannot name or find another source's tables). When the store's PII
 * policy has column overrides they are applied to the tags here, at serve time, so a published override holds
 * without a re-index. A role with extra PII blocks gets a view of its own, so nothing cached on a view (search
 * index, resource texts) is shared across roles that may see different columns. Narrowed views are cached per
 * generation, scope and policy key, so their search index is built once.
 */
export class ScopedCatalogProvider extends CatalogProvider {
  private readonly narrowed = new WeakMap<CatalogView, Map<string, CatalogView>>();

  constructor(
    path: string,
    onLoad?: (view: CatalogView) => void,
    private readonly pii?: TeamPiiPolicy,
  ) {
    super(path, onLoad);
  }

  override async get(): Promise<CatalogState> {
    const state = await super.get();
    const p = currentPrincipal();
    const allowed = p ? visibleSources(p) : null;
    const policyKey = this.pii?.viewKey(p?.role) ?? '';
    if (state.state !== 'ready' || (!allowed && !policyKey)) return state;
    const key = `${allowed ? [...allowed].sort().join('\u0000') : '*'}|${policyKey}`;
    let byKey = this.narrowed.get(state.view);
    if (!byKey) this.narrowed.set(state.view, (byKey = new Map()));
    let view = byKey.get(key);
    if (!view) {
      const v = state.view;
      const sources = allowed ? v.sources.filter((s) => allowed.has(s.name)) : v.sources;
      const ids = new Set(sources.map((s) => s.id));
      const overrides = this.pii?.hasColumnOverrides ? this.pii : null;
      const entries = v.entries.filter((e) => ids.has(e.source.id)).map((e) => ({ sourceId: e.source.id, table: e.table }));
      if (overrides) {
        // Per source, so that lineage follows an overridden column into the views and generated columns over it.
        for (const s of sources) {
          const at = entries.flatMap((e, i) => (e.sourceId === s.id ? [i] : []));
          const tables = overrides.overrideTables(s.name, at.map((i) => entries[i]!.table));
          at.forEach((i, k) => (entries[i] = { sourceId: s.id, table: tables[k]! }));
        }
      }
      view = new CatalogView(
        v.generation,
        sources,
        entries,
        v.runs.filter((r) => ids.has(r.sourceId)),
        v.savedAt,
        allowed || overrides ? null : v.searchIndexBytes, // the persisted search index covers every source, with the indexer's tags
        v.privileges,
      );
      byKey.set(key, view);
    }
    return { state: 'ready', view };
  }
}
