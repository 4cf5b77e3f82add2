import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { listAudit, verifyAudit } from '../../../src/core/audit/verify';
import { openAuditLog } from '../../../src/core/audit/log';
import { row, tempDir } from '../../unit/audit/helpers';

const ROOT = path.resolve(__dirname, '../../..');
const WORKER = path.join(__dirname, 'append-worker.ts');

interface Ack {
  readonly seq: number;
  readonly worker: string;
  readonly i: number;
}

function startWorker(file: string, worker: string, count: number, onAck?: (a: Ack) => void): { child: ChildProcess; done: Promise<{ code: number | null; signal: NodeJS.Signals | null; acks: Ack[]; stderr: string }> } {
  const child = spawn(process.execPath, ['-r', 'tsx/cjs', WORKER, file, worker, String(count)], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const acks: Ack[] = [];
  let buf = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => {
    buf += d.toString();
    let nl: number;
    while ((nl = buf.indexOf('\n')) !== -1) {
      const [tag, seq, w, i] = buf.slice(0, nl).split(' ');
      buf = buf.slice(nl + 1);
      if (tag !== 'ack') continue;
      const a = { seq: Number(seq), worker: w, i: Number(i) };
      acks.push(a);
      onAck?.(a);
    }
  });
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; acks: Ack[]; stderr: string }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, acks, stderr })),
  );
  return { child, done };
}

describe('audit log across processes', function () {
  this.timeout(90_000);
  let dir: string;
  beforeEach(() => {
    dir = tempDir('procs');
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('keeps every acknowledged row of a writer killed with SIGKILL, and the log still verifies', async () => {
    const file = path.join(dir, 'audit.log');
    let killAt = 0;
    const w = startWorker(file, 'k', 0, (a) => {
      // Kill at a moment that varies with scheduling, somewhere past the 150th acknowledgement.
      if (a.i >= 150 && killAt === 0) {
        killAt = a.seq;
        setTimeout(() => w.child.kill('SIGKILL'), Math.floor(Math.random() * 5));
      }
    });
    const { signal, acks } = await w.done;
    assert.equal(signal, 'SIGKILL');
    assert.ok(acks.length >= 151, `got ${acks.length} acknowledgements`);
    const r = await verifyAudit(file);
    assert.equal(r.ok, true, JSON.stringify(r));
    const rows = await listAudit(file, { limit: 100_000 });
    const bySeq = new Map(rows.map((x) => [x.seq, x]));
    for (const a of acks) {
      const got = bySeq.get(a.seq);
      assert.ok(got, `acknowledged seq ${a.seq} is in the log`);
      assert.equal(got.rowCount, a.i);
    }
    // A later writer repairs any torn tail and continues the chain.
    const log = openAuditLog(file);
    const next = await log.append(row());
    await log.close();
    assert.equal(next.seq, r.headSeq + 1);
    const after = await verifyAudit(file);
    assert.equal(after.ok, true);
    assert.equal(after.torn, undefined);
    // The killed writer's lock draft (and any lock it held) were cleaned up by the next writer.
    assert.deepEqual(fs.readdirSync(dir).filter((f) => f.startsWith('audit.log.lock')), []);
  });

  it('chains appends from four processes at once into one log with every row exactly once', async () => {
    const file = path.join(dir, 'audit.log');
    const perWorker = 150;
    const workers = ['a', 'b', 'c', 'd'].map((id) => startWorker(file, id, perWorker));
    const results = await Promise.all(workers.map((w) => w.done));
    for (const res of results) assert.equal(res.code, 0, res.stderr);
    const r = await verifyAudit(file);
    assert.equal(r.ok, true, JSON.stringify(r));
    assert.equal(r.rows, 4 * perWorker);
    const rows = await listAudit(file, { limit: 100_000 });
    const keys = rows.map((x) => `${x.tool}:${x.rowCount}`);
    assert.equal(new Set(keys).size, keys.length, 'no row written twice');
    for (const id of ['a', 'b', 'c', 'd']) {
      for (let i = 0; i < perWorker; i++) assert.ok(keys.includes(`worker_${id}:${i}`), `worker ${id} row ${i} present`);
    }
    // The seqs each process was told are the seqs on disk.
    const bySeq = new Map(rows.map((x) => [x.seq, `${x.tool}:${x.rowCount}`]));
    for (const res of results) for (const a of res.acks) assert.equal(bySeq.get(a.seq), `worker_${a.worker}:${a.i}`);
    assert.ok(!fs.existsSync(`${file}.lock`), 'the lock is released');
  });

  it('lets the other writers carry on when one is killed mid-append, whatever lock it held', async () => {
    const file = path.join(dir, 'audit.log');
    let killed = false;
    const victim = startWorker(file, 'v', 0, (a) => {
      if (a.i >= 30 && !killed) {
        killed = true;
        victim.child.kill('SIGKILL');
      }
    });
    const others = ['x', 'y', 'z'].map((id) => startWorker(file, id, 100));
    const [v, ...rest] = await Promise.all([victim.done, ...others.map((w) => w.done)]);
    assert.equal(v.signal, 'SIGKILL');
    for (const res of rest) assert.equal(res.code, 0, res.stderr);
    const r = await verifyAudit(file);
    assert.equal(r.ok, true, JSON.stringify(r));
    const bySeq = new Map((await listAudit(file, { limit: 100_000 })).map((x) => [x.seq, `${x.tool}:${x.rowCount}`]));
    for (const res of [v, ...rest]) for (const a of res.acks) assert.equal(bySeq.get(a.seq), `worker_${a.worker}:${a.i}`);
    assert.equal([...bySeq.values()].filter((k) => !k.startsWith('worker_v')).length, 300);
  });
});
