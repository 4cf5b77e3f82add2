import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { argsFingerprint, createCallRecorder, type CallRecorder } from '../../../src/core/audit/recorder';
import { openAuditLog } from '../../../src/core/audit/log';
import { listAudit } from '../../../src/core/audit/verify';
import { CatalogProvider } from '../../../src/core/catalog/provider';
import { loadSqlJs } from '../../../src/core/catalog/sqljs';
import { DEFAULT_POLICY } from '../../../src/core/pii';
import { loadSqlGuard } from '../../../src/core/sql';
import { silentLogger } from '../../../src/core/util/logger';
import { SourceConnections } from '../../../src/server/connections';
import { createServer, type SchemaBrainServer } from '../../../src/server/create-server';
import { DEFAULT_LIMITS } from '../../../src/server/deps';
import { createPiiGate } from '../../../src/server/pii-gate';

export const ROOT = path.resolve(__dirname, '../../..');
export const CLI = path.join(ROOT, 'dist', 'cli.js');
export const SERVER = path.join(ROOT, 'dist', 'server.js');

export function tempDir(tag: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `sb-faults-${tag}-`));
}

/** A small real SQLite database file with `tables` tables of a few columns each. */
export async function writeSqliteSource(file: string, prefix: string, tables = 3): Promise<void> {
  const SQL = await loadSqlJs();
  const db = new SQL.Database();
  for (let i = 0; i < tables; i++) {
    db.run(`CREATE TABLE ${prefix}_t${i} (id INTEGER PRIMARY KEY, name TEXT NOT NULL, amount NUMERIC, created_at TEXT)`);
    db.run(`INSERT INTO ${prefix}_t${i} (name, amount, created_at) VALUES ('a', 1.5, '2024-01-01'), ('b', 2, '2024-01-02')`);
  }
  fs.writeFileSync(file, Buffer.from(db.export()));
  db.close();
}

export interface Exited {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  /** True when the process had to be killed at the deadline. */
  readonly hung: boolean;
}

/** Runs a process to its end, killing it (and reporting `hung`) after `timeoutMs`. */
export function runProcess(cmd: string, args: readonly string[], opts: { env?: NodeJS.ProcessEnv; timeoutMs: number; input?: string; cwd?: string }): Promise<Exited> {
  return new Promise((resolve) => {
    const child: ChildProcess = spawn(cmd, args, { cwd: opts.cwd ?? ROOT, env: opts.env ?? process.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let hung = false;
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      hung = true;
      child.kill('SIGKILL');
    }, opts.timeoutMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, hung });
    });
    child.stdin!.end(opts.input ?? '');
  });
}

/** JSON lines of a CLI's stdout (non-JSON lines skipped). */
export function jsonLines(text: string): Array<Record<string, unknown>> {
  return text
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** A stdio-less SchemaBrain server (the real createServer and recorder) writing its audit rows to `auditPath`. */
export async function auditedServer(catalogPath: string, auditPath: string, opts: { failOpen?: boolean; lockTimeoutMs?: number } = {}): Promise<{ server: SchemaBrainServer; recorder: CallRecorder }> {
  const sessionId = crypto.randomUUID();
  const recorder = createCallRecorder({
    audit: openAuditLog(auditPath, opts.lockTimeoutMs ? { lock: { timeoutMs: opts.lockTimeoutMs } } : {}),
    events: null,
    telemetry: null,
    logger: silentLogger,
    sessionId,
    failOpen: opts.failOpen,
  });
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
    sqlGuard: () => loadSqlGuard(),
    connections: new SourceConnections(new Map()),
  });
  return { server, recorder };
}

/** The argument every fault test sends: unique per call, so its audit row is found by its args fingerprint. */
export function questionArgs(tag: string): { query: string } {
  return { query: `orders ${tag}` };
}

/** Statuses that carry data: an answer with one of these must have its audit row. */
export const DATA_STATUSES = new Set(['success', 'empty', 'partial', 'degraded']);

/** Args fingerprints of every row in the log. */
export async function auditedFingerprints(auditPath: string): Promise<Set<string>> {
  if (!fs.existsSync(auditPath)) return new Set();
  return new Set((await listAudit(auditPath, { limit: 10_000_000, newestFirst: false })).map((r) => r.argsFingerprint));
}

export { argsFingerprint };
