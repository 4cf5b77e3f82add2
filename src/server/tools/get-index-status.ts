import { z } from 'zod';
import { success } from '../../core/envelope';
import type { SourcePrivileges } from '../../core/catalog/model';
import { readJobStatus } from '../../core/indexing/job-status';
import { defineTool, tokenEstimate } from '../tool';
import { scopeSource, sourceArg } from './common';

const input = z.strictObject({
  source: sourceArg,
});

const STALE_AFTER_MS = 7 * 24 * 3600 * 1000;

export const getIndexStatus = defineTool({
  name: 'get_index_status',
  title: 'Index status and freshness',
  description:
    'Use this when answers look stale or a tool said index_not_ready: reports the catalog generation, each source with when it was indexed and its last runs (mode, tables changed, errors), and any index in progress. Use list_indexed_schemas instead to see what the catalog contains. Compositions: get_index_status → list_indexed_schemas once ready; call it again after an index to confirm the new generation.',
  input,
  latency: 'fast',
  idempotent: true,
  sideEffects: 'read',
  needsCatalog: false,
  async handler(args, ctx) {
    const state = await ctx.deps.catalog.get();
    const now = Date.now();
    const view = ctx.catalog;
    // A source the catalog neither holds nor has runs of is a name to correct (unknown_name with the closest names),
    // not an empty status.
    let wanted = args.source;
    if (typeof args.source === 'string' && !view.runs.some((r) => r.sourceName === args.source)) {
      const scoped = scopeSource(ctx, 'get_index_status', args);
      if (!scoped.ok) return scoped.envelope;
      wanted = scoped.value;
    }
    const sources = (wanted ? view.sources.filter((s) => s.name === wanted) : view.sources).map((s) => {
      const age = now - Date.parse(s.indexedAt);
      return {
        name: s.name,
        engine: s.engine,
        indexed_at: s.indexedAt,
        age_seconds: Math.round(age / 1000),
        freshness: age > STALE_AFTER_MS ? 'stale' : 'fresh',
        tables: s.tableCount,
        columns: s.columnCount,
        ...privilegeFields(view.privileges.get(s.id)),
      };
    });
    const runs = view.runs
      .filter((r) => !wanted || r.sourceName === wanted)
      .slice(0, 10)
      .map((r) => ({
        source: r.sourceName,
        state: r.status,
        mode: r.mode,
        started_at: r.startedAt,
        finished_at: r.finishedAt,
        duration_ms: Math.round(r.durationMs),
        tables_total: r.tablesTotal,
        tables_changed: r.tablesChanged,
        tables_removed: r.tablesRemoved,
        ...(r.errorKind ? { error_kind: r.errorKind, error_message: r.errorMessage } : {}),
      }));
    const data: Record<string, unknown> = {
      catalog_path: ctx.deps.catalog.path,
      catalog_state: state.state,
      ...(state.state === 'unreadable' ? { catalog_error: state.reason } : {}),
      generation: view.generation,
      saved_at: view.savedAt,
      sources,
      recent_runs: runs,
      job: readJobStatus(ctx.deps.catalog.path),
    };
    if (state.state !== 'ready' || view.isEmpty) {
      data.next_step = "Index a database: 'schemabrain index --source <postgres or mysql URL | sqlite file> --name <name>' or 'SchemaBrain: Index Connection' in VS Code.";
    }
    data.token_estimate = tokenEstimate(data);
    return success(data, { confidence: null, hints: state.state === 'ready' && !view.isEmpty ? ['list_indexed_schemas'] : [] });
  },
});

/**
 * The indexing role's privileges and, when it can do more than read, a warning with the way out. Agent SQL stays
 * guarded (read-only transaction, allow-lists) either way; a read-only role is the layer that does not depend on us.
 */
function privilegeFields(p: SourcePrivileges | undefined): Record<string, unknown> {
  if (!p) return {};
  const powers = [p.superuser ? 'is a superuser' : null, p.bypassRls ? 'bypasses row-level security' : null, p.canWrite ? 'can write to tables' : null].filter((x) => x !== null);
  return {
    role: p.role,
    role_privileges: { superuser: p.superuser, bypass_rls: p.bypassRls, can_write: p.canWrite },
    ...(powers.length
      ? { warning: `the role '${p.role}' ${powers.join(', ')}; index with a dedicated read-only role instead: run 'schemabrain role-sql --role schemabrain_reader --database <db>' and connect as that role` }
      : {}),
  };
}
