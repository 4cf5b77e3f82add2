import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DIST_CLI, ROOT, ensureBuilt } from '../support/build';

/** `index` arguments that would lose something: a schema name with a typo, the source file given as the catalog. */
describe('index refuses arguments that would lose data', function () {
  this.timeout(120_000);
  let dir: string;
  const sha = (f: string): string => crypto.createHash('sha256').update(fs.readFileSync(f)).digest('hex');
  const cli = (args: string[]): { status: number | null; out: string } => {
    const r = spawnSync(process.execPath, [DIST_CLI, ...args], { encoding: 'utf8', env: { ...process.env, SCHEMABRAIN_HOME: dir } });
    return { status: r.status, out: r.stdout + r.stderr };
  };

  before(() => {
    ensureBuilt();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-index-guards-'));
    fs.copyFileSync(path.join(ROOT, 'samples', 'chinook.sqlite'), path.join(dir, 'chinook.sqlite'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('a --schemas name the source does not have stops the run and leaves the catalog as it was', () => {
    const source = path.join(dir, 'chinook.sqlite');
    const catalog = path.join(dir, 'catalog.sqlite');
    assert.equal(cli(['index', '--source', source, '--catalog', catalog, '--json']).status, 0);
    const before = sha(catalog);
    const typo = cli(['index', '--source', source, '--catalog', catalog, '--schemas', 'mian', '--json']);
    assert.notEqual(typo.status, 0, typo.out);
    assert.match(typo.out, /"kind":"schema_missing"/);
    assert.match(typo.out, /no schema 'mian'/);
    assert.equal(sha(catalog), before);
    const q = cli(['query', 'SELECT COUNT(*) AS n FROM Album', '--catalog', catalog, '--json', '--no-audit']);
    assert.match(q.out, /"rows":\[\[347\]\]/, q.out);
  });

  it('the source file given as --catalog (with or without --rebuild) is neither indexed into nor moved', () => {
    const source = path.join(dir, 'chinook.sqlite');
    const before = sha(source);
    for (const extra of [[], ['--rebuild']]) {
      const r = cli(['index', '--source', source, '--catalog', source, '--json', ...extra]);
      assert.notEqual(r.status, 0, r.out);
      assert.match(r.out, /is the SQLite file being indexed/);
      assert.ok(fs.existsSync(source), 'the database is where it was');
      assert.equal(sha(source), before);
    }
    assert.deepEqual(fs.readdirSync(dir).filter((f) => f.includes('corrupt')), []);
  });
});
