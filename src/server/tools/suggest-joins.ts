import { z } from 'zod';
import { failure, partial, schemaProvenance, success } from '../../core/envelope';
import { formatName } from '../../core/catalog/names';
import { JoinGraph } from '../../core/catalog/join-graph';
import type { TableEntry } from '../../core/catalog/view';
import { defineTool, tokenEstimate } from '../tool';
import { columnVisibility, displayColumns, lastSegment, resolutionFailure, sourceArg, tableNameArg } from './common';

const input = z.strictObject({
  tables: z.array(tableNameArg).min(2).max(12).describe("Two or more tables as 'schema.table' to connect."),
  source: sourceArg,
  max_hops: z.number().int().min(1).max(10).default(6).describe('Longest foreign-key path considered between two tables (1–10, default 6).'),
});

export const suggestJoins = defineTool({
  name: 'suggest_joins',
  title: 'Suggest joins between tables',
  description:
    'Use this when you must join two or more known tables: returns the smallest set of foreign-key joins that connects them all (bridge tables included), each edge with its ON clause and confidence, plus the FROM…JOIN SQL. Use resolve_join instead for curated semantic-layer joins between entities. Compositions: find_relevant_tables → suggest_joins → run_query; suggest_joins → describe_table on any bridge table.',
  input,
  latency: 'fast',
  idempotent: true,
  sideEffects: 'read',
  handler(args, ctx) {
    const entries: TableEntry[] = [];
    for (const name of args.tables) {
      const res = ctx.catalog.resolveTable(name, args.source);
      if (!res.ok) return resolutionFailure(res, 'suggest_joins', 'tables', lastSegment(name), args.source);
      entries.push(res.value);
    }
    const sources = [...new Set(entries.map((e) => e.source.name))];
    if (sources.length > 1) {
      return failure('malformed_name', `The tables come from different sources (${sources.join(', ')}); joins exist only within one source.`, {
        recovery: { suggested_tool: 'suggest_joins', suggested_args: { tables: args.tables, source: sources[0] }, fuzzy_matches: sources },
      });
    }
    const graph = new JoinGraph(ctx.catalog, sources[0]!);
    const { edges, unreachable } = graph.connect(entries, args.max_hops);
    const terminals = new Set(entries.map((e) => e.key));
    const bridges = [...new Set(edges.flatMap((e) => [e.from, e.to]).filter((t) => !terminals.has(t.key)).map((t) => t.qualifiedName))];
    const joinEdges = edges.map((e) => {
      const owner = e.fkOwner;
      const target = owner.key === e.from.key ? e.to : e.from;
      const ov = columnVisibility(ctx, owner);
      const tv = columnVisibility(ctx, target);
      const oc = displayColumns(ov, e.fk.columns);
      const tc = displayColumns(tv, e.fk.targetColumns);
      const on = oc.map((c, i) => `${owner.qualifiedName}.${formatName(c)} = ${target.qualifiedName}.${formatName(tc[i]!)}`).join(' AND ');
      return {
        from: e.from.qualifiedName,
        to: e.to.qualifiedName,
        on,
        fk: `${owner.qualifiedName}.${e.fk.name}`,
        confidence: 'HIGH',
      };
    });
    const data: Record<string, unknown> = {
      source: sources[0],
      tables: entries.map((e) => e.qualifiedName),
      hops: joinEdges.length,
      edges: joinEdges,
      bridge_tables: bridges,
      unreachable: unreachable.map((u) => u.qualifiedName),
    };
    if (joinEdges.length) data.sql = `FROM ${joinEdges[0]!.from}\n${joinEdges.map((j) => `JOIN ${j.to} ON ${j.on}`).join('\n')}`;
    data.token_estimate = tokenEstimate(data);
    const provenance = schemaProvenance('fk_constraint', 'applied');
    if (unreachable.length) {
      // Some data, with a caveat: not every table could be connected by declared foreign keys.
      return partial(data, { confidence: joinEdges.length ? 'MEDIUM' : 'LOW', provenance, hints: ['describe_table', 'find_relevant_tables'] });
    }
    return success(data, { confidence: 'HIGH', provenance, hints: bridges.length ? ['describe_table', 'run_query'] : ['run_query', 'describe_table'] });
  },
  summarize(env) {
    const d = env.data as { edges?: unknown[]; unreachable?: unknown[] } | null;
    return { edges: d?.edges?.length ?? 0, unreachable: d?.unreachable?.length ?? 0 };
  },
});
