import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { acquireLock, LockTimeoutError } from '../../../src/core/audit/lock';
import { AuditError, openAuditLog } from '../../../src/core/audit/log';
import { processStartTime } from '../../../src/core/util/process';
import { row, tempDir } from './helpers';

/** A pid that certainly belonged to a process that has exited. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(r.stdout.toString());
}

describe('audit inter-process lock', () => {
  let dir: string;
  beforeEach(() => {
    dir = tempDir('lock');
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('excludes a second holder until the first releases', async () => {
    const lockPath = path.join(dir, 'x.lock');
    const first = await acquireLock(lockPath, { timeoutMs: 1000 });
    let secondGot = false;
    const second = acquireLock(lockPath, { timeoutMs: 2000 }).then((l) => {
      secondGot = true;
      return l;
    });
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(secondGot, false);
    first.release();
    (await second).release();
    assert.equal(secondGot, true);
    assert.ok(!fs.existsSync(lockPath));
  });

  it('breaks a lock left by a dead process on this host', async () => {
    const lockPath = path.join(dir, 'x.lock');
    fs.writeFileSync(lockPath, `${deadPid()}\n${os.hostname()}\nfeedface\n`);
    const started = Date.now();
    const held = await acquireLock(lockPath, { timeoutMs: 1000 });
    assert.ok(Date.now() - started < 500);
    assert.match(fs.readFileSync(lockPath, 'utf8'), new RegExp(`^${process.pid}\\n`));
    held.release();
  });

  it('breaks a lock of another host only once it is older than foreignStaleMs', async () => {
    const lockPath = path.join(dir, 'x.lock');
    fs.writeFileSync(lockPath, `1\nsome-other-host\nfeedface\n`);
    await assert.rejects(acquireLock(lockPath, { timeoutMs: 100, foreignStaleMs: 30_000 }), LockTimeoutError);
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(lockPath, old, old);
    const held = await acquireLock(lockPath, { timeoutMs: 1000, foreignStaleMs: 30_000 });
    held.release();
  });

  it('never breaks an old lock while its owner on this host is alive', async () => {
    const lockPath = path.join(dir, 'x.lock');
    // pid 1 with its real start time: alive, however old the file.
    fs.writeFileSync(lockPath, `1\n${os.hostname()}\nfeedface\n${processStartTime(1) ?? ''}\n`);
    const old = new Date(Date.now() - 24 * 3600_000);
    fs.utimesSync(lockPath, old, old);
    await assert.rejects(acquireLock(lockPath, { timeoutMs: 200 }), LockTimeoutError);
    assert.ok(fs.existsSync(lockPath));
  });

  it('breaks a lock whose pid now belongs to another process (pid reuse: start time differs)', async function () {
    if (processStartTime(1) === undefined) this.skip(); // no /proc here
    const lockPath = path.join(dir, 'x.lock');
    fs.writeFileSync(lockPath, `1\n${os.hostname()}\nfeedface\n1\n`);
    const held = await acquireLock(lockPath, { timeoutMs: 1000 });
    assert.ok(held.stillHeld());
    held.release();
  });

  it('treats an owner-less lock file as being written until it is older than foreignStaleMs', async () => {
    const lockPath = path.join(dir, 'x.lock');
    fs.writeFileSync(lockPath, '');
    const started = Date.now();
    const held = await acquireLock(lockPath, { timeoutMs: 3000, foreignStaleMs: 300 });
    const waited = Date.now() - started;
    assert.ok(waited >= 250 && waited < 2500, `waited ${waited} ms`);
    held.release();
    assert.deepEqual(fs.readdirSync(dir), [], 'no lock and no draft file left behind');
  });

  it('times out on a live holder and the append rejects with lock_timeout', async () => {
    const file = path.join(dir, 'audit.log');
    // pid 1 is alive on every Unix host.
    fs.writeFileSync(`${file}.lock`, `1\n${os.hostname()}\nfeedface\n`);
    await assert.rejects(acquireLock(`${file}.lock`, { timeoutMs: 100 }), LockTimeoutError);
    const log = openAuditLog(file, { lock: { timeoutMs: 100 } });
    await assert.rejects(log.append(row()), (e: unknown) => e instanceof AuditError && e.kind === 'lock_timeout');
    fs.rmSync(`${file}.lock`);
    assert.equal((await log.append(row())).seq, 1, 'the log works again once the holder is gone');
    await log.close();
  });

  it('does not remove a lock that another process took after ours was broken', async () => {
    const lockPath = path.join(dir, 'x.lock');
    const mine = await acquireLock(lockPath, { timeoutMs: 1000 });
    fs.writeFileSync(lockPath, `1\n${os.hostname()}\nsomeoneelse\n`);
    assert.equal(mine.stillHeld(), false, 'the holder sees that the lock is no longer its own');
    mine.release();
    assert.ok(fs.existsSync(lockPath));
  });
});
