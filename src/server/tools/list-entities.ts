import { z } from 'zod';
import { empty, success } from '../../core/envelope';
import { ENTITY_GROUPS } from '../../core/semantic';
import { definitionReport, entityTableName, loadForTool, noDefinitions, trustOut, trustSummary } from '../semantic-model';
import { defineTool, tokenEstimate } from '../tool';
import { scopeSource } from './common';

const input = z.strictObject({
  source: z.string().min(1).max(200).optional().describe('Only entities in this indexed source.'),
  group: z.enum(ENTITY_GROUPS).optional().describe('Only entities of this group.'),
  limit: z.number().int().min(1).max(500).default(200).describe('Maximum entities returned (1–500, default 200).'),
});

export const listEntities = defineTool({
  name: 'list_entities',
  title: 'List semantic entities',
  description:
    'Use this when you want the business entities (customer, invoice…) of the semantic layer: table, identity, trust. Use find_relevant_entities instead for a question rather than a name. Composition: list_entities → describe_entity → get_metric.',
  input,
  latency: 'fast',
  idempotent: true,
  sideEffects: 'read',
  async handler(args, ctx) {
    const sm = await loadForTool(ctx);
    if ('status' in sm) return sm;
    if (sm.model.entities.size === 0) return noDefinitions(sm, 'entities', ['find_relevant_tables']);
    const multiSource = ctx.catalog.sources.length > 1;
    const scoped = scopeSource(ctx, 'list_entities', args);
    if (!scoped.ok) return scoped.envelope;
    const source = scoped.value;
    const all = [...sm.model.entities.values()].filter(
      (e) => (!args.group || e.group === args.group) && (!source || (e.source ? e.source === source : sm.sourcesOf(e).some((s) => s.name === source))),
    );
    if (all.length === 0) {
      const data = { entities: [], total: 0, message: `No entity matches${args.group ? ` group '${args.group}'` : ''}${source ? ` in source '${source}'` : ''}; ${sm.model.entities.size} entities are defined in all.`, ...definitionReport(sm) };
      return empty({ ...data, token_estimate: tokenEstimate(data) }, { provenance: { source: 'schema' }, hints: ['list_entities', 'find_relevant_entities'] });
    }
    const shown = all.slice(0, args.limit);
    const entities = shown.map((e) => ({
      name: e.name,
      ...(e.description ? { description: e.description } : {}),
      table: entityTableName(sm, e),
      ...(e.source ? { source: e.source } : multiSource ? { source: sm.sourcesOf(e)[0]?.name ?? null } : {}),
      identity: e.identity,
      group: e.group,
      ...(e.timeDimension ? { time_dimension: e.timeDimension } : {}),
      ...trustOut(e),
    }));
    const data: Record<string, unknown> = { entities, total: all.length, ...(all.length > shown.length ? { truncated: true } : {}), ...definitionReport(sm) };
    data.token_estimate = tokenEstimate(data);
    const { confidence, provenance } = trustSummary(shown);
    return success(data, { confidence, provenance, hints: ['describe_entity', 'list_metrics'] });
  },
  summarize(env) {
    const d = env.data as { entities?: unknown[] } | null;
    return { entities: d?.entities?.length ?? 0 };
  },
});
