import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { CatalogProvider } from '../../../src/core/catalog/provider';
import { loadSqlJs } from '../../../src/core/catalog/sqljs';
import { PassThrough } from 'node:stream';
import { indexCommand } from '../../../src/cli/commands/index-source';
import { getTestPostgres, type TestPostgres } from '../../support/pg';
import { CLI, jsonLines, runProcess, tempDir, writeSqliteSource, type Exited } from './support';

/** `schemabrain index` in this process (the SQLite cases need no process of their own), bounded like a child. */
async function indexInProcess(argv: readonly string[], timeoutMs: number): Promise<Exited> {
  const out = new PassThrough();
  const err = new PassThrough();
  let stdout = '';
  let stderr = '';
  out.on('data', (d: Buffer) => (stdout += d.toString()));
  err.on('data', (d: Buffer) => (stderr += d.toString()));
  let timer: NodeJS.Timeout | undefined;
  const code = await Promise.race([
    indexCommand.run(argv, { stdout: out, stderr: err, env: { ...process.env }, isTTY: false }),
    new Promise<'hung'>((r) => (timer = setTimeout(() => r('hung'), timeoutMs))),
  ]);
  clearTimeout(timer);
  return { code: code === 'hung' ? null : code, signal: null, stdout, stderr, hung: code === 'hung' };
}

/** Every way a catalog file was found damaged, applied to a copy of a good catalog. */
const DAMAGE: Record<string, (file: string, good: Buffer) => Promise<void> | void> = {
  'empty file': (file) => fs.writeFileSync(file, ''),
  'truncated to half': (file, good) => fs.writeFileSync(file, good.subarray(0, Math.floor(good.length / 2))),
  'SQLite header, random body': (file, good) => fs.writeFileSync(file, Buffer.concat([good.subarray(0, 100), randomBytes(good.length - 100)])),
  'corrupt interior page (a table b-tree page overwritten)': (file, good) => {
    const copy = Buffer.from(good);
    const pageSize = copy.readUInt16BE(16) || 65536;
    // Overwrite every page after the schema page's own neighbourhood but keep page 1: the schema still reads.
    const victim = Math.max(2, Math.floor(copy.length / pageSize / 2));
    randomBytes(pageSize).copy(copy, (victim - 1) * pageSize);
    fs.writeFileSync(file, copy);
  },
  'a SQLite database that is not a catalog': async (file) => {
    const SQL = await loadSqlJs();
    const db = new SQL.Database();
    db.run('CREATE TABLE t (x)');
    fs.writeFileSync(file, Buffer.from(db.export()));
    db.close();
  },
};

function randomBytes(n: number): Buffer {
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i++) b[i] = (i * 2654435761) >>> 24;
  return b;
}

const TIMEOUT_MS = 45_000;

describe('faults: corrupt catalogs never hang or crash `index`', function () {
  this.timeout(300_000);
  let dir: string;
  let good: Buffer;
  let source: string;
  before(async function () {
    if (!fs.existsSync(CLI)) this.skip(); // needs `node esbuild.mjs`
    dir = tempDir('corrupt');
    source = path.join(dir, 'src.sqlite');
    await writeSqliteSource(source, 'shop', 40);
    const catalog = path.join(dir, 'good.sqlite');
    const run = await indexInProcess(['--source', source, '--catalog', catalog, '--sample-rows', '0', '--json'], TIMEOUT_MS);
    assert.equal(run.code, 0, run.stderr);
    good = fs.readFileSync(catalog);
  });
  after(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  for (const [kind, damage] of Object.entries(DAMAGE)) {
    it(`${kind}: index and --full exit with catalog_corrupt, serve says the same, --rebuild rebuilds`, async () => {
      const home = path.join(dir, kind.replace(/\W+/g, '-'));
      fs.mkdirSync(home);
      const catalog = path.join(home, 'catalog.sqlite');
      await damage(catalog, good);
      for (const extra of [[], ['--full']]) {
        const run = await indexInProcess(['--source', source, '--catalog', catalog, '--sample-rows', '0', '--json', ...extra], TIMEOUT_MS);
        assert.equal(run.hung, false, `index ${extra.join(' ')} hung`);
        const err = jsonLines(run.stdout).find((l) => l.type === 'error');
        assert.equal(err?.kind, 'catalog_corrupt', `index ${extra.join(' ')}: ${run.stdout}${run.stderr}`);
        assert.equal(run.code, 2);
      }
      const state = await new CatalogProvider(catalog).get();
      assert.equal(state.state, 'unreadable', 'the server sees the same damage as the indexer');
      assert.match(state.state === 'unreadable' ? state.reason : '', /damaged|not a SQLite database|not a SchemaBrain catalog/);
      const rebuilt = await indexInProcess(['--source', source, '--catalog', catalog, '--sample-rows', '0', '--json', '--rebuild'], TIMEOUT_MS);
      assert.equal(rebuilt.hung, false, '--rebuild hung');
      assert.equal(rebuilt.code, 0, rebuilt.stdout + rebuilt.stderr);
      const result = jsonLines(rebuilt.stdout).find((l) => l.type === 'result');
      assert.equal(result?.mode, 'full', 'a rebuild re-reads everything');
      assert.equal((await new CatalogProvider(catalog).get()).state, 'ready');
      assert.ok(fs.readdirSync(home).some((n) => n.startsWith('catalog.sqlite.corrupt-')), 'the damaged file was moved aside, not deleted');
    });
  }

  describe('with a PostgreSQL source', () => {
    let pg: TestPostgres;
    before(async () => {
      pg = await getTestPostgres();
      await pg.ensureDatabase('sb_audit_faults');
    });
    after(async () => {
      await pg?.stop();
    });

    it('index exits (no idle connection left open) after reporting a corrupt catalog, and --rebuild exits after succeeding', async () => {
      const home = path.join(dir, 'pg');
      fs.mkdirSync(home);
      const catalog = path.join(home, 'catalog.sqlite');
      fs.writeFileSync(catalog, Buffer.concat([good.subarray(0, 100), randomBytes(8192)]));
      const url = pg.urlFor('sb_audit_faults');
      const run = await runProcess(process.execPath, [CLI, 'index', '--source', url, '--name', 'pg', '--catalog', catalog, '--sample-rows', '0', '--json'], { timeoutMs: TIMEOUT_MS });
      assert.equal(run.hung, false, 'index hung after reporting the corrupt catalog');
      assert.equal(jsonLines(run.stdout).find((l) => l.type === 'error')?.kind, 'catalog_corrupt', run.stdout + run.stderr);
      const rebuilt = await runProcess(process.execPath, [CLI, 'index', '--source', url, '--name', 'pg', '--catalog', catalog, '--sample-rows', '0', '--json', '--rebuild'], { timeoutMs: TIMEOUT_MS });
      assert.equal(rebuilt.hung, false, '--rebuild hung after succeeding');
      assert.equal(rebuilt.code, 0, rebuilt.stdout + rebuilt.stderr);
    });
  });
});
