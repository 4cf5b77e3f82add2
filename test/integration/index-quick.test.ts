import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { readJobStatus } from '../../src/core/indexing/job-status';
import { createSecretChannel } from '../../src/core/secrets/channel';
import { quickIndex } from '../../src/cli/index-quick';
import { main } from '../../src/cli/main';
import type { CliIO } from '../../src/cli/command';
import { DIST_CLI, ROOT, ensureBuilt } from '../support/build';
import { getTestPostgres, withPgClient } from '../support/pg';
import type { TestPostgres } from '../support/pg';
import { CHINOOK_SQLITE, tempDir } from '../support/server-harness';
import { connectAdmin, MARIADB_URL, mariadbUnavailable, urlFor } from './mysql/support/mariadb';

/**
 * `schemabrain index` answers an unchanged re-index from a small bundle of its own (dist/cli-index.bundle.js) before
 * the rest of the CLI is loaded. These checks hold it to the full command's answers, and to handing everything else on.
 */

const DB = 'sb_index_quick';

interface Run {
  readonly code: number | null;
  readonly lines: Array<Record<string, unknown>>;
  readonly stderr: string;
}

function cliAt(cli: string, args: readonly string[], env: Record<string, string> = {}): Run {
  const r = spawnSync(process.execPath, [cli, 'index', ...args, '--json'], { encoding: 'utf8', env: { ...process.env, ...env }, timeout: 120_000 });
  return { code: r.status, lines: r.stdout.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>), stderr: r.stderr };
}

/** The full command in this process (no quick step): what the quick step's answers must equal. */
async function fullInProcess(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  let out = '';
  let err = '';
  const io: CliIO = {
    stdout: { write: (s: string) => ((out += s), true) } as unknown as NodeJS.WritableStream,
    stderr: { write: (s: string) => ((err += s), true) } as unknown as NodeJS.WritableStream,
    env: { ...env },
    isTTY: false,
  };
  const code = await main(['index', ...args, '--json'], io);
  return { code, lines: out.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>), stderr: err };
}

/** The built CLI with its standard output closed by the reader before the first line (`schemabrain index … | head -0`). */
function closedOutput(args: readonly string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [DIST_CLI, 'index', ...args, '--json'], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

const withoutTiming = (lines: ReadonlyArray<Record<string, unknown>>): unknown[] => lines.map(({ duration_ms: _d, ...rest }) => rest);

describe('index: the quick unchanged check before the full command', function () {
  this.timeout(120_000);
  let pg: TestPostgres;
  let url: string;
  let dir: string;
  let catalog: string;
  /** dist/cli.js and the quick bundle alone, without dist/cli.bundle.js: only the quick step can answer there. */
  let quickOnlyCli: string;

  const sql = async (text: string): Promise<void> => {
    await withPgClient(url, (c) => c.query(text));
  };

  before(async () => {
    ensureBuilt();
    pg = await getTestPostgres();
    await pg.dropDatabase(DB);
    await pg.ensureDatabase(DB);
    url = pg.urlFor(DB);
    await sql(`CREATE TABLE author (id int PRIMARY KEY, name text NOT NULL);
               CREATE TABLE book (id int PRIMARY KEY, author_id int REFERENCES author(id), title text);`);
    dir = tempDir();
    catalog = path.join(dir, 'catalog.sqlite');
    const alone = path.join(dir, 'dist');
    fs.mkdirSync(alone);
    // The engines' assets sit beside the bundles in every install: the SQLite engine's wasm, the MySQL driver.
    for (const f of ['cli.js', 'cli-index.bundle.js', 'sql-wasm.wasm', 'mysql-vendor.js']) fs.copyFileSync(path.join(ROOT, 'dist', f), path.join(alone, f));
    quickOnlyCli = path.join(alone, 'cli.js');
  });
  after(async () => {
    await pg?.dropDatabase(DB).catch(() => undefined);
    await pg?.stop();
  });

  it('a first index is handed to the full command (no summary yet)', () => {
    const quickOnly = cliAt(quickOnlyCli, ['--source', url, '--name', 'books', '--catalog', catalog]);
    assert.notEqual(quickOnly.code, 0, 'without the full bundle a first index cannot run');
    assert.ok(!fs.existsSync(catalog), 'and nothing was written');
    const r = cliAt(DIST_CLI, ['--source', url, '--name', 'books', '--catalog', catalog]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.lines.at(-1)?.mode, 'full');
  });

  it('an unchanged re-index is answered by the quick bundle alone, in the full command\'s words', async () => {
    const before = fs.readFileSync(catalog);
    const quick = cliAt(quickOnlyCli, ['--source', url, '--name', 'books', '--catalog', catalog]);
    assert.equal(quick.code, 0, quick.stderr);
    const full = await fullInProcess(['--source', url, '--name', 'books', '--catalog', catalog]);
    assert.equal(full.code, 0, full.stderr);
    assert.deepEqual(withoutTiming(quick.lines), withoutTiming(full.lines));
    assert.equal(quick.lines.at(-1)?.mode, 'unchanged');
    assert.equal(quick.lines.at(-1)?.generation, 1);
    assert.ok(fs.readFileSync(catalog).equals(before), 'the catalog was not rewritten');
    const job = readJobStatus(catalog);
    assert.equal(job.state, 'succeeded');
    assert.ok(!fs.existsSync(`${catalog}.lock`), 'the catalog lock was released');
  });

  it('a changed structure is handed on: the full command reads it incrementally', async () => {
    await sql('ALTER TABLE book ADD COLUMN isbn text');
    const quickOnly = cliAt(quickOnlyCli, ['--source', url, '--name', 'books', '--catalog', catalog]);
    assert.notEqual(quickOnly.code, 0, 'the quick step does not answer a changed structure');
    const r = cliAt(DIST_CLI, ['--source', url, '--name', 'books', '--catalog', catalog]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.lines.at(-1)?.mode, 'incremental');
    assert.equal(r.lines.at(-1)?.changed, 1);
    // A comment alone is a structural change too.
    await sql(`COMMENT ON COLUMN book.isbn IS 'international standard book number'`);
    assert.equal(cliAt(DIST_CLI, ['--source', url, '--name', 'books', '--catalog', catalog]).lines.at(-1)?.mode, 'incremental');
    assert.equal(cliAt(quickOnlyCli, ['--source', url, '--name', 'books', '--catalog', catalog]).lines.at(-1)?.mode, 'unchanged');
  });

  it('a reader that closes standard output ends the command without a stack trace, and loses nothing', async () => {
    // The quick step's answer: nothing left to stop, so the shell's status for a closed pipe; the catalog is untouched.
    const before = fs.readFileSync(catalog);
    const quick = await closedOutput(['--source', url, '--name', 'books', '--catalog', catalog]);
    assert.equal(quick.code, 141, quick.stderr);
    assert.doesNotMatch(quick.stderr, /EPIPE|Unhandled|\n\s+at /);
    assert.ok(fs.readFileSync(catalog).equals(before), 'the catalog was not rewritten');
    assert.equal(readJobStatus(catalog).state, 'succeeded');
    // A full index stops as Ctrl-C stops it: cancelled, and no catalog half written.
    const fresh = path.join(tempDir(), 'catalog.sqlite');
    const full = await closedOutput(['--source', url, '--name', 'books', '--catalog', fresh]);
    assert.equal(full.code, 2, full.stderr);
    assert.doesNotMatch(full.stderr, /EPIPE|Unhandled|\n\s+at /);
    assert.ok(!fs.existsSync(fresh), 'no catalog was written');
    assert.equal(readJobStatus(fresh).state, 'cancelled');
    assert.ok(!fs.existsSync(`${fresh}.lock`), 'the catalog lock was released');
  });

  it('--full, --rebuild, --help and a PII policy file go to the full command', async () => {
    for (const extra of [['--full'], ['--rebuild'], ['--help']]) {
      const r = cliAt(quickOnlyCli, ['--source', url, '--name', 'books', '--catalog', catalog, ...extra]);
      assert.notEqual(r.code, 0, `${extra.join(' ')} was answered without the full command`);
    }
    const home = tempDir();
    fs.writeFileSync(path.join(home, 'pii-policy.yaml'), 'version: 1\nblock: [contact]\n');
    const r = cliAt(quickOnlyCli, ['--source', url, '--name', 'books', '--catalog', catalog], { SCHEMABRAIN_HOME: home });
    assert.notEqual(r.code, 0, 'a policy file is read and checked by the full command');
    const full = cliAt(DIST_CLI, ['--source', url, '--name', 'books', '--catalog', catalog], { SCHEMABRAIN_HOME: home });
    assert.equal(full.code, 0, full.stderr);
    assert.equal(full.lines.at(-1)?.mode, 'incremental', 'classified again under the policy it has not been indexed with');
    const again = cliAt(DIST_CLI, ['--source', url, '--name', 'books', '--catalog', catalog], { SCHEMABRAIN_HOME: home });
    assert.equal(again.code, 0, again.stderr);
    assert.equal(again.lines.at(-1)?.mode, 'unchanged');
    // A broken policy file: the bundle's YAML parser (loaded only when a policy is read) gives the typed error, and the
    // catalog is left as it was.
    const before = fs.readFileSync(catalog);
    fs.writeFileSync(path.join(home, 'pii-policy.yaml'), 'version: 1\nblock: [contact\n');
    const broken = cliAt(DIST_CLI, ['--source', url, '--name', 'books', '--catalog', catalog], { SCHEMABRAIN_HOME: home });
    assert.notEqual(broken.code, 0);
    assert.match(broken.stderr + JSON.stringify(broken.lines), /not valid YAML/);
    assert.ok(fs.readFileSync(catalog).equals(before), 'the catalog was not rewritten');
  });

  it('a source that stops answering after it was indexed: one typed error from the quick step', async () => {
    const other = path.join(dir, 'other.sqlite');
    const first = cliAt(DIST_CLI, ['--source', url, '--name', 'books', '--catalog', other]);
    assert.equal(first.code, 0, first.stderr);
    // Same name and locator, but the database is gone: the digest query fails inside the quick step.
    await pg.dropDatabase(DB);
    try {
      const quick = cliAt(quickOnlyCli, ['--source', url, '--name', 'books', '--catalog', other]);
      const full = await fullInProcess(['--source', url, '--name', 'books', '--catalog', other]);
      assert.equal(quick.code, 2, quick.stderr);
      assert.deepEqual(quick.lines, full.lines, 'the same error line as the full command');
      assert.equal(quick.lines.length, 1);
      assert.equal(quick.lines[0]!.type, 'error');
      assert.equal(readJobStatus(other).state, 'failed');
    } finally {
      await pg.ensureDatabase(DB);
      await sql(`CREATE TABLE author (id int PRIMARY KEY, name text NOT NULL);`);
    }
  });

  it('hands the password it took from the one-shot secret channel on to the full command', async () => {
    const fresh = path.join(dir, 'fresh.sqlite');
    assert.equal(cliAt(DIST_CLI, ['--source', url, '--name', 'books', '--catalog', fresh]).code, 0);
    await sql('CREATE TABLE shelf (id int PRIMARY KEY)');
    const channel = await createSecretChannel(new Map([['books', 's3cret-value']]));
    try {
      const env: NodeJS.ProcessEnv = { ...channel.env };
      const io: CliIO = { stdout: { write: () => true } as unknown as NodeJS.WritableStream, stderr: { write: () => true } as unknown as NodeJS.WritableStream, env, isTTY: false };
      const answer = await quickIndex(['--source', url, '--name', 'books', '--catalog', fresh], io);
      assert.ok('handoff' in answer, JSON.stringify(answer));
      assert.deepEqual(answer.handoff, { value: 's3cret-value' });
      assert.equal(Object.keys(env).length, 0, 'the channel variables were removed from the environment');
    } finally {
      channel.dispose();
    }
  });

  it('answers an unchanged SQLite file and MySQL/MariaDB database too, with their engines loaded from beside it', async function () {
    const lite = path.join(dir, 'lite.sqlite');
    assert.equal(cliAt(DIST_CLI, ['--source', CHINOOK_SQLITE, '--name', 'chinook', '--catalog', lite]).code, 0);
    const quickLite = cliAt(quickOnlyCli, ['--source', CHINOOK_SQLITE, '--name', 'chinook', '--catalog', lite]);
    assert.equal(quickLite.code, 0, quickLite.stderr);
    assert.equal(quickLite.lines.at(-1)?.mode, 'unchanged');
    const why = await mariadbUnavailable();
    if (why !== null) {
      process.stderr.write(`skipping the MySQL/MariaDB half: ${why}\n`);
      return;
    }
    const admin = await connectAdmin();
    try {
      await admin.query('DROP DATABASE IF EXISTS sb_index_quick; CREATE DATABASE sb_index_quick; CREATE TABLE sb_index_quick.t (id int PRIMARY KEY, name varchar(20))');
      const my = path.join(dir, 'my.sqlite');
      const url = urlFor(MARIADB_URL, 'sb_index_quick');
      assert.equal(cliAt(DIST_CLI, ['--source', url, '--name', 'shop', '--catalog', my]).code, 0);
      const quickMy = cliAt(quickOnlyCli, ['--source', url, '--name', 'shop', '--catalog', my]);
      assert.equal(quickMy.code, 0, quickMy.stderr);
      assert.equal(quickMy.lines.at(-1)?.mode, 'unchanged');
      await admin.query('ALTER TABLE sb_index_quick.t ADD COLUMN note text');
      assert.notEqual(cliAt(quickOnlyCli, ['--source', url, '--name', 'shop', '--catalog', my]).code, 0, 'a changed MySQL structure is handed on');
    } finally {
      await admin.query('DROP DATABASE IF EXISTS sb_index_quick').catch(() => undefined);
      await admin.end();
    }
  });
});
