import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DIST_CLI, ROOT, ensureBuilt } from '../../support/build';

/**
 * A disk that fills up while the catalog is written: the write comes back short. The indexer runs under a file-size
 * limit smaller than the catalog (bash `ulimit -f`, with SIGXFSZ ignored so the write fails instead of killing the
 * process), which gives the same short write a full disk does. The previous catalog must stay, whole, and the run
 * must say it failed.
 */
describe('indexing when the disk is full', function () {
  this.timeout(120_000);
  let dir: string;

  before(function () {
    if (process.platform !== 'linux') this.skip();
    ensureBuilt();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-diskfull-'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  const sha = (f: string): string => crypto.createHash('sha256').update(fs.readFileSync(f)).digest('hex');

  it('a short write of the catalog keeps the previous catalog and exits with an error', () => {
    const source = path.join(dir, 'chinook.sqlite');
    fs.copyFileSync(path.join(ROOT, 'samples', 'chinook.sqlite'), source);
    const catalog = path.join(dir, 'catalog.sqlite');
    const env = { ...process.env, SCHEMABRAIN_HOME: dir };
    const first = spawnSync(process.execPath, [DIST_CLI, 'index', '--source', source, '--catalog', catalog, '--json'], { encoding: 'utf8', env });
    assert.equal(first.status, 0, first.stderr);
    const before = sha(catalog);
    const kb = Math.floor(fs.statSync(catalog).size / 1024 / 2);
    assert.ok(kb > 8, `catalog of ${fs.statSync(catalog).size} bytes`);
    const limited = spawnSync('bash', ['-c', `trap '' XFSZ; ulimit -f ${kb}; exec "$0" "$@"`, process.execPath, DIST_CLI, 'index', '--source', source, '--catalog', catalog, '--full', '--json'], { encoding: 'utf8', env });
    assert.notEqual(limited.status, 0, `the run reports the failure: ${limited.stdout.slice(-400)}`);
    assert.match(limited.stdout + limited.stderr, /could not write the catalog|previous catalog is kept/, limited.stdout.slice(-400) + limited.stderr.slice(-400));
    assert.equal(sha(catalog), before, 'the previous catalog is untouched');
    assert.deepEqual(fs.readdirSync(dir).filter((f) => f.endsWith('.tmp')), [], 'no temp file is left behind');
    // And it still answers.
    const q = spawnSync(process.execPath, [DIST_CLI, 'query', 'SELECT COUNT(*) AS n FROM Artist', '--catalog', catalog, '--json', '--no-audit'], { encoding: 'utf8', env });
    assert.equal(q.status, 0, q.stdout + q.stderr);
    assert.match(q.stdout, /"rows":\[\[275\]\]/);
  });
});
