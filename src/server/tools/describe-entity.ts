import { z } from 'zod';
import { capAt, deriveConfidence, success } from '../../core/envelope';
import { timeKindOf } from '../../core/semantic';
import { definitionReport, entityEntry, loadForTool, noDefinitions, provenanceOf, resolveEntity, trustOut } from '../semantic-model';
import { defineTool, tokenEstimate } from '../tool';
import { columnVisibility } from './common';

const input = z.strictObject({
  name: z.string().min(1).max(200).describe("Entity name as list_entities shows it, e.g. 'customer'."),
  source: z.string().min(1).max(200).optional().describe('Indexed source, when several hold the table.'),
});

export const describeEntity = defineTool({
  name: 'describe_entity',
  title: 'Describe a semantic entity',
  description:
    "Use this when you need an entity's columns (types, PII tags, groupable), joins and metrics before a get_metric breakdown. Use describe_table instead for a table no entity covers. Composition: list_entities → describe_entity → get_metric(group_by=['entity.column']).",
  input,
  latency: 'fast',
  idempotent: true,
  sideEffects: 'read',
  async handler(args, ctx) {
    const sm = await loadForTool(ctx);
    if ('status' in sm) return sm;
    if (sm.model.entities.size === 0 && !sm.skipped.some((s) => s.kind === 'entity')) return noDefinitions(sm, 'entities', ['find_relevant_tables'], { name: args.name });
    const e = resolveEntity(sm, args.name, 'name');
    if ('status' in e) return e;
    const entry = entityEntry(ctx, sm, e, args.source);
    if ('status' in entry) return entry;
    const t = entry.table;
    const vis = columnVisibility(ctx, entry);
    const identity = new Set(e.identity.map((c) => sm.catalog.column(t, c)?.name ?? c));
    const timeCol = e.timeDimension ? (sm.catalog.column(t, e.timeDimension)?.name ?? e.timeDimension) : null;
    let redacted = 0;
    const columns = t.columns.map((c) => {
      const v = vis.get(c.name)!;
      const o: Record<string, unknown> = { name: v.displayName, type: c.dataType };
      if (!c.isNullable) o.nullable = false;
      if (identity.has(c.name)) o.identity = true;
      if (v.blocked.length > 0) {
        redacted++;
        o.redacted = true;
        o.pii_categories = v.blocked;
        return o;
      }
      if (c.name === timeCol) o.time_dimension = true;
      else if (timeKindOf(c) === 'timestamp' || timeKindOf(c) === 'date') o.time_capable = true;
      if (c.comment) o.comment = c.comment;
      if (c.pii && c.pii.categories.length) {
        o.pii_categories = c.pii.categories;
        // ADR 0012: grouping by a tagged column discloses row-level values, so get_metric refuses it.
        o.groupable = false;
      }
      return o;
    });
    const joins = (sm.model.joinsByEntity.get(e.name) ?? []).map((jn) => {
      const j = sm.model.joins.get(jn)!;
      const outward = j.from === e.name;
      return {
        name: j.name,
        entity: outward ? j.to : j.from,
        direction: outward ? 'outgoing' : 'incoming',
        cardinality: j.cardinality,
        ...trustOut(j),
      };
    });
    const metrics = [...sm.model.metrics.values()].filter((m) => m.entity === e.name).map((m) => m.name);
    const data: Record<string, unknown> = {
      name: e.name,
      ...(e.description ? { description: e.description } : {}),
      table: entry.qualifiedName,
      source: entry.source.name,
      identity: [...identity],
      group: e.group,
      time_dimension: timeCol,
      ...trustOut(e),
      columns,
      ...(redacted ? { redacted_columns: redacted } : {}),
      joins,
      metrics,
      reference_as: `${e.name}.<column>`,
      ...definitionReport(sm, 'brief'),
    };
    data.token_estimate = tokenEstimate(data);
    const base = deriveConfidence(e.inferenceMethod, e.validationState);
    return success(data, {
      confidence: redacted ? capAt(base, 'MEDIUM') : base,
      provenance: provenanceOf(e),
      hints: metrics.length ? ['get_metric', 'resolve_join', 'describe_table'] : ['resolve_join', 'describe_table'],
    });
  },
  summarize(env) {
    const d = env.data as { columns?: unknown[]; redacted_columns?: number } | null;
    return { columns: d?.columns?.length ?? 0, redacted: d?.redacted_columns ?? 0 };
  },
});
