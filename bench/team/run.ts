/**
 * Team server benchmark: `npx tsx bench/team/run.ts [--quick]` (needs the PostgreSQL at 127.0.0.1:5432, or
 * SCHEMABRAIN_TEST_PG_URL; uses and drops the database `sb_team_bench`). Writes bench/results/team.md and .json:
 *
 * - calls/s and p50/p99 latency with 1, 2 and 3 replicas over one store, 30 concurrent MCP clients over HTTP;
 * - audit appends/s in the store (one at a time, and concurrent from 1 and 3 writer pools: group commit);
 * - one user, one client, calls one at a time: `serve --http --catalog FILE` (file store) vs `serve --http --store`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { withPgClient } from '../../test/support/pg';
import { sha256Hex } from '../../src/core/audit/canonical';
import { openAuditLog } from '../../src/core/audit/log';
import type { AuditRowInput } from '../../src/core/audit/record';
import { openPgAuditLog } from '../../src/core/store/pg-audit';
import { openPgStore } from '../../src/core/store/pg-store';
import { createToken } from '../../src/core/store/tokens';

const ROOT = path.resolve(__dirname, '../..');
const CLI = path.join(ROOT, 'dist', 'cli.js');
const quick = process.argv.includes('--quick');
const CALLS = quick ? 600 : 3000;
const CLIENTS = 30;
const ADMIN_URL = process.env.SCHEMABRAIN_TEST_PG_URL?.trim() || 'postgres://postgres@127.0.0.1:5432/postgres';
const DB = 'sb_team_bench';

function dbUrl(): { url: string; env: NodeJS.ProcessEnv } {
  const u = new URL(ADMIN_URL);
  u.pathname = `/${DB}`;
  const env = { ...process.env };
  if (u.password) {
    env.PGPASSWORD = decodeURIComponent(u.password);
    u.password = '';
  }
  return { url: u.toString(), env };
}

async function admin(sql: string): Promise<void> {
  await withPgClient(ADMIN_URL, (c) => c.query(sql));
}

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor(s.length * p))]! * 10) / 10;
}

function cli(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve) => spawn(process.execPath, [CLI, ...args], { env, stdio: 'ignore' }).on('close', (c) => resolve(c ?? -1)));
}

async function startServer(args: string[], env: NodeJS.ProcessEnv): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [CLI, 'serve', '--http', '0', ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  const url = await new Promise<string>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`server did not start: ${err}`)), 60_000);
    child.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(err);
      if (m) {
        clearTimeout(t);
        resolve(m[1]!);
      }
    });
  });
  return { url, child };
}

async function connect(url: string, token: string | null): Promise<Client> {
  const c = new Client({ name: 'bench', version: '1' });
  await c.connect(new StreamableHTTPClientTransport(new URL(url), token ? { requestInit: { headers: { authorization: `Bearer ${token}` } } } : undefined));
  return c;
}

/** `clients` clients spread over `urls`, `total` find_relevant_tables calls in all; calls/s and latency. */
async function drive(urls: string[], tokens: Array<string | null>, clients: number, total: number): Promise<{ callsPerS: number; p50: number; p99: number; errors: number }> {
  const cs = await Promise.all(Array.from({ length: clients }, (_, i) => connect(urls[i % urls.length]!, tokens[i % tokens.length]!)));
  // Warm each replica's search index before timing.
  await Promise.all(cs.slice(0, urls.length).map((c) => c.callTool({ name: 'find_relevant_tables', arguments: { query: 'warm up' } })));
  let next = 0;
  let errors = 0;
  const lat: number[] = [];
  const t0 = performance.now();
  await Promise.all(
    cs.map(async (c) => {
      while (next < total) {
        const id = next++;
        const s = performance.now();
        try {
          const r = await c.callTool({ name: 'find_relevant_tables', arguments: { query: `artist album invoice q${id}`, limit: 5 } });
          if ((r.structuredContent as { status: string }).status === 'error') errors++;
        } catch {
          errors++;
        }
        lat.push(performance.now() - s);
      }
    }),
  );
  const secs = (performance.now() - t0) / 1000;
  await Promise.all(cs.map((c) => c.close().catch(() => undefined)));
  return { callsPerS: Math.round(total / secs), p50: pct(lat, 0.5), p99: pct(lat, 0.99), errors };
}

const row = (i: number): AuditRowInput => ({ sessionId: 'bench', clientName: 'bench', clientVersion: '1', tool: 'find_relevant_tables', status: 'success', errorKind: null, piiCategories: [], argsFingerprint: sha256Hex(String(i)), sqlFingerprint: null, rowCount: 5, truncated: false, durationMs: 1.2, catalogGeneration: 1 });

async function main(): Promise<void> {
  const loadBefore = os.loadavg().map((x) => x.toFixed(1)).join(' ');
  const { url, env } = dbUrl();
  await admin(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
  await admin(`CREATE DATABASE ${DB}`);
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-bench-team-'));
  const senv = { ...env, SCHEMABRAIN_HOME: home };
  const chinook = path.join(ROOT, 'samples', 'chinook.sqlite');
  if ((await cli(['index', '--source', chinook, '--name', 'chinook', '--store', url], senv)) !== 0) throw new Error('index --store failed');
  const fileCatalog = path.join(home, 'catalog.sqlite');
  if ((await cli(['index', '--source', chinook, '--name', 'chinook', '--catalog', fileCatalog], senv)) !== 0) throw new Error('index failed');
  const store = await openPgStore(url, { env });
  const tokens = await Promise.all(Array.from({ length: CLIENTS }, (_, i) => createToken(store.pool, { principal: `bench${i}`, role: 'analyst', createdBy: 'bench' }).then((t) => t.token)));

  const replicas: Record<string, unknown> = {};
  for (const n of [1, 2, 3]) {
    const servers = [];
    for (let i = 0; i < n; i++) servers.push(await startServer(['--store', url, '--rate-limit', '0', '--cache-dir', path.join(home, `r${n}-${i}`)], senv));
    replicas[String(n)] = await drive(
      servers.map((s) => s.url),
      tokens,
      CLIENTS,
      CALLS,
    );
    for (const s of servers) s.child.kill('SIGTERM');
    process.stderr.write(`replicas ${n}: ${JSON.stringify(replicas[String(n)])}\n`);
  }

  const appends: Record<string, number> = {};
  {
    const log = openPgAuditLog(store.pool, store.url);
    const n = quick ? 300 : 1000;
    let t0 = performance.now();
    for (let i = 0; i < n; i++) await log.append(row(i));
    appends.sequential = Math.round(n / ((performance.now() - t0) / 1000));
    t0 = performance.now();
    await Promise.all(Array.from({ length: n * 5 }, (_, i) => log.append(row(i))));
    appends.concurrent_one_pool = Math.round((n * 5) / ((performance.now() - t0) / 1000));
    await log.close();
    const pools = await Promise.all([0, 1, 2].map(() => openPgStore(url, { env, max: 4 })));
    const logs = pools.map((p) => openPgAuditLog(p.pool, p.url));
    t0 = performance.now();
    await Promise.all(Array.from({ length: n * 5 }, (_, i) => logs[i % 3]!.append(row(i))));
    appends.concurrent_three_pools = Math.round((n * 5) / ((performance.now() - t0) / 1000));
    for (const l of logs) await l.close();
    for (const p of pools) await p.close();
    const file = openAuditLog(path.join(home, 'audit.log'));
    t0 = performance.now();
    for (let i = 0; i < n; i++) await file.append(row(i));
    appends.file_sequential = Math.round(n / ((performance.now() - t0) / 1000));
    await file.close();
  }
  process.stderr.write(`appends: ${JSON.stringify(appends)}\n`);

  const single = quick ? 150 : 500;
  const fileServer = await startServer(['--catalog', fileCatalog, '--audit-path', path.join(home, 'single.log')], senv);
  const fileOne = await drive([fileServer.url], [null], 1, single);
  fileServer.child.kill('SIGTERM');
  const pgServer = await startServer(['--store', url, '--rate-limit', '0', '--cache-dir', path.join(home, 'single')], senv);
  const pgOne = await drive([pgServer.url], [tokens[0]!], 1, single);
  pgServer.child.kill('SIGTERM');
  await store.close();
  await admin(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
  fs.rmSync(home, { recursive: true, force: true });

  const load = os.loadavg().map((x) => x.toFixed(1)).join(' ');
  const result = { date: new Date().toISOString(), cpus: os.cpus().length, loadavg_after: load, calls: CALLS, clients: CLIENTS, replicas, appends, single_user: { calls: single, file_store: fileOne, pg_store: pgOne } };
  fs.writeFileSync(path.join(ROOT, 'bench', 'results', 'team.json'), `${JSON.stringify(result, null, 2)}\n`);
  const r = replicas as Record<string, { callsPerS: number; p50: number; p99: number; errors: number }>;
  const md = `# Team server (PostgreSQL store)

\`npx tsx bench/team/run.ts${quick ? ' --quick' : ''}\` (also \`npm run bench -- --only team\`) on ${os.cpus().length} CPUs (load average before the run: ${loadBefore}, after: ${load}; the machine is shared,
so absolute figures move with other work — compare rows within one run). Store: PostgreSQL on the same machine.
Calls are \`find_relevant_tables\` over Streamable HTTP with bearer tokens, each audited (durable in the store)
before it answers; ${CLIENTS} clients spread evenly over the replicas, ${CALLS} calls per row.

| replicas | calls/s | p50 ms | p99 ms | errors |
| --- | --- | --- | --- | --- |
${[1, 2, 3].map((n) => `| ${n} | ${r[String(n)]!.callsPerS} | ${r[String(n)]!.p50} | ${r[String(n)]!.p99} | ${r[String(n)]!.errors} |`).join('\n')}

With every replica, the clients and PostgreSQL on the same ${os.cpus().length} cores, more replicas add processes competing
for the same CPUs; the replica count buys availability here, and throughput only on separate machines.

## Audit appends in the store

| mode | appends/s |
| --- | --- |
| one at a time (each awaited: BEGIN + head lock, insert + head move, COMMIT) | ${appends.sequential} |
| concurrent, one replica's pool (group commit) | ${appends.concurrent_one_pool} |
| concurrent, three pools contending for the chain head | ${appends.concurrent_three_pools} |
| file audit log, one at a time (for comparison) | ${appends.file_sequential} |

## One user: file store vs PostgreSQL store

One client, ${single} calls one at a time.

| server | calls/s | p50 ms | p99 ms |
| --- | --- | --- | --- |
| \`serve --http --catalog FILE\` (files under SCHEMABRAIN_HOME) | ${fileOne.callsPerS} | ${fileOne.p50} | ${fileOne.p99} |
| \`serve --http --store postgres://…\` | ${pgOne.callsPerS} | ${pgOne.p50} | ${pgOne.p99} |
`;
  // The replica failover section records the test suite's runs (20,000 calls by env): kept across bench runs.
  const mdPath = path.join(ROOT, 'bench', 'results', 'team.md');
  const old = fs.existsSync(mdPath) ? fs.readFileSync(mdPath, 'utf8') : '';
  const kept = old.indexOf('\n## Replica failover runs');
  fs.writeFileSync(mdPath, kept >= 0 ? `${md}${old.slice(kept)}` : md);
  process.stdout.write(md);
}

void main().catch((e: unknown) => {
  process.stderr.write(`bench/team failed: ${(e as Error).stack ?? String(e)}\n`);
  process.exit(1);
});
