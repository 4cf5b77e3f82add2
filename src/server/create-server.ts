import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { CatalogView } from '../core/catalog/view';
import { compactEnvelopeJsonSchema, failure } from '../core/envelope';
import type { Envelope } from '../core/envelope';
import type { ServerDeps } from './deps';
import { DerivedData } from './derived';
import { annotationsFor } from './tool';
import type { CallTrace, ToolDefinition } from './tool';
import { allTools } from './tools';
import { inputJsonSchema, validateArgs } from './validate';

export const SERVER_NAME = 'schemabrain';

const INSTRUCTIONS = [
  'SchemaBrain is a catalog of indexed PostgreSQL and SQLite schemas. Start with list_indexed_schemas or',
  'find_relevant_tables, then describe_table / describe_column, suggest_joins for join paths, and list_metrics →',
  'get_metric for governed numbers; run_query runs one guarded read-only statement. Every response is a charter v1.2',
  "envelope: branch on 'status'; on error follow error.recovery.suggested_tool with suggested_args.",
].join(' ');

function toResult(envelope: Envelope<unknown>): CallToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(envelope) }],
    structuredContent: envelope as unknown as Record<string, unknown>,
    isError: envelope.status === 'error',
  };
}

function listEntry(def: ToolDefinition, outputSchema: Record<string, unknown>): Tool {
  return {
    name: def.name,
    title: def.title,
    description: def.description,
    inputSchema: inputJsonSchema(def.input) as Tool['inputSchema'],
    outputSchema: outputSchema as Tool['outputSchema'],
    annotations: annotationsFor(def),
    // idempotent travels as annotations.idempotentHint; latency has no MCP hint of its own.
    _meta: { latency_hint: def.latency, side_effects: def.sideEffects },
  };
}

export interface SchemaBrainServer {
  readonly server: Server;
  readonly tools: readonly ToolDefinition[];
  /** Runs one tool call exactly as the protocol handler does (used by tests and the CLI demo). */
  callTool(name: string, args: unknown, signal?: AbortSignal): Promise<Envelope<unknown>>;
}

export function createServer(deps: ServerDeps, tools: readonly ToolDefinition[] = allTools): SchemaBrainServer {
  const server = new Server(
    { name: SERVER_NAME, title: 'SchemaBrain', version: deps.version },
    { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS },
  );
  const byName = new Map(tools.map((t) => [t.name, t]));
  const outputSchema = compactEnvelopeJsonSchema();
  const listing = tools.map((t) => listEntry(t, outputSchema));
  const derived = new DerivedData(deps.pii);

  async function dispatch(def: ToolDefinition, rawArgs: unknown, trace: CallTrace, signal: AbortSignal): Promise<{ env: Envelope<unknown>; generation: number | null }> {
    const v = validateArgs(def.name, def.input, rawArgs);
    if (!v.ok) return { env: v.envelope, generation: null };
    const state = await deps.catalog.get();
    let catalog: CatalogView;
    if (state.state === 'ready') catalog = state.view;
    else if (def.needsCatalog === false) catalog = new CatalogView(0, [], []);
    else {
      const why = state.state === 'missing' ? `No catalog at ${state.path} yet.` : `The catalog at ${state.path} cannot be read: ${state.reason}.`;
      return {
        env: failure('index_not_ready', `${why} Index a database first: run 'schemabrain index --source <postgres URL | sqlite file> --name <name>' or, in VS Code, 'SchemaBrain: Index Connection'.`, {
          recovery: { suggested_tool: 'get_index_status', suggested_args: {} },
        }),
        generation: null,
      };
    }
    if (catalog.isEmpty && def.needsCatalog !== false) {
      return {
        env: failure('index_not_ready', "The catalog holds no indexed source yet. Run 'schemabrain index --source <postgres URL | sqlite file> --name <name>' or 'SchemaBrain: Index Connection' in VS Code.", {
          recovery: { suggested_tool: 'get_index_status', suggested_args: {} },
        }),
        generation: catalog.generation,
      };
    }
    try {
      const env = await def.handler(v.args, { catalog, deps, derived, signal, trace });
      return { env, generation: catalog.generation };
    } catch (e) {
      deps.logger.error(`tool ${def.name} failed: ${(e as Error).stack ?? String(e)}`);
      return {
        env: failure('internal_error', `${def.name} failed unexpectedly; this is a bug in SchemaBrain and retrying will not help. The details are in the server log.`, {
          recovery: { suggested_tool: 'get_index_status', suggested_args: {} },
        }),
        generation: catalog.generation,
      };
    }
  }

  async function callTool(name: string, args: unknown, signal: AbortSignal = new AbortController().signal): Promise<Envelope<unknown>> {
    const started = performance.now();
    const trace: CallTrace = { piiCategories: [], sql: null, rowCount: null, truncated: false };
    const def = byName.get(name);
    let env: Envelope<unknown>;
    let generation: number | null = null;
    if (!def) {
      const names = [...byName.keys()];
      env = failure('invalid_argument', `unknown tool '${name}'`, {
        recovery: { suggested_tool: 'list_indexed_schemas', suggested_args: {}, fuzzy_matches: names.filter((n) => n.includes(name) || name.includes(n)).slice(0, 3) },
      });
    } else {
      ({ env, generation } = await dispatch(def, args, trace, signal));
    }
    if (deps.recorder) {
      const client = server.getClientVersion();
      await deps.recorder.record({
        sessionId: deps.sessionId,
        client: { name: client?.name ?? null, version: client?.version ?? null },
        tool: name,
        args,
        status: env.status,
        errorKind: env.error?.kind ?? null,
        piiCategories: [...new Set([...trace.piiCategories, ...(env.error?.pii_categories ?? [])])],
        sql: trace.sql,
        rowCount: trace.rowCount,
        truncated: trace.truncated,
        durationMs: performance.now() - started,
        generation,
        resultSummary: def?.summarize?.(env) ?? {},
      });
    }
    return env;
  }

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listing }));
  server.setRequestHandler(CallToolRequestSchema, async (req, extra) => toResult(await callTool(req.params.name, req.params.arguments, extra.signal)));

  return { server, tools, callTool };
}
