import { z } from 'zod';
import { sqlFingerprint } from '../../core/audit';
import { capAt, degraded, empty, failure, PII_CATEGORIES, partial, success } from '../../core/envelope';
import type { Envelope, PiiCategory, Recovery } from '../../core/envelope';
import type { PiiTag, SourceInfo } from '../../core/catalog/model';
import { propagate } from '../../core/pii/propagate';
import { checkAllowlist, runReadOnlyPostgres, runReadOnlySqlite, toToolError } from '../../core/sql';
import type { QueryOutcome } from '../../core/sql';
import { runReadOnlyMysql } from '../../core/sql/mysql-exec';
import { compileMetric, FILTER_OPS, METRIC_LIMIT_DEFAULT, METRIC_LIMIT_MAX } from '../../core/semantic';
import type { CompiledMetric, CompileError, MetricRequest } from '../../core/semantic';
import { definitionReport, loadForTool, noDefinitions, provenanceOf } from '../semantic-model';
import type { LoadedSemanticModel } from '../semantic-model';
import { defineTool, tokenEstimate } from '../tool';
import type { ToolContext } from '../tool';
import { failureKind } from '../connections';
import { viewReadsBlocked } from './run-query';

const ref = z.string().min(1).max(300);
const scalar = z.union([z.string().max(1000), z.number(), z.boolean()]);
const sourceOpt = z.string().min(1).max(200).optional().describe('Indexed source, when several hold the tables.');

const input = z.strictObject({
  name: z.string().min(1).max(200).describe('Metric name (see list_metrics).'),
  group_by: z.array(ref).max(20).optional().describe("'entity.column' references to break the metric down by."),
  filters: z
    .array(
      z.strictObject({
        column: ref.describe("'entity.column' to filter on."),
        op: z.enum(FILTER_OPS).describe('in/not_in take a list; is_null/not_null no value.'),
        value: z.union([z.string().max(1000), z.number(), z.boolean(), z.array(scalar).max(1000)]).optional().describe('Bound as a parameter.'),
      }),
    )
    .max(50)
    .optional()
    .describe('Conditions combined with AND.'),
  time_grain: z.string().min(1).max(20).optional().describe('day, week, month, quarter or year.'),
  time_dimension: ref.optional().describe("'entity.column' time column to use."),
  limit: z.number().int().min(1).max(METRIC_LIMIT_MAX).optional().describe(`Rows at most (default ${METRIC_LIMIT_DEFAULT}).`),
  via: z.array(z.string().min(1).max(200)).max(20).optional().describe('Join names forcing the path.'),
  order_by: z
    .array(z.strictObject({ column: ref.describe('An output column.'), direction: z.enum(['asc', 'desc']).default('asc').describe('asc or desc.') }))
    .max(20)
    .optional()
    .describe('Sort; defaults to the group columns.'),
  source: sourceOpt,
});

type Args = z.infer<typeof input>;

/**
 * The one aggregate that may measure a blocked column: how many of its values are set (its NULLs are no secret, as
 * in run_query). How many distinct values it holds is: over rows the caller filters, it tells whether two rows share
 * a value (two customers, one password).
 */
const COUNTS = new Set(['count']);

interface PiiRefusal {
  readonly column: string;
  readonly entity: string;
  readonly categories: PiiCategory[];
  readonly why: string;
}

function asCategories(cats: readonly string[]): PiiCategory[] {
  return cats.filter((c): c is PiiCategory => (PII_CATEGORIES as readonly string[]).includes(c));
}

/**
 * The PII gate, before anything runs. Refused: a blocked category (floor ∪ operator list) reached through a
 * group-by, filter or time bucket, or measured by anything other than a count; and, whatever the policy, a group-by
 * or time bucket over any PII-tagged column (the group keys would list the values: ADR 0012) and MIN/MAX over a
 * tagged column (they return one row's value). COUNT over blocked columns and join keys (never returned) passes;
 * COUNT DISTINCT over a blocked column does not.
 */
function piiGate(ctx: ToolContext, sm: LoadedSemanticModel, source: SourceInfo, plan: CompiledMetric, agg: string): PiiRefusal[] {
  const catalog = sm.catalogFor(source.name);
  const out: PiiRefusal[] = [];
  const tagOf = (entity: string, column: string): PiiTag | null => {
    const e = sm.fullModel.entities.get(entity);
    const table = e ? catalog.table(e.table, e.source) : undefined;
    return (table ? catalog.column(table, column) : undefined)?.pii ?? null;
  };
  // A join's key holds on both sides the same values for the rows it matches: the column paired with a tagged key
  // holds what that key holds (a table of words joined on `users.password` lists the passwords it matches).
  const paired = new Map<string, PiiTag[]>();
  for (const name of new Set([...plan.requiredJoins, ...plan.fanOutJoins])) {
    const j = sm.fullModel.joins.get(name);
    if (!j) continue;
    for (const k of j.on) {
      for (const [mine, other] of [[`${j.from}.${k.from}`, `${j.to}.${k.to}`], [`${j.to}.${k.to}`, `${j.from}.${k.from}`]] as const) {
        const [oe, oc] = [other.slice(0, other.indexOf('.')), other.slice(other.indexOf('.') + 1)];
        const t = tagOf(oe, oc);
        if (t) paired.set(mine.toLowerCase(), [...(paired.get(mine.toLowerCase()) ?? []), t]);
      }
    }
  }
  for (const c of plan.columnsRead) {
    const own = tagOf(c.entity, c.column);
    const viaKeys = paired.get(`${c.entity}.${c.column}`.toLowerCase()) ?? [];
    const tag = viaKeys.length > 0 ? propagate([own, ...viaKeys]) : own;
    if (!tag || tag.categories.length === 0) continue;
    const blocked = ctx.deps.pii.blockedCategories(tag);
    const roles = new Set(c.roles);
    const name = `${c.entity}.${c.column}`;
    const add = (categories: PiiCategory[], why: string): void => {
      out.push({ column: name, entity: c.entity, categories, why });
    };
    if (roles.has('group_by')) add(blocked.length ? blocked : asCategories(tag.categories), `group_by over '${name}' would list its values`);
    else if (roles.has('time')) add(blocked.length ? blocked : asCategories(tag.categories), `time buckets over '${name}' would list its values`);
    else if (blocked.length && roles.has('filter')) add(blocked, `filtering on '${name}' (${blocked.join(', ')}) can probe individual values`);
    else if (roles.has('measure') && (agg === 'min' || agg === 'max')) add(blocked.length ? blocked : asCategories(tag.categories), `${agg.toUpperCase()} over '${name}' returns one row's value`);
    else if (blocked.length && roles.has('measure') && !COUNTS.has(agg)) add(blocked, `${agg.toUpperCase()} over '${name}' (${blocked.join(', ')}) is derived from blocked values`);
  }
  return out;
}

function requestOf(args: Args): MetricRequest {
  const req: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(args)) if (v !== undefined && k !== 'source') req[k] = v;
  return req as MetricRequest;
}

/** A compile failure as an envelope; retries the planner suggests keep the caller's `source`. */
function compileFailure(err: CompileError, args: Args, prefix = ''): Envelope<never> {
  let recovery: Recovery = err.recovery;
  if (args.source && recovery.suggested_tool === 'get_metric' && recovery.suggested_args) recovery = { ...recovery, suggested_args: { ...recovery.suggested_args, source: args.source } };
  return failure(err.kind, `${prefix}${err.message}`, { recovery });
}

/** Which indexed source a metric runs on: the argument, the anchor entity's own source, or the one source that has its table. */
function pickMetricSource(ctx: ToolContext, sm: LoadedSemanticModel, args: Args, anchorName: string): SourceInfo | Envelope<never> {
  if (args.source !== undefined) {
    const s = ctx.catalog.sourceByName(args.source);
    if (s) return s;
    return failure('unknown_name', `Source '${args.source}' is not indexed.`, {
      recovery: { suggested_tool: 'list_indexed_schemas', suggested_args: {}, fuzzy_matches: ctx.catalog.sources.map((x) => x.name) },
    });
  }
  const anchor = sm.fullModel.entities.get(anchorName)!;
  if (anchor.source) {
    const s = ctx.catalog.sourceByName(anchor.source);
    if (s) return s;
  }
  const having = sm.sourcesOf(anchor);
  if (having.length === 1) return having[0]!;
  if (having.length === 0) return ctx.catalog.sources[0]!; // the planner answers schema_drift for the missing table
  return failure('malformed_name', `The table of entity '${anchor.name}' exists in several sources (${having.map((s) => s.name).join(', ')}); pass 'source' to choose one.`, {
    recovery: { suggested_tool: 'get_metric', suggested_args: { ...requestOf(args), source: having[0]!.name }, fuzzy_matches: having.map((s) => s.name) },
  });
}

export const getMetric = defineTool({
  name: 'get_metric',
  title: 'Compute a governed metric',
  description:
    'Use this when a defined metric answers the question: compiles joins, fan-out-safe aggregation, time buckets and bound filters, checks PII, runs read-only; returns rows, SQL and trust. Use run_query instead for numbers no metric defines. Composition: list_metrics → describe_entity → get_metric.',
  input,
  latency: 'moderate',
  idempotent: true,
  sideEffects: 'read',
  async handler(args, ctx) {
    const sm = await loadForTool(ctx);
    if ('status' in sm) return sm;
    if (sm.fullModel.metrics.size === 0) return noDefinitions(sm, 'metrics', ['find_relevant_tables', 'run_query'], { metric: args.name });
    const req = requestOf(args);

    // A metric skipped for definition errors: compile it as written so the agent gets the planner's precise error.
    const skipped = sm.skipped.find((s) => s.kind === 'metric' && s.name === args.name);
    if (skipped) {
      const where = `Metric '${args.name}' is defined${skipped.file ? ` in ${skipped.file}` : ''} but skipped (${skipped.reason}). `;
      const anyCatalog = sm.catalog;
      const r = compileMetric(sm.fullModel, anyCatalog, req, 'sqlite');
      if (!r.ok) return compileFailure(r, args, where);
      return failure('schema_drift', `${where}Fix the definition or re-index the source.`, { recovery: { suggested_tool: 'list_metrics', suggested_args: {} } });
    }
    const metric = sm.model.metrics.get(args.name);
    if (!metric) {
      const r = compileMetric(sm.model, sm.catalog, req, 'sqlite');
      return compileFailure(r.ok ? { ok: false, kind: 'unknown_metric', message: `Metric '${args.name}' is not defined.`, recovery: { suggested_tool: 'list_metrics', suggested_args: {} } } : r, args);
    }
    const source = pickMetricSource(ctx, sm, args, metric.entity);
    if ('status' in source) return source;
    const dialect = source.engine;
    const plan = compileMetric(sm.model, sm.catalogFor(source.name), req, dialect);
    if (!plan.ok) return compileFailure(plan, args);
    ctx.trace.sql = plan.sql;
    ctx.trace.piiCategories.push(...asCategories(plan.piiCategories));

    // An entity bound to a view whose rows may be derived from a blocked value is refused as run_query refuses it.
    for (const name of new Set([metric.entity, ...plan.columnsRead.map((c) => c.entity)])) {
      const e = sm.fullModel.entities.get(name);
      const entry = e ? ctx.catalog.lookup(source.name, e.table.schema, e.table.name) : undefined;
      const why = entry ? viewReadsBlocked(ctx, source, entry) : null;
      if (why) {
        return failure('pii_blocked', `Refused before running: entity '${name}' is bound to a view whose rows may be derived from blocked values (${why}).`, {
          piiCategories: ['credential'],
          recovery: { suggested_tool: 'describe_entity', suggested_args: { name } },
        });
      }
    }
    const refusals = piiGate(ctx, sm, source, plan, metric.measure.agg);
    if (refusals.length) {
      const cats = [...new Set(refusals.flatMap((r) => r.categories))];
      const offending = new Set(refusals.map((r) => r.column.toLowerCase()));
      const safe = {
        ...req,
        ...(req.group_by ? { group_by: req.group_by.filter((g) => !offending.has(g.toLowerCase())) } : {}),
        ...(req.filters ? { filters: req.filters.filter((f) => !offending.has(f.column.toLowerCase())) } : {}),
      };
      return failure('pii_blocked', `Refused before running: ${refusals.map((r) => r.why).join('; ')}. PII categories: ${cats.join(', ')}.`, {
        piiCategories: cats,
        recovery: {
          suggested_tool: 'describe_entity',
          suggested_args: { name: refusals[0]!.entity },
          ...(JSON.stringify(safe) !== JSON.stringify(req)
            ? { suggested_rewrite: { rewritten: JSON.stringify(safe), reason: 'get_metric arguments without the PII columns; break down by columns describe_entity does not mark groupable: false' } }
            : {}),
        },
      });
    }

    const defaultSchema = source.engine === 'sqlite' ? 'main' : source.engine === 'mysql' ? source.database : 'public';
    const catalog = sm.catalogFor(source.name);
    const tables = [...new Set([plan.anchorEntity, ...plan.columnsRead.map((c) => c.entity)])].map((n) => {
      const e = sm.model.entities.get(n)!;
      const t = catalog.table(e.table, e.source);
      return t ? `${t.schema}.${t.name}` : `${e.table.schema}.${e.table.name}`;
    });
    const violation = checkAllowlist(tables, ctx.deps.allowedSchemas, defaultSchema);
    if (violation) {
      return failure('allowlist_violation', violation.message, { recovery: { suggested_tool: 'list_indexed_schemas', suggested_args: {}, widening_hint: violation.wideningHint } });
    }

    const conn = await ctx.deps.connections.get(source);
    if ('kind' in conn) {
      return failure(failureKind(conn), conn.message, {
        recovery: { suggested_tool: 'get_index_status', suggested_args: { source: source.name } },
      });
    }
    const guard = await ctx.deps.sqlGuard();
    const caps = { timeoutMs: ctx.deps.limits.statementTimeoutMs, maxRows: ctx.deps.limits.maxRows, maxBytes: ctx.deps.limits.maxBytes, signal: ctx.signal };
    const outcome: QueryOutcome =
      conn.engine === 'postgres'
        ? await runReadOnlyPostgres(conn.pool, guard, plan.sql, plan.params, caps)
        : conn.engine === 'mysql'
          ? await runReadOnlyMysql(conn.target, guard, plan.sql, plan.params, caps)
          : runReadOnlySqlite(conn.db, guard, plan.sql, plan.params, caps);
    if (!outcome.ok) {
      if (outcome.kind === 'connection' && /password|authentication/i.test(outcome.message)) {
        await ctx.deps.connections.drop(source.name);
        return failure('missing_credential', `The source '${source.name}' rejected the credentials: ${outcome.message}`, {
          recovery: { suggested_tool: 'get_index_status', suggested_args: { source: source.name } },
        });
      }
      if (outcome.kind === 'unknown_relation' || outcome.kind === 'unknown_column') {
        return failure('schema_drift', `The database no longer matches the catalog: ${outcome.message}. Re-index the source.`, {
          recovery: { suggested_tool: 'get_index_status', suggested_args: { source: source.name } },
        });
      }
      const e = toToolError(outcome);
      const recovery: Recovery =
        e.kind === 'cost_cap_exceeded'
          ? { suggested_tool: 'get_metric', suggested_args: { ...req, ...(args.source ? { source: args.source } : {}), limit: Math.max(1, Math.min(plan.limit, 100)) } }
          : { suggested_tool: 'get_index_status', suggested_args: { source: source.name } };
      return failure(e.kind === 'invalid_argument' ? 'internal_error' : e.kind, e.message, { recovery });
    }

    const r = outcome.result;
    ctx.trace.rowCount = r.rowCount;
    ctx.trace.truncated = r.truncated;
    const data: Record<string, unknown> = {
      metric: plan.metric,
      entity: plan.anchorEntity,
      source: source.name,
      columns: plan.columns.map((c, i) => ({ name: c.name, role: c.role, ...(c.role !== 'measure' ? { ref: c.ref } : {}), type: r.columns[i]?.dataType ?? null })),
      rows: r.rows,
      row_count: r.rowCount,
      truncated: r.truncated,
      ...(r.truncatedBy ? { truncated_by: r.truncatedBy } : {}),
      sql: plan.sql,
      params: plan.params,
      dialect: plan.dialect,
      required_joins: plan.requiredJoins,
      fan_out: {
        joins: plan.fanOutJoins,
        strategy: plan.fanOutStrategy,
        ...(plan.fanOutStrategy === 'distinct_identity'
          ? { note: `rows of '${plan.anchorEntity}' repeated by ${plan.fanOutJoins.join(', ')} are counted once per group (DISTINCT on its identity before aggregating)` }
          : plan.fanOutStrategy === 'idempotent_aggregate'
            ? { note: `${metric.measure.agg} is not changed by repeated rows, so no rewrite is needed` }
            : plan.fanOutStrategy === 'unsafe'
              ? { note: `'${plan.anchorEntity}' has no identity, so rows repeated by ${plan.fanOutJoins.join(', ')} may inflate ${metric.measure.agg}` }
              : {}),
      },
      ...(plan.timeGrain
        ? { time: { dimension: plan.timeDimension, grain: plan.timeGrain, resolution: plan.timeDimensionResolution, ...(plan.timeDimensionInheritedVia.length ? { inherited_via: plan.timeDimensionInheritedVia } : {}) } }
        : plan.timeDimensionResolution === 'unavailable'
          ? { time: { resolution: 'unavailable' } }
          : {}),
      ...(plan.piiCategories.length ? { pii_categories: plan.piiCategories } : {}),
      ...provenanceTrust(plan),
      ...(plan.notes.some((n) => !n.startsWith('fan-out through')) ? { notes: plan.notes.filter((n) => !n.startsWith('fan-out through')) } : {}),
      elapsed_ms: Math.round(r.elapsedMs * 10) / 10,
      fingerprint: sqlFingerprint(plan.sql),
      ...definitionReport(sm, 'brief'),
    };
    data.token_estimate = tokenEstimate(data);
    const provenance = provenanceOf({ inferenceMethod: plan.trust.inference_method, validationState: plan.trust.validation_state });
    if (plan.degradation) {
      return degraded(data, plan.degradation, { confidence: capAt(plan.confidence, 'MEDIUM'), provenance, hints: ['get_metric', 'describe_entity'] });
    }
    if (r.truncated) return partial(data, { confidence: plan.confidence, provenance, hints: ['get_metric'] });
    if (r.rowCount === 0) return empty(data, { confidence: plan.confidence, provenance, hints: ['get_metric', 'describe_entity'] });
    return success(data, { confidence: plan.confidence, provenance, hints: ['describe_entity', 'list_metrics'] });
  },
  summarize(env) {
    const d = env.data as { row_count?: number; truncated?: boolean; required_joins?: unknown[] } | null;
    return { rows: d?.row_count ?? 0, truncated: d?.truncated ?? false, joins: d?.required_joins?.length ?? 0 };
  },
});

function provenanceTrust(plan: CompiledMetric): Record<string, unknown> {
  return { aggregate_inference_method: plan.trust.inference_method, aggregate_validation_state: plan.trust.validation_state };
}
