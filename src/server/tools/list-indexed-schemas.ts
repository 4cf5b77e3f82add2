import { z } from 'zod';
import { schemaProvenance, success } from '../../core/envelope';
import { defineTool, tokenEstimate } from '../tool';
import { scopeSource, sourceArg } from './common';

const input = z.strictObject({
  source: sourceArg,
});

export const listIndexedSchemas = defineTool({
  name: 'list_indexed_schemas',
  title: 'List indexed sources and schemas',
  description:
    "Use this when you start and need to know what is indexed: every source (name, engine, database, freshness) with its schemas, table counts and comments. Use find_relevant_tables instead to locate tables for a question. Compositions: list_indexed_schemas → find_relevant_tables(query='*') to browse; list_indexed_schemas → get_index_status to check freshness.",
  input,
  latency: 'fast',
  idempotent: true,
  sideEffects: 'read',
  handler(args, ctx) {
    const scoped = scopeSource(ctx, 'list_indexed_schemas', args);
    if (!scoped.ok) return scoped.envelope;
    const sources = scoped.value !== undefined ? ctx.catalog.sources.filter((s) => s.name === scoped.value) : ctx.catalog.sources;
    const data = {
      generation: ctx.catalog.generation,
      sources: sources.map((s) => {
        const tables = ctx.catalog.tablesOf(s.name);
        const bySchema = new Map<string, { tables: number; views: number }>();
        for (const t of tables) {
          const c = bySchema.get(t.table.schema) ?? { tables: 0, views: 0 };
          if (t.table.kind === 'view' || t.table.kind === 'materialized_view') c.views++;
          else c.tables++;
          bySchema.set(t.table.schema, c);
        }
        return {
          name: s.name,
          engine: s.engine,
          database: s.database,
          server_version: s.serverVersion,
          indexed_at: s.indexedAt,
          table_count: s.tableCount,
          column_count: s.columnCount,
          schemas: [...bySchema.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([name, c]) => ({ name, tables: c.tables, views: c.views })),
        };
      }),
    };
    const withTokens = { ...data, token_estimate: tokenEstimate(data) };
    return success(withTokens, { confidence: 'HIGH', provenance: schemaProvenance(), hints: ['find_relevant_tables', 'get_index_status'] });
  },
  summarize(env) {
    return { sources: (env.data as { sources?: unknown[] } | null)?.sources?.length ?? 0 };
  },
});
