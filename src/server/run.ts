import crypto from 'node:crypto';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CatalogProvider } from '../core/catalog/provider';
import { loadPolicy, PolicyError } from '../core/pii';
import { fetchSecretsFromChannel, scrubSecretChannelEnv } from '../core/secrets';
import { loadSqlGuard } from '../core/sql';
import type { SqlGuard } from '../core/sql';
import { defaultCatalogPath } from '../core/util/home';
import { createStderrLogger } from '../core/util/logger';
import { SourceConnections } from './connections';
import { createServer } from './create-server';
import { DEFAULT_LIMITS } from './deps';
import type { ServerDeps } from './deps';
import { startHttpServer } from './http';
import { parseServerOptions, ServerOptionsError } from './options';
import type { ServerOptions } from './options';
import { createPiiGate } from './pii-gate';
import { createRecorder } from './recorder';
import { SemanticModels } from './semantic-model';
import { VERSION } from './version';

/** Everything one server process shares between calls (and, over HTTP, between sessions). */
export async function buildServerDeps(options: ServerOptions, env: NodeJS.ProcessEnv = process.env): Promise<ServerDeps> {
  const logger = createStderrLogger('schemabrain-server');
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
    pii: createPiiGate(loadPolicy({ file: options.piiPolicyPath, extraBlock: options.piiBlock, env })),
    recorder: createRecorder(options, sessionId, logger, env),
    sessionId,
    limits: { ...DEFAULT_LIMITS, ...options.limits },
    secrets,
    workspaceDir: options.workspaceDir,
    semantic: new SemanticModels(options.workspaceDir, logger),
    version: VERSION,
    sqlGuard: () => (guard ??= loadSqlGuard()),
    connections: new SourceConnections(secrets, env),
    allowedSchemas: options.allowSchemas,
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
      process.stderr.write(`schemabrain serve: ${e.message}\n`);
      return 2;
    }
    throw e;
  }
  let deps: ServerDeps;
  try {
    deps = await buildServerDeps(options);
  } catch (e) {
    if (e instanceof PolicyError) {
      process.stderr.write(`schemabrain serve: ${e.message}\n`);
      return 2;
    }
    throw e;
  }
  deps.recorder?.serverEvent('server_start', { catalog: deps.catalog.path });
  let closeTransport: () => Promise<void>;
  if (options.httpPort !== null) {
    void deps.catalog.get(); // warm before the first request
    const http = await startHttpServer(deps, { port: options.httpPort });
    deps.logger.info(`listening on ${http.url}`);
    closeTransport = http.close;
  } else {
    const { server } = createServer(deps);
    // Load the catalog once the handshake is done: tools/list never waits for it, the first tool call rarely does.
    server.oninitialized = () => void deps.catalog.get();
    await server.connect(new StdioServerTransport());
    closeTransport = () => server.close();
    process.stdin.on('close', () => void stop('stdin closed'));
  }
  let stopping = false;
  async function stop(reason: string): Promise<void> {
    if (stopping) return;
    stopping = true;
    deps.recorder?.serverEvent('server_stop', { reason });
    await deps.recorder?.close();
    await deps.connections.close();
    await closeTransport().catch(() => undefined);
    process.exit(0);
  }
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  return -1;
}
