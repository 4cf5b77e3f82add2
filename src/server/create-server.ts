import crypto from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CompleteRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  SetLevelRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult, LoggingLevel, Tool } from '@modelcontextprotocol/sdk/types.js';
import { CatalogView } from '../core/catalog/view';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { failure } from '../core/envelope';
import { redactDeep, scrubEnvelope } from '../core/pii/secrets';
import type { Envelope } from '../core/envelope';
import type { ServerDeps } from './deps';
import { DerivedData } from './derived';
import { semanticModelsOf } from './semantic-model';
import { annotationsFor } from './tool';
import type { CallTrace, ToolDefinition } from './tool';
import { allTools } from './tools';
import { inputJsonSchema, MAX_ARGUMENT_DEPTH, MAX_ARGUMENT_VALUES, moreValuesThan, nestedDeeperThan, setToolCallHandler, validateArgs } from './validate';
import { Completer } from './completion/complete';
import { compactInputSchema, ENVELOPE_STATUSES_TEXT, listedEnvelopeSchema } from './listing';
import { passes } from './logging/client-log';
import { startProgress } from './progress';
import type { ProgressReporter } from './progress';
import { listPrompts, promptArgKind, Prompts } from './prompts/prompts';
import { CatalogResources, RESOURCE_NOT_FOUND } from './resources/catalog-resources';
import { parseResourceUri, RESOURCE_TEMPLATES } from './resources/uri';
import { catalogWatcher } from './resources/watch';

export const SERVER_NAME = 'schemabrain';

const INSTRUCTIONS = [
  'SchemaBrain is a catalog of indexed PostgreSQL and SQLite schemas. Start with list_indexed_schemas or',
  'find_relevant_tables, then describe_table / describe_column, suggest_joins for join paths, and list_metrics →',
  'get_metric for governed numbers; run_query runs one guarded read-only statement. Every response is a charter v1.2',
  `envelope: branch on 'status' (${ENVELOPE_STATUSES_TEXT}); on error follow error.recovery.suggested_tool with suggested_args.`,
  'Tables, views, entities and metrics are also resources (schemabrain://<source>/<schema>/<table>), and the prompts',
  'explore_database, answer_with_sql, explain_metric and review_table_quality start common tasks.',
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
    inputSchema: compactInputSchema(inputJsonSchema(def.input)) as Tool['inputSchema'],
    outputSchema: outputSchema as Tool['outputSchema'],
    annotations: annotationsFor(def),
    // idempotent travels as annotations.idempotentHint; latency has no MCP hint of its own.
    // side_effects is in the annotations already (readOnlyHint / openWorldHint).
    _meta: { latency_hint: def.latency },
  };
}

/** The answer to a call whose audit row could not be made durable: retryable, and without the call's data. */
function auditUnavailable(tool: string, kind: string): Envelope<unknown> {
  // A retry helps only where the cause can pass by itself; a damaged log or a path that cannot be written waits for
  // the operator, and the answer says so instead of asking for retries that cannot work.
  const [why, next] =
    kind === 'lock_timeout'
      ? ['another SchemaBrain server holds the audit log lock (it may be paused)', 'Retry in a few seconds.']
      : kind === 'lock_lost'
        ? ['another writer appended to the audit log during the call', 'Retry in a few seconds.']
        : kind === 'unwritable'
          ? ['the audit log cannot be written (disk full, read-only, not a regular file or a symbolic link)', 'Retrying will not help until the operator fixes the audit path; the server log says what to fix.']
          : kind === 'corrupt_tail'
            ? ['the last line of the audit log is not an audit row', "Retrying will not help: the operator must run 'schemabrain audit verify' and move the damaged log aside."]
            : ['the audit log could not record the call', 'Retry in a few seconds; the server log says what the operator must fix.'];
  return failure('audit_unavailable', `${tool} ran but its audit row could not be made durable: ${why}, so no data is returned. ${next}`, {
    recovery: { suggested_tool: kind === 'lock_timeout' || kind === 'lock_lost' ? tool : 'get_index_status', suggested_args: {} },
  });
}

const MAX_ERROR_MESSAGE = 4000;
/** Resource subscriptions one session may hold, and the longest URI one may name. */
export const MAX_SUBSCRIPTIONS = 1000;
const MAX_RESOURCE_URI = 2048;
const MAX_ECHOED_STRING = 4000;
const MAX_ECHOED_ITEMS = 50;

/** A value of the caller's echoed back in a recovery: long strings cut, long arrays and objects shortened. */
function echoBounded(v: unknown, depth = 0): unknown {
  if (typeof v === 'string') return v.length > MAX_ECHOED_STRING ? `${v.slice(0, MAX_ECHOED_STRING)}… (${v.length} characters)` : v;
  if (v === null || typeof v !== 'object') return v;
  if (depth > 4) return null;
  if (Array.isArray(v)) return v.slice(0, MAX_ECHOED_ITEMS).map((x) => echoBounded(x, depth + 1));
  return Object.fromEntries(Object.entries(v as Record<string, unknown>).slice(0, MAX_ECHOED_ITEMS).map(([k, x]) => [k.slice(0, MAX_ECHOED_STRING), echoBounded(x, depth + 1)]));
}

/**
 * An error answer never grows with what the caller sent: its message and the arguments its recovery echoes are
 * bounded (a 7 MB name made a 14 MB answer, since the text copy repeats the envelope).
 */
function boundedError(env: Envelope<unknown>): Envelope<unknown> {
  const e = env.error;
  if (!e) return env;
  const message = e.message.length > MAX_ERROR_MESSAGE ? `${e.message.slice(0, MAX_ERROR_MESSAGE)}…` : e.message;
  const recovery = e.recovery ? { ...e.recovery, suggested_args: echoBounded(e.recovery.suggested_args) as typeof e.recovery.suggested_args, ...(e.recovery.fuzzy_matches ? { fuzzy_matches: echoBounded(e.recovery.fuzzy_matches) as typeof e.recovery.fuzzy_matches } : {}) } : e.recovery;
  return { ...env, error: { ...e, message, recovery } };
}

/**
 * Requests whose params do not fit their method's schema (`resources/read {"uri": 5}`, `initialize {}`) are answered
 * with JSON-RPC -32602 Invalid params and one line naming the first problem. The SDK parses params before a handler
 * runs and answers any failure as -32603 Internal error with the whole validation dump; every handler registered so
 * far (the SDK's own included) is wrapped to say what is wrong instead.
 */
function invalidParamsAsSuch(server: Server): void {
  const handlers = (server as unknown as { _requestHandlers?: Map<string, (req: unknown, extra: unknown) => Promise<unknown>> })._requestHandlers;
  if (!(handlers instanceof Map)) return;
  for (const [method, fn] of handlers) {
    handlers.set(method, async (req, extra) => {
      try {
        return await fn(req, extra);
      } catch (e) {
        // zod 3 names it ZodError, zod 4 $ZodError; both carry `issues`.
        if (!(e instanceof McpError) && /^\$?ZodError$/.test(String((e as Error)?.name)) && Array.isArray((e as { issues?: unknown }).issues)) {
          const issue = (e as { issues: Array<{ path?: unknown[]; message?: string }> }).issues[0];
          const where = issue?.path?.length ? issue.path.map(String).join('.') : 'params';
          throw new McpError(ErrorCode.InvalidParams, `invalid params for ${method}: ${where}: ${(issue?.message ?? 'does not fit the method').slice(0, 200)}`);
        }
        throw e;
      }
    });
  }
}

/** A source that cannot be reached is worth a line in the client's server log (names only, no message text). */
function warnUnreachable(deps: ServerDeps, tool: string, args: unknown): void {
  const source = (args as { source?: unknown } | null)?.source;
  deps.logger.warn(`${typeof source === 'string' ? `source ${source.slice(0, 100)}` : 'a source'} is unreachable (${tool}); check that the database is up, then call get_index_status`);
}

export interface SchemaBrainServer {
  readonly server: Server;
  readonly tools: readonly ToolDefinition[];
  /** Runs one tool call exactly as the protocol handler does (used by tests and the CLI demo). */
  callTool(name: string, args: unknown, signal?: AbortSignal, progress?: ProgressReporter | null): Promise<Envelope<unknown>>;
  /** The catalog as MCP resources (list, read), shared with prompts and completion. */
  readonly resources: CatalogResources;
  /**
   * Loads the catalog and, after the requests already received, opens its persisted search index, so that the first
   * question does not pay for either; resolves whether the index is ready (false without a catalog or a usable index).
   */
  warm(): Promise<boolean>;
}

/** Client log threshold until the client sends logging/setLevel: warnings and errors only. */
const DEFAULT_LOG_LEVEL: LoggingLevel = 'warning';
const REPLAY_DELAY_MS = 300;
/** How long after the catalog is loaded the server waits for a first call before it readies the search itself. */
const WARM_PROBE_DELAY_MS = 500;
/**
 * Clients may answer reads of one resource from a short-lived cache: VS Code 1.139 keeps each mcp-resource read for
 * 3 s and does not drop it when `resources/updated` arrives, so an update within 3 s of a read re-reads the stale
 * copy and the open document never changes. An update for a resource this session read that recently is therefore
 * sent again once this window has passed (a repeated update costs the client one read that finds nothing new).
 */
export const CLIENT_READ_CACHE_MS = 3500;

export function createServer(deps: ServerDeps, tools: readonly ToolDefinition[] = allTools): SchemaBrainServer {
  const server = new Server(
    { name: SERVER_NAME, title: 'SchemaBrain', version: deps.version },
    {
      // The tool and prompt sets are fixed for the life of the process; the resource list follows the catalog.
      capabilities: { tools: { listChanged: false }, resources: { subscribe: true, listChanged: true }, prompts: { listChanged: false }, completions: {}, logging: {} },
      instructions: INSTRUCTIONS,
    },
  );
  const byName = new Map(tools.map((t) => [t.name, t]));
  const outputSchema = listedEnvelopeSchema();
  const listing = tools.map((t) => listEntry(t, outputSchema));
  const derived = new DerivedData(deps.pii);
  const resources = new CatalogResources(deps, derived);
  const prompts = new Prompts(resources, derived);
  const completer = new Completer(deps, derived, resources, promptArgKind);

  async function dispatch(def: ToolDefinition, rawArgs: unknown, trace: CallTrace, signal: AbortSignal): Promise<{ env: Envelope<unknown>; generation: number | null }> {
    const v = validateArgs(def.name, def.input, rawArgs);
    if (!v.ok) return { env: v.envelope, generation: null };
    const state = await deps.catalog.get();
    let catalog: CatalogView;
    if (state.state === 'ready') catalog = state.view;
    else if (def.needsCatalog === false) catalog = new CatalogView(0, [], []);
    else {
      const how =
        state.state === 'missing'
          ? `No catalog at ${state.path} yet. Index a database first: run 'schemabrain index --source <postgres or mysql URL | sqlite file> --name <name>' or, in VS Code, 'SchemaBrain: Index Connection'.`
          : `The catalog at ${state.path} cannot be read: ${state.reason}. Build it again from the sources: run 'schemabrain index --source <each source> --name <its name> --rebuild' (the unreadable file is moved aside), or, in VS Code, 'SchemaBrain: Index Connection'.`;
      return {
        env: failure('index_not_ready', how, {
          recovery: { suggested_tool: 'get_index_status', suggested_args: {} },
        }),
        generation: null,
      };
    }
    if (catalog.isEmpty && def.needsCatalog !== false) {
      return {
        env: failure('index_not_ready', "The catalog holds no indexed source yet. Run 'schemabrain index --source <postgres or mysql URL | sqlite file> --name <name>' or 'SchemaBrain: Index Connection' in VS Code.", {
          recovery: { suggested_tool: 'get_index_status', suggested_args: {} },
        }),
        generation: catalog.generation,
      };
    }
    try {
      // last line of defence: no floor secret (card, SSN, key, token, private key) leaves any tool (core/pii/secrets.ts)
      const env = scrubEnvelope(await def.handler(v.args, { catalog, deps, derived, signal, trace }));
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

  async function callTool(name: string, args: unknown, signal: AbortSignal = new AbortController().signal, progress: ProgressReporter | null = null): Promise<Envelope<unknown>> {
    const leave = deps.gate?.enter();
    try {
      return await auditedCall(name, args, signal, progress);
    } finally {
      leave?.();
    }
  }

  async function auditedCall(name: string, rawArgs: unknown, signal: AbortSignal, progress: ProgressReporter | null): Promise<Envelope<unknown>> {
    const started = performance.now();
    const tooDeep = nestedDeeperThan(rawArgs, MAX_ARGUMENT_DEPTH);
    const tooMany = !tooDeep && moreValuesThan(rawArgs, MAX_ARGUMENT_VALUES);
    // What is validated, dispatched and recorded: over-deep or over-large input is replaced before anything walks it.
    const args: unknown = tooDeep
      ? { arguments: `nested deeper than ${MAX_ARGUMENT_DEPTH} levels (not recorded)` }
      : tooMany
        ? { arguments: `more than ${MAX_ARGUMENT_VALUES} values (not recorded)` }
        : rawArgs;
    const trace: CallTrace = { piiCategories: [], sql: null, rowCount: null, truncated: false };
    const def = byName.get(name);
    let env: Envelope<unknown>;
    let generation: number | null = null;
    if (!def) {
      const names = [...byName.keys()];
      env = failure('invalid_argument', `unknown tool '${name}'`, {
        recovery: { suggested_tool: 'list_indexed_schemas', suggested_args: {}, fuzzy_matches: names.filter((n) => n.includes(name) || name.includes(n)).slice(0, 3) },
      });
    } else if (tooDeep) {
      env = failure('invalid_argument', `arguments of '${name}' are nested deeper than ${MAX_ARGUMENT_DEPTH} levels`, {
        recovery: { suggested_tool: name, suggested_args: {} },
      });
    } else if (tooMany) {
      env = failure('invalid_argument', `arguments of '${name}' hold more than ${MAX_ARGUMENT_VALUES} values; a tool takes a few names and short lists`, {
        recovery: { suggested_tool: name, suggested_args: {} },
      });
    } else {
      const denied = deps.access?.check(name, args) ?? null;
      if (denied) env = denied;
      else ({ env, generation } = await dispatch(def, args, trace, signal));
    }
    if (deps.recorder) {
      const client = server.getClientVersion();
      const outcome = await deps.recorder.record({
        sessionId: deps.sessionId,
        client: { name: client?.name ?? null, version: client?.version ?? null },
        tool: name,
        args,
        status: signal.aborted ? 'error' : env.status,
        // A call the client cancelled (notifications/cancelled) is recorded as such, whatever the tool returned.
        errorKind: signal.aborted ? 'cancelled' : (env.error?.kind ?? null),
        piiCategories: [...new Set([...trace.piiCategories, ...(env.error?.pii_categories ?? [])])],
        sql: trace.sql,
        rowCount: trace.rowCount,
        truncated: trace.truncated,
        durationMs: performance.now() - started,
        generation,
        // With a progress token, how many progress notifications the client got before the answer (or its cancel).
        resultSummary: { ...(def?.summarize?.(env) ?? {}), ...(progress ? { progress_notifications: progress.sent() } : {}) },
      });
      // Nothing is answered without its durable audit row (unless the operator chose --audit-fail-open).
      if (outcome.auditFailure) return auditUnavailable(name, outcome.auditFailure.kind);
    }
    if (!signal.aborted && env.status === 'error' && /could not be reached|is missing; restore it/i.test(env.error?.message ?? '')) warnUnreachable(deps, name, args);
    return boundedError(env);
  }

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listing }));
  // arguments that are null, a string or an array get an invalid_argument envelope, not a protocol error
  setToolCallHandler(server, async (req, extra) => {
    const token = req.params._meta?.progressToken;
    const def = byName.get(req.params.name);
    // Slow tools report progress while the database works; fast ones answer before a client could show it.
    const progress = token !== undefined && def && def.latency !== 'fast' ? startProgress(token, def.name, (n) => extra.sendNotification(n)) : null;
    const env = await callTool(req.params.name, req.params.arguments, extra.signal, progress);
    await progress?.finish(extra.signal.aborted ? 'cancelled' : env.status);
    return toResult(env);
  });

  // Resources, prompts and completions carry catalog text (comments, defaults, metric definitions) as tool answers
  // do: every reply passes the same last scan for floor secrets.
  const scrubbed = async <T>(reply: T | Promise<T>): Promise<T> => redactDeep(await reply).value;
  server.setRequestHandler(ListResourcesRequestSchema, (req) => scrubbed(resources.list(req.params?.cursor)));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: RESOURCE_TEMPLATES.map((t) => ({ ...t })) }));
  // What each resource read as in this session: a subscribe that arrives after a re-index the watcher already saw
  // (the client read, then subscribed late) still hears that its copy is out of date.
  const readAs = new Map<string, string>();
  const readAt = new Map<string, number>();
  const fingerprint = (r: { contents: Array<{ text: string }> }): string => crypto.createHash('sha256').update(r.contents.map((c) => c.text).join('\0')).digest('base64');
  server.setRequestHandler(ReadResourceRequestSchema, async (req) => {
    const reply = await scrubbed(resources.read(req.params.uri));
    readAs.set(req.params.uri, fingerprint(reply));
    readAt.set(req.params.uri, Date.now());
    return reply;
  });
  const subscriptions = new Set<string>();
  const repeats = new Map<string, NodeJS.Timeout>();
  const sendUpdated = (uri: string): void => {
    if (!subscriptions.has(uri)) return;
    void server.sendResourceUpdated({ uri }).catch(() => undefined);
    const window = deps.clientReadCacheMs ?? CLIENT_READ_CACHE_MS;
    const age = Date.now() - (readAt.get(uri) ?? -Infinity);
    if (age >= window || repeats.has(uri)) return;
    const t = setTimeout(() => {
      repeats.delete(uri);
      if (subscriptions.has(uri)) void server.sendResourceUpdated({ uri }).catch(() => undefined);
    }, window - age);
    t.unref();
    repeats.set(uri, t);
  };
  server.setRequestHandler(SubscribeRequestSchema, (req) => {
    const uri = req.params.uri;
    if (uri.length > MAX_RESOURCE_URI) throw new McpError(ErrorCode.InvalidParams, `a resource URI is at most ${MAX_RESOURCE_URI} characters`);
    if (!parseResourceUri(uri)) throw new McpError(RESOURCE_NOT_FOUND, `Resource not found: ${uri.slice(0, 300)} (only schemabrain:// catalog URIs can be subscribed to)`, { uri: uri.slice(0, 300) });
    // What a session holds is bounded: each subscription is kept for the session's life.
    if (!subscriptions.has(uri) && subscriptions.size >= MAX_SUBSCRIPTIONS) {
      throw new McpError(ErrorCode.InvalidParams, `a session holds at most ${MAX_SUBSCRIPTIONS} resource subscriptions; unsubscribe from some first`);
    }
    subscriptions.add(uri);
    const seen = readAs.get(uri);
    if (seen !== undefined) {
      // After the reply: the client learns of the subscription first, then that its copy is out of date.
      setImmediate(() => void scrubbed(resources.read(uri)).then(
        (now) => {
          if (fingerprint(now) !== seen) sendUpdated(uri);
        },
        () => sendUpdated(uri), // gone since the read
      ));
    }
    return {};
  });
  server.setRequestHandler(UnsubscribeRequestSchema, (req) => {
    subscriptions.delete(req.params.uri);
    return {};
  });

  server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: listPrompts() }));
  server.setRequestHandler(GetPromptRequestSchema, (req) => scrubbed(prompts.get(req.params.name, req.params.arguments)));
  server.setRequestHandler(CompleteRequestSchema, (req) => scrubbed(completer.complete(req.params)));

  let logLevel: LoggingLevel = DEFAULT_LOG_LEVEL;
  server.setRequestHandler(SetLevelRequestSchema, (req) => {
    logLevel = req.params.level;
    return {};
  });
  const sendLog = (level: LoggingLevel, message: string): void => {
    if (passes(level, logLevel)) void server.sendLoggingMessage({ level, logger: SERVER_NAME, data: message }).catch(() => undefined);
  };

  // After the handshake: catalog changes become list_changed / updated notifications, server warnings log messages.
  const unsubscribe: Array<() => void> = [];
  const logVisible = deps.clientLogVisible?.() ?? true;
  server.oninitialized = () => {
    unsubscribe.push(
      catalogWatcher(deps).subscribe((change) => {
        if (change.listChanged) void server.sendResourceListChanged().catch(() => undefined);
        for (const uri of change.changed) sendUpdated(uri);
      }),
    );
    if (deps.clientLog && logVisible) {
      const bus = deps.clientLog;
      // Over HTTP the client opens its notification stream (GET) just after `initialized`; replaying start-up
      // warnings at once would send them into no stream.
      const replay = setTimeout(() => {
        for (const e of bus.recent()) sendLog(e.level, e.message);
        unsubscribe.push(bus.subscribe((e) => sendLog(e.level, e.message)));
      }, REPLAY_DELAY_MS);
      replay.unref();
      unsubscribe.push(() => clearTimeout(replay));
    }
  };
  server.onclose = () => {
    for (const t of repeats.values()) clearTimeout(t);
    repeats.clear();
    for (const u of unsubscribe.splice(0)) u();
  };

  async function warm(): Promise<boolean> {
    const state = await deps.catalog.get();
    if (state.state !== 'ready') return false;
    // After what is already queued (tools/list sent with the handshake): opening the index is the work of no request.
    await new Promise((resolve) => setImmediate(resolve));
    const ready = derived.warm(state.view);
    if (ready) deps.logger.debug('search index opened from the catalog file');
    // Once a first call has had time to arrive and none is running: a client that lists the tools and asks later
    // finds the index ready and the ranking code compiled. A call that comes first does that itself, and the
    // question is not put.
    setTimeout(() => void probeIdle(state.view), WARM_PROBE_DELAY_MS).unref();
    return ready;
  }

  async function probeIdle(view: CatalogView): Promise<void> {
    if ((deps.gate?.inFlight ?? 0) > 0) return;
    try {
      const now = await deps.catalog.get();
      if (now.state !== 'ready' || now.view !== view) return;
      // The index a first find_relevant_tables would use: with the workspace's entities and metrics when it defines any.
      const semantic = deps.workspaceDir ? (await semanticModelsOf(deps).get(view)).model : undefined;
      if ((deps.gate?.inFlight ?? 0) === 0 && derived.probe(view, semantic)) deps.logger.debug('search warm-up: one question put while idle');
    } catch (e) {
      deps.logger.warn(`search warm-up: ${(e as Error).message}`);
    }
  }

  invalidParamsAsSuch(server);
  return { server, tools, callTool, resources, warm };
}
