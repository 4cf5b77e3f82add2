import { z } from 'zod';
import { FILTER_OPS } from './types';

/**
 * Arguments of a metric request, as `get_metric` receives them (snake_case, wire names). The tool layer
 * validates with this schema first; `compileMetric` re-checks what it relies on, so it is safe to call directly.
 */

export const METRIC_LIMIT_DEFAULT = 1000;
export const METRIC_LIMIT_MAX = 10000;

const Scalar = z.union([z.string().max(1000), z.number(), z.boolean()]);

export const MetricFilterSchema = z
  .object({
    column: z.string().min(1).max(300).describe('`entity.column` to filter on.'),
    op: z.enum(FILTER_OPS).describe('Comparison; is_null/not_null take no value, in/not_in take a list.'),
    value: z.union([Scalar, z.array(Scalar).max(1000)]).optional().describe('Value bound as a parameter, never spliced into SQL.'),
  })
  .strict();

export const MetricOrderBySchema = z
  .object({
    column: z.string().min(1).max(300).describe('An output column: a group_by reference, the time bucket, or the metric name.'),
    direction: z.enum(['asc', 'desc']).default('asc').describe('Sort direction; default asc.'),
  })
  .strict();

export const MetricRequestSchema = z
  .object({
    name: z.string().min(1).max(200).describe('Metric name (see list_metrics).'),
    group_by: z.array(z.string().min(1).max(300)).max(20).optional().describe('`entity.column` references to group by.'),
    filters: z.array(MetricFilterSchema).max(50).optional(),
    time_grain: z.string().min(1).max(20).optional().describe('day, week, month, quarter or year (within the metric’s time_grains).'),
    time_dimension: z.string().min(1).max(300).optional().describe('`entity.column` time column, to override or disambiguate.'),
    limit: z.number().int().min(1).max(METRIC_LIMIT_MAX).optional().describe(`Maximum rows, 1..${METRIC_LIMIT_MAX}; default ${METRIC_LIMIT_DEFAULT}.`),
    via: z.array(z.string().min(1).max(200)).max(20).optional().describe('Canonical join names that force the join path.'),
    order_by: z.array(MetricOrderBySchema).max(20).optional(),
  })
  .strict();

export type MetricFilter = z.input<typeof MetricFilterSchema>;
export type MetricOrderBy = z.input<typeof MetricOrderBySchema>;
export type MetricRequest = z.input<typeof MetricRequestSchema>;
