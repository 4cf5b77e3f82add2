import type { CatalogView } from '../../core/catalog/view';
import type { ServerDeps } from '../deps';
import { SemanticModels } from '../semantic-model';
import type { LoadedSemanticModel } from '../semantic-model';
import { CatalogResources } from './catalog-resources';

export interface CatalogChange {
  /** Table URIs whose structure changed (per-table fingerprints differ). */
  readonly changed: readonly string[];
  /** Tables, sources or definitions were added or removed: clients should list again. */
  readonly listChanged: boolean;
}

/** How often the catalog file and the definition folder are checked: a `stat` each while nothing changed. */
export const WATCH_INTERVAL_MS = 1000;

/**
 * Notices a re-index (the catalog file replaced) or an edited definition file while no tool call asks, so clients
 * hear `notifications/resources/list_changed` and `…/updated` without polling. One per server process (HTTP sessions
 * share it); it runs only while some session listens and never keeps the process alive.
 */
export class CatalogWatcher {
  private readonly listeners = new Set<(c: CatalogChange) => void>();
  private timer: NodeJS.Timeout | null = null;
  private view: CatalogView | null | undefined;
  private semantic: LoadedSemanticModel | null = null;
  private readonly models: SemanticModels;
  private ticking = false;

  constructor(
    private readonly deps: ServerDeps,
    private readonly intervalMs = WATCH_INTERVAL_MS,
  ) {
    this.models = deps.semantic ?? new SemanticModels(deps.workspaceDir, deps.logger);
  }

  subscribe(fn: (c: CatalogChange) => void): () => void {
    this.listeners.add(fn);
    if (!this.timer) {
      void this.tick();
      this.timer = setInterval(() => void this.tick(), this.intervalMs);
      this.timer.unref();
    }
    return () => {
      this.listeners.delete(fn);
      if (this.listeners.size === 0 && this.timer) {
        clearInterval(this.timer);
        this.timer = null;
      }
    };
  }

  /** One check; public so tests and the CLI can force it instead of waiting for the timer. */
  async tick(): Promise<void> {
    if (this.ticking) return;
    this.ticking = true;
    try {
      const state = await this.deps.catalog.get();
      const view = state.state === 'ready' ? state.view : null;
      const first = this.view === undefined;
      const before = this.view ?? null;
      this.view = view;
      let change: CatalogChange = { changed: [], listChanged: false };
      if (!first && before !== view) {
        change = before && view ? CatalogResources.diff(before, view) : { changed: [], listChanged: true };
      }
      if (view && this.deps.workspaceDir) {
        const sm = await this.models.get(view);
        if (sm !== this.semantic) {
          const prev = this.semantic;
          this.semantic = sm;
          if (sm.unavailable !== null && prev?.unavailable !== sm.unavailable) {
            this.deps.logger.warn(`semantic definitions cannot be loaded: ${sm.unavailable}; the semantic tools answer index_not_ready until it is fixed`);
          }
          if (sm.errorCount > 0 && (!prev || prev.errorCount !== sm.errorCount || prev.files.join() !== sm.files.join())) {
            const first = sm.errors[0];
            this.deps.logger.warn(
              `definition files under .schemabrain/ failed to load: ${sm.errorCount} error(s)${first ? `, first in ${first.file}:${first.line} (${first.code})` : ''}; ${sm.skipped.length} definition(s) skipped`,
            );
          }
          if (!first && prev && semanticKey(prev) !== semanticKey(sm)) change = { ...change, listChanged: true };
        }
      }
      if (change.listChanged || change.changed.length) for (const fn of this.listeners) fn(change);
    } catch (e) {
      this.deps.logger.warn(`catalog watch failed: ${(e as Error).message}`);
    } finally {
      this.ticking = false;
    }
  }
}

/** What a client sees of the definitions: names, bindings, measures, filters and descriptions (not file positions). */
function semanticKey(sm: LoadedSemanticModel): string {
  const entities = [...sm.model.entities.values()].map((e) => [e.name, e.source, e.table.schema, e.table.name, e.description, e.timeDimension, e.identity]);
  const metrics = [...sm.model.metrics.values()].map((m) => [m.name, m.entity, m.description, m.measure.agg, m.measure.column, m.measure.expression, m.filters, m.timeDimension, m.timeGrains]);
  return JSON.stringify([entities, metrics]);
}

const watchers = new WeakMap<ServerDeps, CatalogWatcher>();

export function catalogWatcher(deps: ServerDeps): CatalogWatcher {
  let w = watchers.get(deps);
  if (!w) {
    w = new CatalogWatcher(deps);
    watchers.set(deps, w);
  }
  return w;
}
