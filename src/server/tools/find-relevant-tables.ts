import { z } from 'zod';
import { confidenceFromScore, degraded, empty, success } from '../../core/envelope';
import { formatName } from '../../core/catalog/names';
import { MAX_QUERY_CHARS } from '../../core/search';
import { loadForTool } from '../semantic-model';
import { defineTool, tokenEstimate } from '../tool';
import { responseFormatArg, scopeSchema, scopeSource, sourceArg } from './common';

const input = z.strictObject({
  query: z
    .string()
    .min(1)
    .max(MAX_QUERY_CHARS)
    .regex(/\S/, "the query is blank: ask in words, or pass '*' to list every table")
    .describe("The question in the user's words; '*' lists every table."),
  limit: z.number().int().min(1).max(100).default(10).describe('Tables returned at most; a limit above ten keeps the default ten first.'),
  source: sourceArg,
  schema: z.string().min(1).max(200).optional().describe('Only tables of this schema.'),
  with_join_tree: z.boolean().default(false).describe('Also return the FK joins connecting the hits.'),
  response_format: responseFormatArg,
});

export const findRelevantTables = defineTool({
  name: 'find_relevant_tables',
  title: 'Find tables for a question',
  description:
    "Use this when the user describes data by meaning ('customers who churned', 'songs per album') and you don't know the tables: ranked tables with why each matched (names, synonyms, comments, values, joins). Use describe_table instead when the table is already named. Compositions: find_relevant_tables → describe_table on the top hits; find_relevant_tables(with_join_tree=true) → run_query.",
  input,
  latency: 'fast',
  idempotent: true,
  sideEffects: 'read',
  async handler(args, ctx) {
    // Filters that name nothing are refused before the definitions are read or the index is opened.
    const source = scopeSource(ctx, 'find_relevant_tables', args);
    if (!source.ok) return source.envelope;
    const schema = scopeSchema(ctx, 'find_relevant_tables', args, source.value);
    if (!schema.ok) return schema.envelope;
    // Entities and metrics defined in the workspace lend their names and descriptions to the tables they bind.
    // A definitions folder that cannot be read lends nothing: the tables are still found from the raw schema (the
    // semantic tools report the folder).
    const loaded = ctx.deps.workspaceDir ? await loadForTool(ctx) : undefined;
    const semantic = loaded && !('status' in loaded) ? loaded.model : undefined;
    const index = ctx.derived.searchIndex(ctx.catalog, semantic);
    const result = index.search(args.query, { limit: args.limit, source: source.value, schema: schema.value, withJoinTree: args.with_join_tree });
    const detailed = args.response_format === 'detailed';
    const multiSource = ctx.catalog.sources.length > 1;
    const tables = result.hits.map((h) => {
      const entry = ctx.catalog.resolveTable(h.qualifiedName, h.sourceName);
      const t = entry.ok ? entry.value.table : null;
      const hit: Record<string, unknown> = {
        table: h.qualifiedName,
        ...(multiSource ? { source: h.sourceName } : {}),
        score: Math.round(h.score * 100) / 100,
        why: detailed ? h.why : h.why.slice(0, 2),
      };
      if (h.matchedColumns.length) hit.columns = detailed ? h.matchedColumns : h.matchedColumns.slice(0, 3);
      if (detailed && t) {
        if (t.comment) hit.comment = t.comment;
        hit.kind = t.kind;
        hit.row_estimate = t.rowEstimate;
        hit.column_count = t.columns.length;
      }
      return hit;
    });
    const data: Record<string, unknown> = {
      query: args.query,
      tables,
      total_matches: result.totalMatches,
      ...(result.totalMatches > tables.length ? { truncated: true } : {}),
    };
    if (result.joinTree) {
      data.join_tree = result.joinTree.map((e) => ({
        ...(multiSource ? { source: e.sourceName } : {}),
        from: e.from,
        to: e.to,
        on: e.fromColumns.map((c, i) => `${e.from}.${formatName(c)} = ${e.to}.${formatName(e.toColumns[i] ?? '')}`).join(' AND '),
      }));
    }
    if (result.fallback) {
      // Nothing matched well: the best candidates plus a map of the catalog's areas, so the agent can browse on.
      data.match = result.fallback.reason;
      data.areas = result.fallback.areas.map((a) => ({
        area: a.name,
        ...(multiSource ? { source: a.sourceName } : {}),
        tables: a.tables,
        summary: a.summary,
        ...(detailed ? { examples: a.examples } : { examples: a.examples.slice(0, 3) }),
      }));
    }
    data.token_estimate = tokenEstimate(data);
    if (result.fallback && tables.length > 0) {
      return degraded(data, 'no_confident_match', {
        confidence: 'LOW',
        provenance: { source: 'schema' },
        hints: ['describe_table', 'list_indexed_schemas', 'find_relevant_tables'],
      });
    }
    if (tables.length === 0) {
      return empty(data, { confidence: null, provenance: { source: 'schema' }, hints: ['list_indexed_schemas'] });
    }
    return success(data, {
      confidence: confidenceFromScore(result.hits[0]!.score),
      provenance: { source: 'schema' },
      hints: args.with_join_tree ? ['describe_table', 'run_query'] : ['describe_table', 'suggest_joins'],
    });
  },
  summarize(env) {
    const d = env.data as { tables?: unknown[] } | null;
    return { matches: d?.tables?.length ?? 0 };
  },
});
