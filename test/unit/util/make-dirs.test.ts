import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { makeDirs } from '../../../src/core/util/make-dirs';
import { DIST_CLI, ensureBuilt, ROOT } from '../../support/build';

describe('makeDirs (mkdir -p that ends)', () => {
  const base = (): string => fs.mkdtempSync(path.join(os.tmpdir(), 'sb-mkdirs-'));

  it('creates the missing directories with the mode asked, returns the first, and nothing when all exist', () => {
    const b = base();
    const deep = path.join(b, 'a', 'b', 'c');
    assert.equal(makeDirs(deep, 0o700), path.join(b, 'a'));
    assert.ok(fs.statSync(deep).isDirectory());
    assert.equal(fs.statSync(path.join(b, 'a')).mode & 0o777, 0o700 & ~process.umask());
    assert.equal(makeDirs(deep, 0o700), undefined);
  });

  it('throws ENOTDIR where a file stands in the way', () => {
    const b = base();
    fs.writeFileSync(path.join(b, 'file'), 'x');
    assert.throws(() => makeDirs(path.join(b, 'file', 'sub')), (e: NodeJS.ErrnoException) => e.code === 'ENOTDIR');
  });

  it('throws at once under /proc, where Node\'s recursive mkdir retries without end', function () {
    if (!fs.existsSync('/proc/self')) this.skip();
    const started = Date.now();
    assert.throws(() => makeDirs('/proc/sb-no-such/x', 0o700), (e: NodeJS.ErrnoException) => typeof e.code === 'string');
    assert.ok(Date.now() - started < 1000);
  });

  it('`index` with a catalog under /proc ends with a typed error instead of spinning', function () {
    if (!fs.existsSync('/proc/self')) this.skip();
    this.timeout(60_000);
    ensureBuilt();
    const r = spawnSync(process.execPath, [DIST_CLI, 'index', '--source', path.join(ROOT, 'samples', 'chinook.sqlite'), '--name', 'c', '--catalog', '/proc/sb-no-such/c.sqlite', '--json'], {
      encoding: 'utf8',
      timeout: 30_000,
      env: { ...process.env, SCHEMABRAIN_HOME: base() },
    });
    assert.equal(r.signal, null, 'ended on its own');
    assert.equal(r.status, 2, r.stderr + r.stdout);
    assert.match(r.stdout + r.stderr, /catalog directory/);
  });
});
