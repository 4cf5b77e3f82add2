import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { openRecorder } from '../../src/core/audit';
import { CatalogProvider } from '../../src/core/catalog/provider';
import { runIndex } from '../../src/core/indexing/run-index';
import { classifyColumn, DEFAULT_POLICY } from '../../src/core/pii';
import { createIntrospector } from '../../src/core/sources';
import { parseSourceSpec } from '../../src/core/sources/locator';
import { loadSqlGuard } from '../../src/core/sql';
import type { SqlGuard } from '../../src/core/sql';
import { silentLogger } from '../../src/core/util/logger';
import { SourceConnections } from '../../src/server/connections';
import { createServer } from '../../src/server/create-server';
import type { SchemaBrainServer } from '../../src/server/create-server';
import { DEFAULT_LIMITS } from '../../src/server/deps';
import type { ServerDeps } from '../../src/server/deps';
import { createPiiGate } from '../../src/server/pii-gate';

/** Real sample files the suites index (never mocked). */
export const REPO_ROOT = path.resolve(__dirname, '..', '..');
export const CHINOOK_SQLITE = path.join(REPO_ROOT, 'samples', 'chinook.sqlite');

export function tempDir(prefix = 'sb-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** Indexes a source into a catalog file with the real introspectors and classifier. */
export async function indexInto(catalogPath: string, source: string, name: string, password?: string): Promise<void> {
  const spec = parseSourceSpec(source, { name });
  await runIndex({ spec, sourceInput: source, password, catalogPath, deps: { createIntrospector, classifyColumn } });
}

export interface Harness {
  readonly dir: string;
  readonly catalogPath: string;
  readonly auditPath: string;
  readonly eventsPath: string;
  readonly server: SchemaBrainServer;
  readonly client: Client;
  call(name: string, args?: Record<string, unknown>): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

/** An MCP server over an in-memory transport, driven by the SDK's real Client. */
export async function startHarness(opts: { catalogPath?: string; deps?: Partial<ServerDeps> } = {}): Promise<Harness> {
  const dir = tempDir();
  const catalogPath = opts.catalogPath ?? path.join(dir, 'catalog.sqlite');
  const auditPath = path.join(dir, 'audit.log');
  const eventsPath = path.join(dir, 'events.jsonl');
  const sessionId = crypto.randomUUID();
  let guard: Promise<SqlGuard> | undefined;
  const connections = new SourceConnections(new Map());
  const recorder = openRecorder({ sessionId, auditPath, eventsPath, env: {}, logger: silentLogger });
  const server = createServer({
    catalog: new CatalogProvider(catalogPath),
    logger: silentLogger,
    pii: createPiiGate(DEFAULT_POLICY),
    recorder,
    sessionId,
    limits: DEFAULT_LIMITS,
    secrets: new Map(),
    workspaceDir: null,
    version: 'test',
    sqlGuard: () => (guard ??= loadSqlGuard()),
    connections,
    ...opts.deps,
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.server.connect(serverSide);
  const client = new Client({ name: 'schemabrain-tests', version: '1.0.0' });
  await client.connect(clientSide);
  return {
    dir,
    catalogPath,
    auditPath,
    eventsPath,
    server,
    client,
    async call(name, args = {}) {
      const res = await client.callTool({ name, arguments: args });
      return res.structuredContent as Record<string, unknown>;
    },
    async close() {
      await client.close();
      await recorder.close();
      await connections.close();
    },
  };
}
