import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { AuditError, openAuditLog } from '../../../src/core/audit/log';
import { listAudit, verifyAudit } from '../../../src/core/audit/verify';
import { row, tempDir } from './helpers';

describe('audit log guards', () => {
  let dir: string;
  beforeEach(() => {
    dir = tempDir('guards');
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a log path under /proc, /sys or /dev, and one that is not a regular file, with a typed error', () => {
    for (const p of ['/proc/self/status', '/proc/1/fd/audit.log', '/dev/null', '/sys/kernel/audit.log']) {
      assert.throws(() => openAuditLog(p), (e: unknown) => e instanceof AuditError && e.kind === 'unwritable', p);
    }
    const sub = path.join(dir, 'a-directory');
    fs.mkdirSync(sub);
    assert.throws(() => openAuditLog(sub), (e: unknown) => e instanceof AuditError && /not a regular file/.test(e.message));
  });

  it('never writes through a symbolic link at the log path, planted before it opens or after', async () => {
    const victim = path.join(dir, 'victim.txt');
    fs.writeFileSync(victim, 'keep\n', { mode: 0o644 });
    fs.chmodSync(victim, 0o644);
    const linked = path.join(dir, 'linked.log');
    fs.symlinkSync(victim, linked);
    assert.throws(() => openAuditLog(linked), (e: unknown) => e instanceof AuditError && e.kind === 'unwritable' && /symbolic link/.test(e.message));
    // A link that appears between the check and the first write is not followed either.
    const later = path.join(dir, 'later.log');
    const log = openAuditLog(later);
    fs.symlinkSync(victim, later);
    await assert.rejects(log.append(row()), (e: unknown) => e instanceof AuditError && e.kind === 'unwritable');
    await log.close();
    assert.equal(fs.readFileSync(victim, 'utf8'), 'keep\n');
    assert.equal(fs.statSync(victim).mode & 0o777, 0o644);
  });

  it('never writes a row with a time before the previous row’s, even when another server’s clock is ahead', async () => {
    const file = path.join(dir, 'audit.log');
    const ahead = openAuditLog(file);
    await ahead.append(row({ time: '2999-01-01T00:00:00.000000Z' }));
    await ahead.close();
    const behind = openAuditLog(file);
    const rec = await behind.append(row({ time: '2001-01-01T00:00:00.000000Z' }));
    await behind.close();
    assert.equal(rec.time, '2999-01-01T00:00:00.000000Z');
    const rows = await listAudit(file, { newestFirst: false });
    assert.ok(rows[1].time >= rows[0].time);
    assert.equal((await verifyAudit(file)).ok, true);
  });
});
