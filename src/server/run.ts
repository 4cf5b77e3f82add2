import crypto from 'node:crypto';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CatalogProvider } from '../core/catalog/provider';
import { fetchSecretsFromChannel, scrubSecretChannelEnv } from '../core/secrets';
import { createStderrLogger } from '../core/util/logger';
import { defaultCatalogPath } from '../core/util/home';
import { loadSqlGuard } from '../core/sql';
import type { SqlGuard } from '../core/sql';
import { SourceConnections } from './connections';
import { createServer } from './create-server';
import { DEFAULT_LIMITS } from './deps';
import { parseServerOptions, ServerOptionsError } from './options';
import { createPiiGate } from './pii-gate';
import { createRecorder } from './recorder';
import { VERSION } from './version';

/**
 * Runs the MCP server on stdio until the client goes away. stdout carries the protocol; everything else goes to
 * stderr. Resolves with an exit code only when start-up fails; otherwise the process exits on stop.
 */
export async function runStdioServer(argv: readonly string[]): Promise<number> {
  const logger = createStderrLogger('schemabrain-server');
  let options;
  try {
    options = parseServerOptions(argv, process.env);
  } catch (e) {
    if (e instanceof ServerOptionsError) {
      process.stderr.write(`schemabrain serve: ${e.message}\n`);
      return 2;
    }
    throw e;
  }
  let secrets = new Map<string, string>();
  try {
    secrets = await fetchSecretsFromChannel(process.env);
  } catch (e) {
    logger.warn(`${(e as Error).message}; sources that need a password will answer missing_credential`);
  }
  scrubSecretChannelEnv(process.env);
  const sessionId = crypto.randomUUID();
  const recorder = await createRecorder(options, sessionId, logger);
  const catalog = new CatalogProvider(options.catalogPath ?? defaultCatalogPath(process.env), (view) =>
    logger.debug(`catalog generation ${view.generation} loaded (${view.entries.length} relations)`),
  );
  let guard: Promise<SqlGuard> | undefined;
  const connections = new SourceConnections(secrets);
  const { server } = createServer({
    catalog,
    logger,
    pii: createPiiGate(options.piiBlock),
    recorder,
    sessionId,
    limits: { ...DEFAULT_LIMITS, ...options.limits },
    secrets,
    workspaceDir: options.workspaceDir,
    version: VERSION,
    sqlGuard: () => (guard ??= loadSqlGuard()),
    connections,
    allowedSchemas: options.allowSchemas,
  });
  // Warm the catalog before the first request so tools/list and the first call are fast.
  void catalog.get();
  recorder?.serverEvent('server_start', { catalog: catalog.path });
  let stopping = false;
  const stop = async (reason: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    recorder?.serverEvent('server_stop', { reason });
    await recorder?.close();
    await connections.close();
    await server.close().catch(() => undefined);
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.stdin.on('close', () => void stop('stdin closed'));
  await server.connect(new StdioServerTransport());
  return -1;
}

