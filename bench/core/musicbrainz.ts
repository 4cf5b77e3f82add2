/**
 * The benchmark's own copy of MusicBrainz in PostgreSQL (`sb_bench_musicbrainz`), loaded with the shared test
 * loaders (idempotent: a database already loaded from the same files is reused).
 */
import fs from 'node:fs';
import path from 'node:path';
import { getTestPostgres } from '../../test/support/pg';
import { loadDataset } from '../../test/support/datasets';
import { ROOT } from './measure';

export const BENCH_MUSICBRAINZ_DB = 'sb_bench_musicbrainz';

export interface BenchDatabase {
  readonly url: string;
  readonly database: string;
  readonly kind: 'server' | 'pglite';
  release(): Promise<void>;
}

export async function benchMusicBrainz(): Promise<BenchDatabase> {
  const pg = await getTestPostgres();
  if (pg.kind !== 'server') {
    await pg.stop();
    throw new Error('no PostgreSQL server answers at 127.0.0.1:5432 (or SCHEMABRAIN_TEST_PG_URL); the benchmark needs a real server for pg_dump and whole-process runs');
  }
  const r = await loadDataset(pg, 'musicbrainz', BENCH_MUSICBRAINZ_DB);
  return { url: r.url, database: r.database, kind: pg.kind, release: () => pg.stop() };
}

/** The realistic questions of the retrieval benchmark, used as find_relevant_tables queries. */
export function musicBrainzQuestions(): string[] {
  const file = path.join(ROOT, 'bench', 'retrieval', 'questions', 'musicbrainz.jsonl');
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => (JSON.parse(l) as { question: string }).question);
}

/** pg_dump arguments for a schema-only dump of `url` to stdout (host, port, user and database from the URL). */
export function pgDumpArgs(url: string): string[] {
  const u = new URL(url);
  return ['--schema-only', '--no-password', '-h', u.hostname, '-p', u.port || '5432', '-U', decodeURIComponent(u.username) || 'postgres', '-d', decodeURIComponent(u.pathname.slice(1))];
}

/** Makes sure dist/ has the bundles the whole-process measurements run; builds when one is missing or asked to. */
export async function ensureBuilt(force: boolean, run: (cmd: string, args: string[]) => Promise<unknown>): Promise<void> {
  const missing = ['cli.js', 'server.js'].some((f) => !fs.existsSync(path.join(ROOT, 'dist', f)));
  if (force || missing) await run(process.execPath, [path.join(ROOT, 'esbuild.mjs')]);
}
