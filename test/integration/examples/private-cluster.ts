import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * A throw-away PostgreSQL cluster with `shared_preload_libraries = pg_stat_statements`, for the one behaviour the
 * shared test server cannot show without a restart (which would disturb every other suite): a readable
 * pg_stat_statements. Built from the server binaries on this machine (`pg_config --bindir`); when they are
 * missing, or cannot be run (no `postgres` account to drop root privileges to), `start` says why and the suite
 * asserts the `empty` path instead.
 */

export interface PrivateCluster {
  readonly port: number;
  urlFor(db: string): string;
  stop(): void;
}

function run(cmd: string, args: string[], asPostgres: boolean, timeoutMs = 60_000): string {
  const [file, argv] = asPostgres ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];
  return execFileSync(file, argv, { timeout: timeoutMs, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

export async function startStatementsCluster(): Promise<PrivateCluster | { skipped: string }> {
  let bindir: string;
  try {
    bindir = execFileSync('pg_config', ['--bindir'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return { skipped: 'pg_config is not installed' };
  }
  const initdb = path.join(bindir, 'initdb');
  const pgCtl = path.join(bindir, 'pg_ctl');
  if (!fs.existsSync(initdb) || !fs.existsSync(pgCtl)) return { skipped: `no initdb/pg_ctl in ${bindir}` };
  const asPostgres = process.getuid?.() === 0;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-ex-cluster-'));
  try {
    if (asPostgres) {
      const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
      const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
      fs.chownSync(dir, uid, gid);
    }
    const data = path.join(dir, 'data');
    run(initdb, ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8'], asPostgres);
    const port = await freePort();
    const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c shared_preload_libraries=pg_stat_statements -c fsync=off -c max_connections=20`;
    run(pgCtl, ['-D', data, '-l', path.join(dir, 'log'), '-w', '-t', '30', '-o', opts, 'start'], asPostgres);
    return {
      port,
      urlFor: (db) => `postgres://postgres@127.0.0.1:${port}/${encodeURIComponent(db)}?sslmode=disable`,
      stop: () => {
        try {
          run(pgCtl, ['-D', data, '-m', 'immediate', '-w', 'stop'], asPostgres, 30_000);
        } finally {
          fs.rmSync(dir, { recursive: true, force: true });
        }
      },
    };
  } catch (e) {
    fs.rmSync(dir, { recursive: true, force: true });
    const err = e as { stderr?: string; message?: string };
    return { skipped: `could not start a private cluster: ${(err.stderr || err.message || String(e)).trim().slice(0, 300)}` };
  }
}
