import crypto from 'node:crypto';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { withFlowControl, type FlowOutput } from './stdio-flow';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { AuditError } from '../core/audit/log';
import { CatalogProvider } from '../core/catalog/provider';
import { loadPolicy, PolicyError } from '../core/pii';
import { fetchSecretsFromChannel, scrubSecretChannelEnv } from '../core/secrets';
import { loadSqlGuard } from '../core/sql';
import type { SqlGuard } from '../core/sql';
import { defaultCatalogPath } from '../core/util/home';
import { createStderrLogger } from '../core/util/logger';
import { SourceConnections } from './connections';
import { installLastResortHandlers } from './last-resort';
import { parseAllowanceList } from '../core/sql/function-policy';
import { createServer } from './create-server';
import { DEFAULT_LIMITS } from './deps';
import type { ServerDeps } from './deps';
import { StdioInput } from './stdio-input';
import { ClientLogBus, teeLogger } from './logging/client-log';
import { parseServerOptions, ServerOptionsError } from './options';
import type { ServerOptions } from './options';
import { createPiiGate } from './pii-gate';
import { createCallGate } from './inflight';
import { createRecorder } from './recorder';
import { SemanticModels } from './semantic-model';
import { VERSION } from './version';
import { terminalSafeLines } from '../core/util/terminal-text';

/** How long shutdown waits for calls in flight (a query is bounded by the statement timeout, 15 s by default). */
const SHUTDOWN_DRAIN_MS = 20_000;

/** Everything one server process shares between calls (and, over HTTP, between sessions). */
export async function buildServerDeps(options: ServerOptions, env: NodeJS.ProcessEnv = process.env): Promise<ServerDeps> {
  // Warnings and errors also reach MCP clients (notifications/message), scrubbed; stderr keeps the full text.
  const clientLog = new ClientLogBus();
  const logger = teeLogger(createStderrLogger('schemabrain-server'), clientLog);
  let secrets = new Map<string, string>();
  try {
    secrets = await fetchSecretsFromChannel(env);
  } catch (e) {
    logger.warn(`${(e as Error).message}; sources that need a password will answer missing_credential`);
  }
  scrubSecretChannelEnv(env);
  const sessionId = crypto.randomUUID();
  let guard: Promise<SqlGuard> | undefined;
  return {
    catalog: new CatalogProvider(options.catalogPath ?? defaultCatalogPath(env), (view) =>
      logger.debug(`catalog generation ${view.generation} loaded (${view.entries.length} relations)`),
    ),
    logger,
    clientLog,
    pii: createPiiGate(loadPolicy({ file: options.piiPolicyPath, extraBlock: options.piiBlock, env })),
    recorder: createRecorder(options, sessionId, logger, env),
    sessionId,
    limits: { ...DEFAULT_LIMITS, ...options.limits },
    secrets,
    workspaceDir: options.workspaceDir,
    semantic: new SemanticModels(options.workspaceDir, logger),
    version: VERSION,
    sqlGuard: () => (guard ??= loadSqlGuard()),
    connections: new SourceConnections(secrets, env, { allow: { functions: parseAllowanceList(env.SCHEMABRAIN_ALLOW_FUNCTIONS), views: parseAllowanceList(env.SCHEMABRAIN_ALLOW_VIEWS) } }),
    allowedSchemas: options.allowSchemas,
    gate: createCallGate(),
  };
}

/**
 * Runs the MCP server until the client goes away: on stdio (stdout carries the protocol; logs go to stderr), or with
 * `--http PORT` as Streamable HTTP on loopback. Resolves with an exit code only when start-up fails.
 */
export async function runStdioServer(argv: readonly string[]): Promise<number> {
  let options: ServerOptions;
  try {
    options = parseServerOptions(argv, process.env);
  } catch (e) {
    if (e instanceof ServerOptionsError) {
      process.stderr.write(`schemabrain serve: ${terminalSafeLines(e.message)}\n`);
      return 2;
    }
    throw e;
  }
  // The HTTP and team servers are loaded on demand: their modules (and the web globals of Node they touch when they
  // load) are not a stdio server's start-up cost.
  if (options.store) {
    const { runTeamServer } = require('./team/run-team') as typeof import('./team/run-team');
    return runTeamServer({ ...options, store: options.store });
  }
  let deps: ServerDeps;
  try {
    deps = await buildServerDeps(options);
  } catch (e) {
    if (e instanceof PolicyError || e instanceof AuditError) {
      process.stderr.write(`schemabrain serve: ${terminalSafeLines(e.message)}\n`);
      return 2;
    }
    throw e;
  }
  installLastResortHandlers(deps.logger);
  deps.recorder?.serverEvent('server_start', { catalog: deps.catalog.path });
  // Until a transport is up there is nothing to stop accepting or to close.
  let closeTransport: () => Promise<void> = () => Promise.resolve();
  let stopAccepting: () => void = () => undefined;
  let stopping = false;
  /**
   * Drains before closing, in this order: stop accepting requests, wait (bounded) for the calls in flight to be
   * answered with their audit rows, then close the transport, the audit log and the pools. A call still running
   * at the bound finds the log closed and is answered audit_unavailable (never with data and no row).
   */
  async function stop(reason: string): Promise<void> {
    if (stopping) return;
    stopping = true;
    stopAccepting();
    const left = await deps.gate!.drain(SHUTDOWN_DRAIN_MS);
    if (left) deps.logger.warn(`shutdown: ${left} tool call(s) still running after ${SHUTDOWN_DRAIN_MS} ms; closing anyway`);
    await new Promise((r) => setImmediate(r)); // the last answers leave through the transport before it closes
    deps.recorder?.serverEvent('server_stop', { reason, unfinished_calls: left });
    await Promise.race([closeTransport().catch(() => undefined), new Promise((r) => setTimeout(r, 2000))]);
    await deps.recorder?.close();
    await deps.connections.close();
    process.exit(0);
  }
  // Installed before the server is announced or reads a request: a signal sent as soon as the "listening" line
  // appears (or the handshake is answered) drains and records the stop instead of killing the process mid-start.
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  // A closed terminal or a hung-up session: drain as for SIGTERM instead of dying with calls unanswered and unaudited.
  process.on('SIGHUP', () => void stop('SIGHUP'));
  if (options.httpPort !== null) {
    void deps.catalog.get(); // warm before the first request
    const { startHttpServer } = require('./http') as typeof import('./http');
    const http = await startHttpServer(deps, { port: options.httpPort, host: options.httpHost });
    // close() stops the listener at once and resolves when the open connections have ended.
    let closing: Promise<void> | undefined;
    stopAccepting = () => void (closing ??= http.close());
    closeTransport = () => (closing ??= http.close());
    // A signal that came while it started: the drain under way closes the listener, which is never announced.
    if (stopping) stopAccepting();
    else deps.logger.info(`listening on ${http.url}`);
  } else {
    const { server, warm } = createServer(deps);
    // Load the catalog and open its search index once the handshake is done: tools/list never waits for them, the
    // first tool call rarely does.
    const afterHandshake = server.oninitialized;
    server.oninitialized = () => {
      afterHandshake?.();
      warm().catch((e: unknown) => deps.logger.warn(`catalog warm-up: ${(e as Error).message}`));
    };
    // Requests pass a check of their own first: a line the SDK would drop unanswered, or one too long for its reader,
    // is answered with a JSON-RPC error here, and the server goes on reading.
    const input = new StdioInput((reply, note) => {
      deps.logger.warn(`stdin: refused ${note}`);
      transport.send(reply as unknown as JSONRPCMessage).catch(() => undefined);
    });
    // Writes go through the flow control below (the transport is given its output before connect, the control after).
    let output: FlowOutput = process.stdout;
    const transport = new StdioServerTransport(process.stdin.pipe(input), { write: (chunk: string) => output.write(chunk), once: (event: 'drain', l: () => void) => output.once(event, l) } as unknown as NodeJS.WriteStream);
    await server.connect(transport);
    output = withFlowControl(transport, input, process.stdout, { stopped: () => stopping });
    closeTransport = () => server.close();
    // No further requests are read (a pipe would resume its source on the next drain); responses still go out.
    stopAccepting = () => {
      process.stdin.unpipe(input);
      process.stdin.pause();
      input.pause();
    };
    if (stopping) stopAccepting(); // a signal came while it connected
    process.stdin.on('close', () => void stop('stdin closed'));
    // A client that closes the server's output (EPIPE) can hear no answer: stop as on a closed input, instead of an
    // uncaught stream error and a server that reads requests it cannot answer.
    process.stdout.on('error', (e: NodeJS.ErrnoException) => void stop(`stdout ${e.code ?? 'error'}`));
  }
  return -1;
}
