import { z } from 'zod';
import { empty, success } from '../../core/envelope';
import { TIME_GRAINS } from '../../core/semantic';
import { definitionReport, loadForTool, noDefinitions, resolveEntity, trustOut, trustSummary } from '../semantic-model';
import { defineTool, tokenEstimate } from '../tool';

const input = z.strictObject({
  entity: z.string().min(1).max(200).optional().describe('Only metrics of this entity.'),
  limit: z.number().int().min(1).max(500).default(200).describe('Maximum metrics returned (1–500, default 200).'),
});

export const listMetrics = defineTool({
  name: 'list_metrics',
  title: 'List governed metrics',
  description:
    'Use this when the user asks for a business number (revenue, counts) and you want its governed definition: entity, aggregation, measure, filters, time grains, trust. Use run_query instead when no metric fits. Composition: list_metrics → get_metric.',
  input,
  latency: 'fast',
  idempotent: true,
  sideEffects: 'read',
  async handler(args, ctx) {
    const sm = await loadForTool(ctx);
    if ('status' in sm) return sm;
    if (sm.model.metrics.size === 0) return noDefinitions(sm, 'metrics', ['find_relevant_tables', 'list_entities']);
    if (args.entity !== undefined) {
      const e = resolveEntity(sm, args.entity, 'entity');
      if ('status' in e) return e;
    }
    const all = [...sm.model.metrics.values()].filter((m) => args.entity === undefined || m.entity === args.entity);
    const shown = all.slice(0, args.limit);
    const metrics = shown.map((m) => {
      const anchor = sm.model.entities.get(m.entity)!;
      const time = m.timeDimension ? (m.timeDimension.includes('.') ? m.timeDimension : `${m.entity}.${m.timeDimension}`) : anchor.timeDimension ? `${anchor.name}.${anchor.timeDimension}` : null;
      return {
        name: m.name,
        ...(m.description ? { description: m.description } : {}),
        entity: m.entity,
        aggregation: m.measure.agg,
        ...(m.measure.column ? { measure_column: m.measure.column } : {}),
        ...(m.measure.expression ? { measure_expression: m.measure.expression } : {}),
        ...(m.filters.length ? { filters: m.filters.map((f) => ({ column: f.column, op: f.op, ...(f.value !== undefined ? { value: f.value } : {}) })) } : {}),
        // null: get_metric inherits one over many-to-one joins when a grain is asked for, or reports it unavailable.
        time_dimension: time,
        time_grains: m.timeGrains.length ? m.timeGrains : TIME_GRAINS,
        ...trustOut(m),
      };
    });
    const data: Record<string, unknown> = { metrics, total: all.length, ...(all.length > shown.length ? { truncated: true } : {}), ...definitionReport(sm) };
    data.token_estimate = tokenEstimate(data);
    if (all.length === 0) return empty(data, { provenance: { source: 'schema' }, hints: ['list_metrics', 'describe_entity'] });
    const { confidence, provenance } = trustSummary(shown);
    return success(data, { confidence, provenance, hints: ['get_metric', 'describe_entity'] });
  },
  summarize(env) {
    const d = env.data as { metrics?: unknown[] } | null;
    return { metrics: d?.metrics?.length ?? 0 };
  },
});
