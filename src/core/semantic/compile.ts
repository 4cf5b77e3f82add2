import type { ColumnInfo, TableInfo } from '../catalog/model';
import { deriveConfidence } from '../envelope/confidence';
import { fuzzyMatches } from '../envelope/fuzzy';
import type { Confidence, DegradationReason, ErrorKind, InferenceMethod, ValidationState } from '../envelope/kinds';
import type { Recovery } from '../envelope/schema';
import { timeKindOf } from './catalog';
import type { SemanticCatalog, TimeKind } from './catalog';
import { expressionColumns, renderExpression } from './expression';
import { filterValueProblem } from './grammar';
import { nonFanOutReach, shortestPaths } from './plan';
import type { Step } from './plan';
import { METRIC_LIMIT_DEFAULT, METRIC_LIMIT_MAX } from './request';
import type { MetricRequest } from './request';
import { fansOut, TIME_GRAINS } from './types';
import type { Dialect, EntityDef, FilterOp, FilterSpec, ScalarValue, SemanticModel, TimeGrain, Trust } from './types';

/**
 * Metric planner and SQL compiler. Resolves every reference of a request against the model and the catalog,
 * finds the join path, and emits one parameterised SELECT for PostgreSQL or SQLite.
 *
 * Fan-out: when a join walked from the metric's entity is one-to-many (or many-to-many), a plain join repeats
 * each measure row once per matching row and SUM/COUNT/AVG come out inflated. We then aggregate over
 * `SELECT DISTINCT <group keys>, <identity of the metric entity>, <measure>` so each measure row counts once per
 * group it belongs to (filters on the fanned side act as semi-joins). COUNT DISTINCT, MIN and MAX are unaffected
 * by repetition and need no rewrite. Only a metric entity with no identity column leaves no exact plan; then the
 * result is `degraded` with `fan_out_join`.
 */

export type TimeDimensionResolution = 'local' | 'inherited' | 'unavailable' | 'none';
export type FanOutStrategy = 'none' | 'distinct_identity' | 'idempotent_aggregate' | 'unsafe';
export type ColumnRole = 'measure' | 'time' | 'group_by' | 'filter' | 'join_key';

export interface CompiledColumn {
  /** Output column name (the row key). */
  readonly name: string;
  readonly role: 'time' | 'group_by' | 'measure';
  /** `entity.column` for time and group-by columns; the metric name for the measure. */
  readonly ref: string;
}

export interface ColumnRead {
  /** `schema.table.column`. */
  readonly qualified: string;
  readonly entity: string;
  readonly column: string;
  readonly roles: readonly ColumnRole[];
  readonly piiCategories: readonly string[];
}

export interface PlanTrust {
  readonly inference_method: InferenceMethod;
  readonly validation_state: ValidationState;
}

export interface CompiledMetric {
  readonly ok: true;
  readonly dialect: Dialect;
  readonly sql: string;
  /** Positional: `$1..$n` for PostgreSQL, `?` in order for SQLite. */
  readonly params: readonly (string | number | boolean)[];
  readonly columns: readonly CompiledColumn[];
  readonly metric: string;
  readonly anchorEntity: string;
  readonly requiredJoins: readonly string[];
  readonly fanOutJoins: readonly string[];
  readonly fanOutStrategy: FanOutStrategy;
  /** Every qualified column the plan reads (measure, time, group-by, filters, join keys); the PII gate checks these. */
  readonly piiColumnsTouched: readonly string[];
  readonly columnsRead: readonly ColumnRead[];
  /** Union of catalog PII categories over `columnsRead`. */
  readonly piiCategories: readonly string[];
  /** Weakest trust over the metric and every join used. */
  readonly trust: PlanTrust;
  readonly confidence: Confidence;
  readonly timeDimension: string | null;
  readonly timeGrain: TimeGrain | null;
  readonly timeDimensionResolution: TimeDimensionResolution;
  readonly timeDimensionInheritedVia: readonly string[];
  readonly limit: number;
  /** The highest-priority degradation, when the result must be reported `degraded`. */
  readonly degradation?: DegradationReason;
  readonly degradations: readonly DegradationReason[];
  /** Human-readable notes on choices the planner made (auto-filled ORDER BY, strategy). */
  readonly notes: readonly string[];
}

export interface CompileError {
  readonly ok: false;
  readonly kind: ErrorKind;
  readonly message: string;
  readonly recovery: Recovery;
}

export type CompileResult = CompiledMetric | CompileError;

class Fail {
  constructor(readonly error: CompileError) {}
}

function fail(kind: ErrorKind, message: string, recovery: Recovery): never {
  throw new Fail({ ok: false, kind, message, recovery });
}

interface ResolvedRef {
  readonly entity: EntityDef;
  readonly table: TableInfo;
  readonly column: ColumnInfo;
  /** Normalised `entity.Column`. */
  readonly ref: string;
}

type Surface = 'group_by' | 'filter' | 'time_dimension';

const UNKNOWN_COLUMN_KIND: Record<Surface, ErrorKind> = {
  group_by: 'unknown_group_by_column',
  filter: 'unknown_filter_column',
  time_dimension: 'unknown_group_by_column',
};

const DEGRADATION_PRIORITY: readonly DegradationReason[] = ['fan_out_join', 'time_dimension_unavailable', 'missing_order_by_with_limit'];

export function compileMetric(model: SemanticModel, catalog: SemanticCatalog, request: MetricRequest, dialect: Dialect): CompileResult {
  try {
    return compile(model, catalog, request, dialect);
  } catch (e) {
    if (e instanceof Fail) return e.error;
    throw e;
  }
}

function compile(model: SemanticModel, catalog: SemanticCatalog, req: MetricRequest, dialect: Dialect): CompiledMetric {
  // MySQL reads "x" as a string literal unless ANSI_QUOTES is on, so its identifiers are back-quoted.
  const q = dialect === 'mysql' ? qMysql : qStandard;
  const tableSql = (t: TableInfo): string => `${q(t.schema)}.${q(t.name)}`;
  const metric = model.metrics.get(req.name);
  if (!metric) {
    const fuzzy = fuzzyMatches(req.name, model.metrics.keys());
    fail('unknown_metric', `Metric '${req.name}' is not defined.${fuzzy.length ? ` Closest: ${fuzzy.join(', ')}.` : ''} Call list_metrics to see the defined metrics.`, {
      suggested_tool: 'list_metrics',
      suggested_args: {},
      fuzzy_matches: fuzzy,
    });
  }
  const retry = (patch: Record<string, unknown>): Record<string, unknown> => ({ ...stripUndefined(req as Record<string, unknown>), ...patch });

  const limit = req.limit ?? METRIC_LIMIT_DEFAULT;
  if (!Number.isInteger(limit) || limit < 1 || limit > METRIC_LIMIT_MAX) {
    fail('invalid_argument', `argument 'limit' value must be an integer between 1 and ${METRIC_LIMIT_MAX}`, {
      suggested_tool: 'get_metric',
      suggested_args: retry({ limit: Math.min(Math.max(Math.trunc(Number(limit)) || 1, 1), METRIC_LIMIT_MAX) }),
    });
  }

  const via = new Set<string>();
  for (const v of req.via ?? []) {
    if (!model.joins.has(v)) {
      const fuzzy = fuzzyMatches(v, model.joins.keys());
      fail('unknown_via_join', `Join '${v}' in 'via' is not a canonical join.${fuzzy.length ? ` Closest: ${fuzzy.join(', ')}.` : ''} Call list_joins to see the canonical joins.`, {
        suggested_tool: 'list_joins',
        suggested_args: {},
        fuzzy_matches: fuzzy,
      });
    }
    via.add(v);
  }

  const anchor = model.entities.get(metric.entity)!;
  const anchorTable = tableOrDrift(catalog, anchor);

  // Measure columns are checked first: a broken metric definition is not the caller's fault to fix by retrying.
  const measureCols: ColumnInfo[] = [];
  const measureNames = metric.measure.expressionAst ? expressionColumns(metric.measure.expressionAst) : metric.measure.column ? [metric.measure.column] : [];
  for (const name of measureNames) {
    const col = catalog.column(anchorTable, name);
    if (!col) {
      const allowed = anchorTable.columns.map((c) => c.name);
      fail('unknown_measure_column', `Metric '${metric.name}' measures column '${name}', which entity '${anchor.name}' (${anchorTable.schema}.${anchorTable.name}) does not have. The definition needs fixing; its columns are: ${allowed.join(', ')}.`, {
        suggested_tool: 'describe_entity',
        suggested_args: { name: anchor.name },
        fuzzy_matches: closestOrAll(name, allowed),
      });
    }
    measureCols.push(col);
  }

  const resolve = (raw: string, surface: Surface): ResolvedRef => resolveRef(model, catalog, raw, surface, anchor);

  // Group-by references, de-duplicated after normalisation.
  const groups: ResolvedRef[] = [];
  for (const g of req.group_by ?? []) {
    const r = resolve(g, 'group_by');
    if (!groups.some((x) => x.ref === r.ref)) groups.push(r);
  }

  const filters: Array<{ ref: ResolvedRef; spec: FilterSpec }> = [];
  for (const [i, f] of [...metric.filters.map((f) => ['metric', f] as const), ...(req.filters ?? []).map((f) => ['request', f] as const)].entries()) {
    const [origin, spec] = f;
    const problem = filterValueProblem(spec.op, spec.value);
    if (problem) {
      fail('invalid_argument', origin === 'metric' ? `metric '${metric.name}' filter on '${spec.column}': ${problem}` : `argument 'filters[${i - metric.filters.length}]' ${problem}`, {
        suggested_tool: origin === 'metric' ? 'list_metrics' : 'get_metric',
        suggested_args: origin === 'metric' ? {} : retry({ filters: (req.filters ?? []).filter((x) => x !== spec) }),
      });
    }
    filters.push({ ref: resolve(spec.column, 'filter'), spec: spec as FilterSpec });
  }

  // Time dimension and grain.
  let timeRef: ResolvedRef | null = null;
  let timeKind: TimeKind | null = null;
  let resolution: TimeDimensionResolution = 'none';
  let inheritedVia: readonly string[] = [];
  let grain: TimeGrain | null = null;
  const degradations = new Set<DegradationReason>();
  const notes: string[] = [];

  if (req.time_dimension !== undefined) {
    timeRef = resolve(req.time_dimension, 'time_dimension');
    resolution = 'local';
  }
  if (req.time_grain !== undefined) {
    if (!(TIME_GRAINS as readonly string[]).includes(req.time_grain)) {
      const allowed = metric.timeGrains.length ? [...metric.timeGrains] : [...TIME_GRAINS];
      const best = fuzzyMatches(req.time_grain, allowed, 1, 0.3)[0] ?? allowed[0]!;
      fail('invalid_time_grain', `Time grain '${req.time_grain}' is not a grain. Metric '${metric.name}' allows: ${allowed.join(', ')}.`, {
        suggested_tool: 'get_metric',
        suggested_args: retry({ time_grain: best }),
        fuzzy_matches: allowed,
      });
    }
    grain = req.time_grain as TimeGrain;
    if (!timeRef) {
      const declared = metric.timeDimension ?? anchor.timeDimension;
      if (declared) {
        timeRef = resolve(declared.includes('.') ? declared : `${anchor.name}.${declared}`, 'time_dimension');
        resolution = 'local';
      } else {
        const reach = nonFanOutReach(model, anchor.name);
        let bestHops = Infinity;
        let candidates: Array<{ ref: string; via: readonly string[] }> = [];
        for (const [name, r] of reach) {
          const e = model.entities.get(name)!;
          if (!e.timeDimension || name === anchor.name) continue;
          const ref = `${name}.${e.timeDimension}`;
          if (r.hops < bestHops) {
            bestHops = r.hops;
            candidates = [{ ref, via: r.via }];
          } else if (r.hops === bestHops) candidates.push({ ref, via: r.via });
        }
        candidates.sort((a, b) => a.ref.localeCompare(b.ref));
        if (candidates.length > 1) {
          fail('ambiguous_time_dimension', `Metric '${metric.name}' has no time dimension of its own and ${candidates.length} related entities offer one: ${candidates.map((c) => c.ref).join(', ')}. Pass time_dimension to choose.`, {
            suggested_tool: 'get_metric',
            suggested_args: retry({ time_dimension: candidates[0]!.ref }),
            fuzzy_matches: candidates.map((c) => c.ref),
          });
        }
        if (candidates.length === 1) {
          timeRef = resolve(candidates[0]!.ref, 'time_dimension');
          resolution = 'inherited';
          inheritedVia = candidates[0]!.via;
        } else {
          resolution = 'unavailable';
          degradations.add('time_dimension_unavailable');
          notes.push(`time_grain '${grain}' ignored: no time column is reachable from '${anchor.name}' without fan-out`);
          grain = null;
        }
      }
    }
    if (timeRef && grain) {
      timeKind = timeKindOf(timeRef.column);
      const typeGrains = grainsForKind(timeKind);
      const allowed = (metric.timeGrains.length ? metric.timeGrains : TIME_GRAINS).filter((g) => typeGrains.includes(g));
      if (!allowed.includes(grain)) {
        const why = !typeGrains.includes(grain)
          ? `time column '${timeRef.ref}' (type ${timeRef.column.dataType}) supports ${typeGrains.length ? typeGrains.join(', ') : 'no grain'}`
          : `metric '${metric.name}' declares time_grains ${metric.timeGrains.join(', ')}`;
        const coarser = allowed.find((g) => TIME_GRAINS.indexOf(g) > TIME_GRAINS.indexOf(grain!)) ?? allowed[allowed.length - 1];
        fail('grain_mismatch', `Time grain '${grain}' does not fit: ${why}.${allowed.length ? ` Use one of: ${allowed.join(', ')}.` : ' Choose another time_dimension.'}`, {
          suggested_tool: 'get_metric',
          suggested_args: coarser ? retry({ time_grain: coarser }) : retry({ time_grain: undefined, time_dimension: undefined }),
          fuzzy_matches: [...allowed],
        });
      }
    }
  }
  const bucketing = timeRef !== null && grain !== null;

  // Join paths from the metric's entity to every entity the request touches.
  const paths = shortestPaths(model, anchor.name, via);
  const targets: string[] = [];
  const need = (e: string): void => {
    if (e !== anchor.name && !targets.includes(e)) targets.push(e);
  };
  if (bucketing) need(timeRef!.entity.name);
  groups.forEach((g) => need(g.entity.name));
  filters.forEach((f) => need(f.ref.entity.name));
  const steps: Step[] = [];
  for (const t of targets) {
    const p = paths.pathTo(t);
    if (p.kind === 'unreachable') {
      fail('unreachable_entity', `No chain of canonical joins connects '${anchor.name}' (the entity of metric '${metric.name}') to '${t}'. Check how they relate with resolve_join, or define a join.`, {
        suggested_tool: 'resolve_join',
        suggested_args: { entity_a: anchor.name, entity_b: t },
      });
    }
    if (p.kind === 'ambiguous_join') {
      fail('ambiguous_join', `More than one canonical join links the same entities on the way from '${anchor.name}' to '${t}': ${p.candidates.join(', ')}. Pass via with the one you mean.`, {
        suggested_tool: 'get_metric',
        suggested_args: retry({ via: [...(req.via ?? []), p.candidates[0]!] }),
        fuzzy_matches: [...p.candidates],
      });
    }
    if (p.kind === 'ambiguous_path') {
      fail('ambiguous_path', `'${t}' is reachable from '${anchor.name}' by ${p.paths.length} different shortest routes: ${p.paths.map((x) => x.join(' > ')).join(' | ')}. Pass via with the joins of the route you mean.`, {
        suggested_tool: 'get_metric',
        suggested_args: retry({ via: [...new Set([...(req.via ?? []), ...p.paths[0]!])] }),
        fuzzy_matches: [...new Set(p.paths.flat())],
      });
    }
    for (const s of p.steps) if (!steps.some((x) => x.toEntity === s.toEntity)) steps.push(s);
  }

  // Output columns and ORDER BY.
  const columns: CompiledColumn[] = [];
  if (bucketing) columns.push({ name: `${timeRef!.ref}__${grain}`, role: 'time', ref: timeRef!.ref });
  for (const g of groups) columns.push({ name: g.ref, role: 'group_by', ref: g.ref });
  columns.push({ name: metric.name, role: 'measure', ref: metric.name });
  const groupCols = columns.filter((c) => c.role !== 'measure');

  const order: Array<{ column: string; direction: 'asc' | 'desc' }> = [];
  for (const o of req.order_by ?? []) {
    const name = matchOutputColumn(o.column, columns);
    if (!name) {
      const allowed = columns.map((c) => c.name);
      const best = fuzzyMatches(o.column, allowed, 1, 0.3)[0] ?? allowed[0]!;
      fail('unknown_order_by_column', `order_by column '${o.column}' is not an output column. Order by one of: ${allowed.join(', ')}.`, {
        suggested_tool: 'get_metric',
        suggested_args: retry({ order_by: (req.order_by ?? []).map((x) => (x === o ? { ...x, column: best } : x)) }),
        fuzzy_matches: closestOrAll(o.column, allowed),
      });
    }
    if (!order.some((x) => x.column === name)) order.push({ column: name, direction: o.direction ?? 'asc' });
  }
  if (groupCols.length > 0) {
    if (order.length === 0 && req.limit !== undefined) {
      degradations.add('missing_order_by_with_limit');
      notes.push('limit given with group_by but no order_by: rows are ordered by the group columns, which may not be the "top N" you meant');
    }
    // A deterministic tie-break on every group column, so LIMIT always cuts the same rows.
    for (const c of groupCols) if (!order.some((x) => x.column === c.name)) order.push({ column: c.name, direction: 'asc' });
  }

  // Fan-out analysis.
  const fanOutJoins = steps.filter((s) => fansOut(s.cardinality)).map((s) => s.join.name);
  let strategy: FanOutStrategy = 'none';
  const agg = metric.measure.agg;
  if (fanOutJoins.length > 0) {
    if (agg === 'count_distinct' || agg === 'min' || agg === 'max') strategy = 'idempotent_aggregate';
    else if (anchor.identity.length > 0 && anchor.identity.every((c) => catalog.column(anchorTable, c))) strategy = 'distinct_identity';
    else {
      strategy = 'unsafe';
      degradations.add('fan_out_join');
      notes.push(`entity '${anchor.name}' has no identity column, so rows repeated by ${fanOutJoins.join(', ')} cannot be de-duplicated; ${agg} may be inflated`);
    }
  }

  // Aliases: t0 for the metric's entity, then one per joined entity in path order.
  const alias = new Map<string, string>([[anchor.name, 't0']]);
  steps.forEach((s, i) => alias.set(s.toEntity, `t${i + 1}`));

  const em = new Emitter(dialect);
  const colSql = (entity: string, column: string): string => `${q(alias.get(entity)!)}.${q(column)}`;
  const measureSql = metric.measure.expressionAst
    ? renderExpression(metric.measure.expressionAst, (n) => colSql(anchor.name, catalog.column(anchorTable, n)!.name))
    : metric.measure.column
      ? colSql(anchor.name, measureCols[0]!.name)
      : null;
  const groupExprs: Array<{ name: string; sql: string }> = [];
  if (bucketing) groupExprs.push({ name: columns[0]!.name, sql: bucketSql(dialect, timeKind!, grain!, colSql(timeRef!.entity.name, timeRef!.column.name)) });
  for (const g of groups) groupExprs.push({ name: g.ref, sql: colSql(g.entity.name, g.column.name) });

  const from = (): string => {
    let s = `FROM ${tableSql(anchorTable)} AS ${q('t0')}`;
    for (const st of steps) {
      const child = model.entities.get(st.toEntity)!;
      const childTable = tableOrDrift(catalog, child);
      const parentTable = st.fromEntity === anchor.name ? anchorTable : tableOrDrift(catalog, model.entities.get(st.fromEntity)!);
      const conds = st.join.on.map((k) => {
        const [pc, cc] = st.reversed ? [k.to, k.from] : [k.from, k.to];
        const pcol = catalog.column(parentTable, pc);
        const ccol = catalog.column(childTable, cc);
        if (!pcol || !ccol) {
          fail('schema_drift', `Join '${st.join.name}' uses column '${!pcol ? pc : cc}', which the catalog no longer has. Re-index, or fix the join definition.`, {
            suggested_tool: 'get_index_status',
            suggested_args: {},
          });
        }
        return `${colSql(st.toEntity, ccol.name)} = ${colSql(st.fromEntity, pcol.name)}`;
      });
      s += `\nLEFT JOIN ${tableSql(childTable)} AS ${q(alias.get(st.toEntity)!)} ON ${conds.join(' AND ')}`;
    }
    return s;
  };
  const where = (): string => {
    if (filters.length === 0) return '';
    return `\nWHERE ${filters.map((f) => filterSql(em, colSql(f.ref.entity.name, f.ref.column.name), f.spec.op, f.spec.value)).join('\n  AND ')}`;
  };
  const aggSql = (input: string | null): string => {
    switch (agg) {
      case 'sum':
        return `SUM(${input})`;
      case 'avg':
        return `AVG(${input})`;
      case 'min':
        return `MIN(${input})`;
      case 'max':
        return `MAX(${input})`;
      case 'count_distinct':
        return `COUNT(DISTINCT ${input})`;
      case 'count':
        return input === null ? 'COUNT(*)' : `COUNT(${input})`;
    }
  };
  const groupBy = groupExprs.length ? `\nGROUP BY ${groupExprs.map((_, i) => String(i + 1)).join(', ')}` : '';
  const orderBy = order.length ? `\nORDER BY ${order.map((o) => `${q(o.column)} ${o.direction.toUpperCase()}`).join(', ')}` : '';

  let sql: string;
  if (strategy === 'distinct_identity') {
    const inner = [
      ...groupExprs.map((g) => `${g.sql} AS ${q(g.name)}`),
      ...anchor.identity.map((c, i) => `${colSql(anchor.name, catalog.column(anchorTable, c)!.name)} AS ${q(`__k${i}`)}`),
      ...(measureSql !== null ? [`${measureSql} AS ${q('__m')}`] : []),
    ];
    const body = `SELECT DISTINCT ${inner.join(', ')}\n${from()}${where()}`;
    const outer = [...groupExprs.map((g) => q(g.name)), `${aggSql(measureSql !== null ? q('__m') : null)} AS ${q(metric.name)}`];
    sql = `SELECT ${outer.join(', ')}\nFROM (\n${indent(body)}\n) AS ${q('base')}${groupBy}${orderBy}\nLIMIT ${em.param(limit)}`;
    notes.push(`fan-out through ${fanOutJoins.join(', ')}: each '${anchor.name}' row is counted once per group (distinct on identity)`);
  } else {
    const select = [...groupExprs.map((g) => `${g.sql} AS ${q(g.name)}`), `${aggSql(measureSql)} AS ${q(metric.name)}`];
    sql = `SELECT ${select.join(', ')}\n${from()}${where()}${groupBy}${orderBy}\nLIMIT ${em.param(limit)}`;
  }

  // Columns read, for the PII gate and the audit record.
  const reads = new Map<string, { entity: string; table: TableInfo; column: ColumnInfo; roles: Set<ColumnRole> }>();
  const read = (entity: string, table: TableInfo, column: ColumnInfo, role: ColumnRole): void => {
    const key = `${table.schema}.${table.name}.${column.name}`;
    const r = reads.get(key);
    if (r) r.roles.add(role);
    else reads.set(key, { entity, table, column, roles: new Set([role]) });
  };
  measureCols.forEach((c) => read(anchor.name, anchorTable, c, 'measure'));
  if (bucketing) read(timeRef!.entity.name, timeRef!.table, timeRef!.column, 'time');
  groups.forEach((g) => read(g.entity.name, g.table, g.column, 'group_by'));
  filters.forEach((f) => read(f.ref.entity.name, f.ref.table, f.ref.column, 'filter'));
  for (const st of steps) {
    const a = model.entities.get(st.join.from)!;
    const b = model.entities.get(st.join.to)!;
    const ta = tableOrDrift(catalog, a);
    const tb = tableOrDrift(catalog, b);
    for (const k of st.join.on) {
      read(a.name, ta, catalog.column(ta, k.from)!, 'join_key');
      read(b.name, tb, catalog.column(tb, k.to)!, 'join_key');
    }
  }
  const columnsRead: ColumnRead[] = [...reads.entries()].map(([qualified, r]) => ({
    qualified,
    entity: r.entity,
    column: r.column.name,
    roles: [...r.roles],
    piiCategories: r.column.pii ? [...r.column.pii.categories] : [],
  }));
  const piiCategories = [...new Set(columnsRead.flatMap((c) => c.piiCategories))].sort();

  const trustItems: Trust[] = [metric, ...steps.map((s) => s.join)];
  const weakestTrust = trustItems.reduce((a, b) => (trustRank(b) < trustRank(a) ? b : a));
  const degradationList = DEGRADATION_PRIORITY.filter((d) => degradations.has(d));

  return {
    ok: true,
    dialect,
    sql,
    params: em.params,
    columns,
    metric: metric.name,
    anchorEntity: anchor.name,
    requiredJoins: steps.map((s) => s.join.name),
    fanOutJoins,
    fanOutStrategy: strategy,
    piiColumnsTouched: columnsRead.map((c) => c.qualified),
    columnsRead,
    piiCategories,
    trust: { inference_method: weakestTrust.inferenceMethod, validation_state: weakestTrust.validationState },
    confidence: deriveConfidence(weakestTrust.inferenceMethod, weakestTrust.validationState),
    timeDimension: bucketing ? timeRef!.ref : null,
    timeGrain: bucketing ? grain : null,
    timeDimensionResolution: resolution,
    timeDimensionInheritedVia: inheritedVia,
    limit,
    ...(degradationList.length ? { degradation: degradationList[0]! } : {}),
    degradations: degradationList,
    notes,
  };
}

function tableOrDrift(catalog: SemanticCatalog, e: EntityDef): TableInfo {
  const t = catalog.table(e.table, e.source);
  if (!t) {
    fail('schema_drift', `Entity '${e.name}' is bound to ${e.table.schema}.${e.table.name}, which is not in the catalog. Re-index the source, or fix the entity definition.`, {
      suggested_tool: 'get_index_status',
      suggested_args: {},
    });
  }
  return t;
}

function resolveRef(model: SemanticModel, catalog: SemanticCatalog, raw: string, surface: Surface, anchor: EntityDef): ResolvedRef {
  const dot = raw.indexOf('.');
  if (dot <= 0 || dot === raw.length - 1 || raw.indexOf('.', dot + 1) >= 0) {
    // A bare column of the metric's entity is the most common slip: point at it.
    const anchorTable = catalog.table(anchor.table, anchor.source);
    const guess = anchorTable && dot < 0 && catalog.column(anchorTable, raw) ? `${anchor.name}.${catalog.column(anchorTable, raw)!.name}` : null;
    fail('malformed_name', `'${raw}' in ${surfaceLabel(surface)} must be written entity.column${guess ? `, e.g. '${guess}'` : ''}.`, {
      suggested_tool: 'describe_entity',
      suggested_args: { name: dot > 0 && model.entities.has(raw.slice(0, dot)) ? raw.slice(0, dot) : anchor.name },
      fuzzy_matches: guess ? [guess] : [],
    });
  }
  const entityName = raw.slice(0, dot);
  const columnName = raw.slice(dot + 1);
  const entity = model.entities.get(entityName);
  if (!entity) {
    const fuzzy = fuzzyMatches(entityName, model.entities.keys());
    fail('unknown_name', `Entity '${entityName}' (in ${surfaceLabel(surface)} '${raw}') is not defined.${fuzzy.length ? ` Closest: ${fuzzy.join(', ')}.` : ''} Call list_entities to see the entities.`, {
      suggested_tool: 'list_entities',
      suggested_args: {},
      fuzzy_matches: fuzzy,
    });
  }
  const table = tableOrDrift(catalog, entity);
  const column = catalog.column(table, columnName);
  if (!column) {
    // Suggestions name no PII-tagged column: the catalog tools hide the names of blocked ones, and a misspelt name must
    // not be the way to list them. A tagged column named exactly is still found above.
    const allowed = table.columns.filter((c) => c.pii === null && (surface !== 'time_dimension' || timeKindOf(c) !== 'unsupported')).map((c) => c.name);
    fail(UNKNOWN_COLUMN_KIND[surface], `'${columnName}' is not a column of entity '${entity.name}' (${table.schema}.${table.name}), used in ${surfaceLabel(surface)}. Allowed: ${allowed.join(', ')}.`, {
      suggested_tool: 'describe_entity',
      suggested_args: { name: entity.name },
      fuzzy_matches: closestOrAll(columnName, allowed).map((c) => `${entity.name}.${c}`),
    });
  }
  return { entity, table, column, ref: `${entity.name}.${column.name}` };
}

function surfaceLabel(s: Surface): string {
  return s === 'group_by' ? 'group_by' : s === 'filter' ? 'filters' : 'time_dimension';
}

function closestOrAll(name: string, allowed: readonly string[]): string[] {
  const close = fuzzyMatches(name, allowed, 5, 0.4);
  return close.length ? close : allowed.slice(0, 20);
}

function matchOutputColumn(name: string, columns: readonly CompiledColumn[]): string | null {
  const exact = columns.find((c) => c.name === name);
  if (exact) return exact.name;
  const lower = name.toLowerCase();
  // The time bucket may be named by its time dimension alone; group columns case-insensitively.
  const loose = columns.filter((c) => c.name.toLowerCase() === lower || (c.role === 'time' && c.ref.toLowerCase() === lower));
  return loose.length === 1 ? loose[0]!.name : null;
}

function stripUndefined(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

const STATE_RANK: Record<ValidationState, number> = { draft: 0, applied: 1, confirmed: 2 };
const CONF_RANK: Record<Confidence, number> = { LOW: 0, MEDIUM: 1, HIGH: 2 };
const STRONG = new Set<InferenceMethod>(['manually_authored', 'fk_constraint', 'dbt_import']);

function trustRank(t: Trust): number {
  return CONF_RANK[deriveConfidence(t.inferenceMethod, t.validationState)] * 100 + STATE_RANK[t.validationState] * 10 + (STRONG.has(t.inferenceMethod) ? 1 : 0);
}

export function grainsForKind(kind: TimeKind): readonly TimeGrain[] {
  if (kind === 'year') return ['year'];
  if (kind === 'unsupported') return [];
  return TIME_GRAINS;
}

/** Quotes an identifier the same way for PostgreSQL and SQLite: double quotes, embedded quotes doubled. */
export function q(id: string): string {
  return `"${id.replace(/"/g, '""')}"`;
}

/** MySQL/MariaDB identifier quoting: back-quotes, embedded back-quotes doubled. */
export function qMysql(id: string): string {
  return `\`${id.replace(/`/g, '``')}\``;
}
const qStandard = q;

function indent(s: string): string {
  return s
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n');
}

/**
 * Time buckets. PostgreSQL: `date_trunc` (https://www.postgresql.org/docs/current/functions-datetime.html#FUNCTIONS-DATETIME-TRUNC),
 * whose week starts on ISO Monday; dates and text are cast to timestamp so the session time zone does not shift
 * them. SQLite: date()/strftime() (https://www.sqlite.org/lang_datefunc.html) return the first day of the bucket
 * as 'YYYY-MM-DD'; `weekday 0` moves to the next Sunday (or stays), minus 6 days is that ISO week's Monday.
 */
export function bucketSql(dialect: Dialect, kind: TimeKind, grain: TimeGrain, col: string): string {
  if (kind === 'year') return col;
  if (dialect === 'postgres') {
    const src = kind === 'timestamp' ? col : `CAST(${col} AS timestamp)`;
    return `date_trunc('${grain}', ${src})`;
  }
  if (dialect === 'mysql') {
    // MySQL/MariaDB have no date_trunc: DATE() for days, WEEKDAY() (0 = Monday) for ISO weeks, MAKEDATE for years
    // and quarters; every bucket is a DATE (https://dev.mysql.com/doc/refman/8.0/en/date-and-time-functions.html).
    switch (grain) {
      case 'day':
        return `DATE(${col})`;
      case 'week':
        return `DATE_SUB(DATE(${col}), INTERVAL WEEKDAY(${col}) DAY)`;
      case 'month':
        return `DATE_SUB(DATE(${col}), INTERVAL (DAYOFMONTH(${col}) - 1) DAY)`;
      case 'quarter':
        return `DATE_ADD(MAKEDATE(YEAR(${col}), 1), INTERVAL (QUARTER(${col}) - 1) QUARTER)`;
      case 'year':
        return `MAKEDATE(YEAR(${col}), 1)`;
    }
  }
  switch (grain) {
    case 'day':
      return `date(${col})`;
    case 'week':
      return `date(${col}, 'weekday 0', '-6 days')`;
    case 'month':
      return `strftime('%Y-%m-01', ${col})`;
    case 'quarter':
      return `printf('%s-%02d-01', strftime('%Y', ${col}), ((CAST(strftime('%m', ${col}) AS INTEGER) - 1) / 3) * 3 + 1)`;
    case 'year':
      return `strftime('%Y-01-01', ${col})`;
  }
}

class Emitter {
  readonly params: (string | number | boolean)[] = [];
  constructor(private readonly dialect: Dialect) {}

  param(v: ScalarValue): string {
    // SQLite has no boolean type; sql.js binds only numbers, strings, blobs and null.
    this.params.push(this.dialect === 'sqlite' && typeof v === 'boolean' ? (v ? 1 : 0) : v);
    return this.dialect === 'postgres' ? `$${this.params.length}` : '?';
  }
}

function filterSql(em: Emitter, col: string, op: FilterOp, value: FilterSpec['value']): string {
  switch (op) {
    case 'is_null':
      return `${col} IS NULL`;
    case 'not_null':
      return `${col} IS NOT NULL`;
    case 'in':
    case 'not_in': {
      const list = value as readonly ScalarValue[];
      if (list.length === 0) return op === 'in' ? '1 = 0' : '1 = 1';
      return `${col} ${op === 'in' ? 'IN' : 'NOT IN'} (${list.map((v) => em.param(v)).join(', ')})`;
    }
    default: {
      const sym = { eq: '=', ne: '<>', lt: '<', lte: '<=', gt: '>', gte: '>=' }[op];
      return `${col} ${sym} ${em.param(value as ScalarValue)}`;
    }
  }
}
