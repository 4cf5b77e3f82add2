import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { verifyAudit } from '../../../src/core/audit/verify';
import { runIndex } from '../../../src/core/indexing/run-index';
import { classifyColumn } from '../../../src/core/pii';
import { createIntrospector } from '../../../src/core/sources';
import { parseSourceSpec } from '../../../src/core/sources/locator';
import { argsFingerprint, auditedFingerprints, auditedServer, DATA_STATUSES, questionArgs, ROOT, runProcess, SERVER, tempDir, writeSqliteSource } from './support';

const WORKER = path.join(__dirname, 'call-worker.ts');

interface Answer {
  readonly worker: string;
  readonly i: number;
  readonly status: string;
  readonly kind: string;
}

function startCaller(catalog: string, audit: string, worker: string, answers: Answer[], lockTimeoutMs = 2000): { child: ChildProcess; ready: Promise<void>; done: Promise<void> } {
  const child = spawn(process.execPath, ['-r', 'tsx/cjs', WORKER, catalog, audit, worker, '0', String(lockTimeoutMs)], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let buf = '';
  let readyResolve!: () => void;
  const ready = new Promise<void>((r) => (readyResolve = r));
  child.stdout!.on('data', (d: Buffer) => {
    buf += d.toString();
    let nl: number;
    while ((nl = buf.indexOf('\n')) !== -1) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      if (line === 'ready') readyResolve();
      const m = /^ans (\d+) (\S+) (\S+)$/.exec(line);
      if (m) answers.push({ worker, i: Number(m[1]), status: m[2], kind: m[3] });
    }
  });
  child.stderr!.resume();
  const done = new Promise<void>((resolve) => child.on('close', () => resolve()));
  return { child, ready, done };
}

/** Data answers whose audit row is not in the log (found by the call's unique args fingerprint). */
async function unaudited(auditPath: string, answers: readonly { tag: string; status: string }[]): Promise<string[]> {
  const rows = await auditedFingerprints(auditPath);
  return answers.filter((a) => DATA_STATUSES.has(a.status) && !rows.has(argsFingerprint(questionArgs(a.tag)))).map((a) => a.tag);
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Whether this process may mount a small tmpfs (root in a container that allows it). */
function canMountTmpfs(dir: string): boolean {
  try {
    fs.mkdirSync(dir, { recursive: true });
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function umount(dir: string): void {
  try {
    execFileSync('umount', ['-l', dir], { stdio: 'ignore' }); // lazy: a descriptor left open by a failed test must not wedge it
  } catch {
    // not mounted
  }
}

describe('faults: no tool answer without its durable audit row', function () {
  this.timeout(120_000);
  let dir: string;
  let catalog: string;
  before(async () => {
    dir = tempDir('audit');
    const source = path.join(dir, 'shop.sqlite');
    await writeSqliteSource(source, 'orders', 3);
    catalog = path.join(dir, 'catalog.sqlite');
    await runIndex({ spec: parseSourceSpec(source, { name: 'shop' }), catalogPath: catalog, deps: { createIntrospector, classifyColumn }, sampleRows: 0 });
  });
  after(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a lock holder stopped (SIGSTOP) inside the critical section keeps its lock however old; others answer audit_unavailable, never unaudited data; the chain verifies after SIGCONT', async () => {
    const audit = path.join(dir, 'stall', 'audit.log');
    const lockPath = `${audit}.lock`;
    const answers: Answer[] = [];
    const workers = ['a', 'b', 'c'].map((w) => startCaller(catalog, audit, w, answers));
    const [holder] = workers;
    try {
      await Promise.all(workers.map((w) => w.ready));
      // Rows are flowing before the stall (on a slow machine the first append may still be creating the log).
      for (let waited = 0; waited < 20_000 && !(fs.existsSync(audit) && fs.statSync(audit).size > 0); waited += 100) await sleep(100);
      await sleep(300);
      // Stop the holder at a moment when it holds the audit lock.
      let stopped = false;
      for (let attempt = 0; attempt < 500 && !stopped; attempt++) {
        holder.child.kill('SIGSTOP');
        await sleep(20);
        let owner = '';
        try {
          owner = fs.readFileSync(lockPath, 'utf8').split('\n')[0];
        } catch {
          // no lock right now
        }
        if (owner === String(holder.child.pid) && fs.existsSync(audit)) stopped = true;
        else {
          holder.child.kill('SIGCONT');
          await sleep(Math.random() * 10);
        }
      }
      assert.ok(stopped, 'stopped the holder while it held the lock');
      const lockBody = fs.readFileSync(lockPath, 'utf8');
      const sizeAtStop = fs.statSync(audit).size;
      const before = answers.length;
      // Phase 1: a stall longer than the lock wait: the others must wait, then answer with a retryable error.
      await sleep(3500);
      // Phase 2: make the lock look an hour old (a stall "longer than any threshold"): a live owner keeps it anyway.
      const old = new Date(Date.now() - 3600_000);
      fs.utimesSync(lockPath, old, old);
      await sleep(3000);
      assert.equal(fs.readFileSync(lockPath, 'utf8'), lockBody, 'nobody took the lock of the stopped, live owner');
      assert.equal(fs.statSync(audit).size, sizeAtStop, 'no row was appended while the holder was stopped');
      const during = answers.slice(before).filter((a) => a.worker !== 'a');
      assert.ok(during.length > 0, 'the other servers answered during the stall');
      assert.ok(
        during.every((a) => a.status === 'error' && a.kind === 'audit_unavailable'),
        `during the stall every answer is audit_unavailable: ${JSON.stringify(during.slice(0, 5))}`,
      );
      holder.child.kill('SIGCONT');
      await sleep(1500);
    } finally {
      for (const w of workers) w.child.kill('SIGCONT');
      for (const w of workers) w.child.kill('SIGKILL');
      await Promise.all(workers.map((w) => w.done));
    }
    const r = await verifyAudit(audit, { full: true });
    assert.equal(r.ok, true, `the chain verifies: ${JSON.stringify(r.ok ? {} : r.breaks.slice(0, 3))}`);
    const missing = await unaudited(audit, answers.map((a) => ({ tag: `${a.worker}-${a.i}`, status: a.status })));
    assert.deepEqual(missing, [], 'every data answer has its audit row');
    assert.ok(answers.filter((a) => DATA_STATUSES.has(a.status)).length > 50, `calls were answered with data before and after the stall: ${JSON.stringify(answers.slice(0, 3))}`);
  });

  it('a full disk: calls whose row cannot be written are answered audit_unavailable, never with data; the log still verifies', async function () {
    const mnt = path.join(dir, 'full');
    if (!canMountTmpfs(mnt)) this.skip(); // needs root and permission to mount a 64 KiB tmpfs
    try {
      const audit = path.join(mnt, 'audit.log');
      const { server, recorder } = await auditedServer(catalog, audit);
      const answers: Array<{ tag: string; status: string; kind: string }> = [];
      for (let i = 0; i < 400; i++) {
        const env = await server.callTool('find_relevant_tables', questionArgs(`full-${i}`));
        answers.push({ tag: `full-${i}`, status: env.status, kind: env.error?.kind ?? '-' });
      }
      await recorder.close();
      assert.deepEqual(await unaudited(audit, answers), [], 'no data answer lacks its row');
      const refused = answers.filter((a) => a.kind === 'audit_unavailable').length;
      assert.ok(refused > 0, 'the disk filled up during the run');
      assert.ok(answers.some((a) => DATA_STATUSES.has(a.status)), `calls were answered with data while there was room: ${JSON.stringify(answers.slice(0, 3))}`);
      const r = await verifyAudit(audit);
      assert.equal(r.ok, true, JSON.stringify(r));
    } finally {
      umount(mnt);
    }
  });

  it('a damaged last line: calls answer audit_unavailable saying retries will not help and what to run, not "retry"', async () => {
    const audit = path.join(dir, 'damaged-audit.log');
    {
      const { server, recorder } = await auditedServer(catalog, audit);
      const first = await server.callTool('find_relevant_tables', questionArgs('before-damage'));
      assert.ok(DATA_STATUSES.has(first.status), JSON.stringify(first).slice(0, 200));
      await recorder.close();
    }
    fs.appendFileSync(audit, 'junk\n');
    const { server, recorder } = await auditedServer(catalog, audit);
    try {
      const env = await server.callTool('find_relevant_tables', questionArgs('after-damage'));
      assert.equal(env.error?.kind, 'audit_unavailable', JSON.stringify(env).slice(0, 300));
      assert.doesNotMatch(env.error!.message, /Retry in a few seconds/);
      assert.match(env.error!.message, /schemabrain audit verify/);
      assert.equal(env.data, null);
    } finally {
      await recorder.close();
    }
  });

  it('a read-only home: every call is answered audit_unavailable (or, with --audit-fail-open, answered and the gap recorded)', async function () {
    const mnt = path.join(dir, 'ro');
    if (!canMountTmpfs(mnt)) this.skip(); // needs root and permission to mount a tmpfs
    try {
      const audit = path.join(mnt, 'audit.log');
      const first = await auditedServer(catalog, audit);
      assert.ok(DATA_STATUSES.has((await first.server.callTool('find_relevant_tables', questionArgs('ro-first'))).status));
      await first.recorder.close();
      execFileSync('mount', ['-o', 'remount,ro', mnt]);
      const { server, recorder } = await auditedServer(catalog, audit);
      const answers: Array<{ tag: string; status: string; kind: string }> = [];
      for (let i = 0; i < 50; i++) {
        const env = await server.callTool('find_relevant_tables', questionArgs(`ro-${i}`));
        answers.push({ tag: `ro-${i}`, status: env.status, kind: env.error?.kind ?? '-' });
      }
      await recorder.close();
      assert.ok(answers.every((a) => a.kind === 'audit_unavailable'), JSON.stringify(answers.slice(0, 3)));
      assert.deepEqual(await unaudited(audit, answers), []);
      // Fail-open: answered, and the log records the mode and the gap once it is writable again.
      const open = await auditedServer(catalog, audit, { failOpen: true });
      assert.ok(DATA_STATUSES.has((await open.server.callTool('find_relevant_tables', questionArgs('ro-open-1'))).status));
      execFileSync('mount', ['-o', 'remount,rw', mnt]);
      assert.ok(DATA_STATUSES.has((await open.server.callTool('find_relevant_tables', questionArgs('ro-open-2'))).status));
      await open.recorder.close();
      const text = fs.readFileSync(audit, 'utf8');
      assert.match(text, /"tool":"audit:fail_open"/);
      assert.match(text, /"row_count":1,.*"tool":"audit:gap"/);
      assert.equal((await verifyAudit(audit)).ok, true);
    } finally {
      umount(mnt);
    }
  });

  it('serve refuses an --audit-path under /proc with a typed message and exit 2 (it used to spin at 100 % CPU)', async function () {
    if (!fs.existsSync(SERVER)) this.skip(); // needs `node esbuild.mjs`
    const run = await runProcess(process.execPath, [SERVER, '--catalog', catalog, '--audit-path', '/proc/self/status'], { timeoutMs: 30_000 });
    assert.equal(run.hung, false);
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /audit: \/proc\/self\/status is under a kernel file system/);
  });

  it('SIGTERM under load: the server drains its calls; every answer that carries data has its audit row', async function () {
    if (!fs.existsSync(SERVER)) this.skip(); // needs `node esbuild.mjs`
    const home = path.join(dir, 'term');
    fs.mkdirSync(home);
    const audit = path.join(home, 'audit.log');
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [SERVER, '--catalog', catalog, '--audit-path', audit],
      env: { ...(process.env as Record<string, string>), SCHEMABRAIN_HOME: home },
      stderr: 'ignore',
    });
    const client = new Client({ name: 'faults', version: '1' });
    await client.connect(transport);
    const answers: Array<{ tag: string; status: string; kind: string }> = [];
    const errors: string[] = [];
    let n = 0;
    let running = true;
    const lane = async (): Promise<void> => {
      while (running) {
        const tag = `term-${n++}`;
        try {
          const res = await client.callTool({ name: 'find_relevant_tables', arguments: questionArgs(tag) });
          const env = res.structuredContent as { status: string; error?: { kind: string } | null };
          answers.push({ tag, status: env.status, kind: env.error?.kind ?? '-' });
        } catch (e) {
          errors.push((e as Error).message);
          running = false; // the connection closed: that call was not answered
        }
      }
    };
    const lanes = Array.from({ length: 16 }, lane);
    while (answers.length < 40) await sleep(50);
    const atTerm = answers.length;
    process.kill(transport.pid!, 'SIGTERM');
    await Promise.race([Promise.all(lanes), sleep(30_000)]);
    running = false;
    await client.close().catch(() => undefined);
    assert.ok(answers.length > 40, `answered ${answers.length} calls before the shutdown (${errors.slice(0, 3).join('; ')})`);
    assert.ok(answers.length > atTerm, 'calls in flight at SIGTERM were still answered');
    assert.deepEqual(await unaudited(audit, answers), [], 'every data answer has its row');
    assert.equal((await verifyAudit(audit)).ok, true);
  });
});
