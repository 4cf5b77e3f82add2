import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Pool } from 'pg';
import { DIST_CLI } from '../../support/build';
import { getTestPostgres, type TestPostgres } from '../../support/pg';

/**
 * A fresh team store database (`sb_team_*`) on the test server. The store refuses URLs with passwords, so a
 * password in the test URL moves to PGPASSWORD in `env` (what a real deployment does with its secret).
 */
export interface TeamDb {
  readonly url: string;
  readonly env: NodeJS.ProcessEnv;
  readonly pg: TestPostgres;
  /** A pool on the store database (for tampering and counting). */
  pool(): Pool;
  drop(): Promise<void>;
}

export async function freshTeamDb(ctx: Mocha.Context, name: string): Promise<TeamDb | null> {
  const pg = await getTestPostgres();
  if (pg.kind !== 'server') {
    await pg.stop();
    ctx.skip(); // the team store needs concurrent sessions, LISTEN/NOTIFY and advisory locks across processes: a PostgreSQL server
    return null;
  }
  await pg.dropDatabase(name);
  await pg.ensureDatabase(name);
  const u = new URL(pg.urlFor(name));
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (u.password) {
    env.PGPASSWORD = decodeURIComponent(u.password);
    u.password = '';
  }
  const pools: Pool[] = [];
  return {
    url: u.toString(),
    env,
    pg,
    pool() {
      const p = new Pool({ connectionString: pg.urlFor(name), max: 4 });
      p.on('error', () => undefined);
      pools.push(p);
      return p;
    },
    async drop() {
      for (const p of pools.splice(0)) await p.end().catch(() => undefined);
      await pg.dropDatabase(name).catch(() => undefined);
      await pg.stop();
    },
  };
}

export function tempDir(prefix = 'sb-team-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** Runs the built CLI and returns its exit code and output. */
export function cli(args: readonly string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [DIST_CLI, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

export async function issueToken(db: TeamDb, principal: string, role: string, extra: string[] = []): Promise<{ id: string; token: string }> {
  const r = await cli(['token', 'create', '--principal', principal, '--role', role, '--store', db.url, '--json', ...extra], db.env);
  if (r.code !== 0) throw new Error(`token create failed: ${r.stderr}`);
  const v = JSON.parse(r.stdout) as { id: string; token: string };
  return { id: v.id, token: v.token };
}

export interface Replica {
  readonly port: number;
  readonly mcpUrl: string;
  readonly base: string;
  readonly child: ChildProcess;
  stderr(): string;
  /** Resolves with the exit code (or signal name) once the process is gone. */
  readonly exited: Promise<number | string>;
}

/** Starts `schemabrain serve --http PORT --store URL` and waits for its listening line. */
export async function startReplica(db: TeamDb, opts: { port?: number; args?: string[]; home?: string } = {}): Promise<Replica> {
  const home = opts.home ?? tempDir('sb-team-home-');
  const child = spawn(process.execPath, [DIST_CLI, 'serve', '--http', String(opts.port ?? 0), '--store', db.url, '--cache-dir', path.join(home, 'replica'), ...(opts.args ?? [])], {
    env: { ...db.env, SCHEMABRAIN_HOME: home },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  const exited = new Promise<number | string>((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  const url = await new Promise<string>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`replica did not start: ${err}`)), 30_000);
    child.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
      const m = /team server listening on (http:\/\/\S+)/.exec(err);
      if (m) {
        clearTimeout(t);
        resolve(m[1]!);
      }
    });
    void exited.then((c) => {
      clearTimeout(t);
      reject(new Error(`replica exited (${c}) before listening: ${err}`));
    });
  });
  const u = new URL(url);
  return { port: Number(u.port), mcpUrl: url, base: `${u.protocol}//${u.host}`, child, stderr: () => err, exited };
}

export async function connectClient(mcpUrl: string, token: string, name = 'team-test'): Promise<Client> {
  const client = new Client({ name, version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
}

export interface EnvelopeLike {
  readonly status: string;
  readonly error: { readonly kind: string; readonly message: string } | null;
  readonly data: unknown;
}

export async function call(client: Client, name: string, args: Record<string, unknown>): Promise<EnvelopeLike> {
  const res = await client.callTool({ name, arguments: args });
  return res.structuredContent as unknown as EnvelopeLike;
}
