import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { acquireLock, LockTimeoutError } from '../../../src/core/audit/lock';
import { AuditError, openAuditLog } from '../../../src/core/audit/log';
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
    const first = await acquireLock(lockPath, { timeoutMs: 1000, staleMs: 30_000 });
    let secondGot = false;
    const second = acquireLock(lockPath, { timeoutMs: 2000, staleMs: 30_000 }).then((l) => {
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
    const held = await acquireLock(lockPath, { timeoutMs: 1000, staleMs: 30_000 });
    assert.ok(Date.now() - started < 500);
    assert.match(fs.readFileSync(lockPath, 'utf8'), new RegExp(`^${process.pid}\\n`));
    held.release();
  });

  it('breaks a lock older than staleMs whatever its owner (another host, pid reuse)', async () => {
    const lockPath = path.join(dir, 'x.lock');
    fs.writeFileSync(lockPath, `1\nsome-other-host\nfeedface\n`);
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(lockPath, old, old);
    const held = await acquireLock(lockPath, { timeoutMs: 1000, staleMs: 30_000 });
    held.release();
  });

  it('treats an owner-less lock file as live until it is older than staleMs', async () => {
    const lockPath = path.join(dir, 'x.lock');
    fs.writeFileSync(lockPath, '');
    const started = Date.now();
    const held = await acquireLock(lockPath, { timeoutMs: 3000, staleMs: 300 });
    const waited = Date.now() - started;
    assert.ok(waited >= 250 && waited < 2500, `waited ${waited} ms`);
    held.release();
    assert.deepEqual(fs.readdirSync(dir), [], 'no lock and no draft file left behind');
  });

  it('times out on a live holder and the append rejects with lock_timeout', async () => {
    const file = path.join(dir, 'audit.log');
    // pid 1 is alive on every Unix host.
    fs.writeFileSync(`${file}.lock`, `1\n${os.hostname()}\nfeedface\n`);
    await assert.rejects(acquireLock(`${file}.lock`, { timeoutMs: 100, staleMs: 30_000 }), LockTimeoutError);
    const log = openAuditLog(file, { lock: { timeoutMs: 100 } });
    await assert.rejects(log.append(row()), (e: unknown) => e instanceof AuditError && e.kind === 'lock_timeout');
    fs.rmSync(`${file}.lock`);
    assert.equal((await log.append(row())).seq, 1, 'the log works again once the holder is gone');
    await log.close();
  });

  it('does not remove a lock that another process took after ours was broken', async () => {
    const lockPath = path.join(dir, 'x.lock');
    const mine = await acquireLock(lockPath, { timeoutMs: 1000, staleMs: 30_000 });
    fs.writeFileSync(lockPath, `1\n${os.hostname()}\nsomeoneelse\n`);
    mine.release();
    assert.ok(fs.existsSync(lockPath));
  });
});
