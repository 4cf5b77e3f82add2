import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { CatalogStore } from '../../../src/core/catalog/store';
import { CLI, jsonLines, ROOT, runProcess, tempDir, writeSqliteSource } from './support';

const WORKER = path.join(__dirname, 'index-worker.ts');
const ROUNDS = Number(process.env.SCHEMABRAIN_FAULT_INDEX_ROUNDS ?? 100);

interface Report {
  readonly round: number;
  readonly ok: boolean;
  readonly detail: string;
}

/** One long-lived indexer process per source, so 100 rounds cost three process start-ups, not three hundred. */
function startWorker(base: string, source: string, name: string, rounds: number, onReport: (name: string, r: Report) => void): { child: ChildProcess; ready: Promise<void>; done: Promise<string> } {
  const child = spawn(process.execPath, ['-r', 'tsx/cjs', WORKER, base, source, name, String(rounds)], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let buf = '';
  let stderr = '';
  let readyResolve!: () => void;
  const ready = new Promise<void>((r) => (readyResolve = r));
  child.stdout!.on('data', (d: Buffer) => {
    buf += d.toString();
    let nl: number;
    while ((nl = buf.indexOf('\n')) !== -1) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      if (line === 'ready') readyResolve();
      const m = /^(done|err) (\d+) (.*)$/.exec(line);
      if (m) onReport(name, { round: Number(m[2]), ok: m[1] === 'done', detail: m[3] });
    }
  });
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<string>((resolve) => child.on('close', () => resolve(stderr)));
  return { child, ready, done };
}

async function sourcesIn(catalog: string): Promise<string[]> {
  const store = await CatalogStore.open(catalog);
  try {
    return store.listSources().map((s) => s.info.name).sort();
  } finally {
    store.close();
  }
}

describe('faults: concurrent indexers on one home', function () {
  this.timeout(180_000);
  let dir: string;
  before(() => {
    dir = tempDir('idx');
  });
  after(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it(`${ROUNDS} rounds of three concurrent indexers of different sources: no source lost, every run reports truthfully`, async () => {
    const names = ['alpha', 'beta', 'gamma'];
    const base = path.join(dir, 'rounds');
    fs.mkdirSync(base);
    for (const n of names) await writeSqliteSource(path.join(dir, `${n}.sqlite`), n);
    const reports = new Map<number, Map<string, Report>>();
    let roundDone: (() => void) | null = null;
    const onReport = (name: string, r: Report): void => {
      const m = reports.get(r.round) ?? new Map<string, Report>();
      m.set(name, r);
      reports.set(r.round, m);
      if (m.size === names.length) roundDone?.();
    };
    const workers = names.map((n) => startWorker(base, path.join(dir, `${n}.sqlite`), n, ROUNDS, onReport));
    try {
      await Promise.all(workers.map((w) => w.ready));
      const lost: string[] = [];
      for (let r = 0; r < ROUNDS; r++) {
        fs.mkdirSync(path.join(base, `r${r}`));
        const finished = new Promise<void>((res) => (roundDone = res));
        fs.writeFileSync(path.join(base, `go-${r}`), '');
        await finished;
        const got = reports.get(r)!;
        const present = await sourcesIn(path.join(base, `r${r}`, 'catalog.sqlite'));
        for (const n of names) {
          const rep = got.get(n)!;
          // Truthful: a run that reported success has its source in the catalog; with a live lock holder the others
          // wait (30 s) rather than fail, so every run of the round must succeed.
          if (!rep.ok) lost.push(`round ${r}: ${n} failed: ${rep.detail}`);
          else if (!present.includes(n)) lost.push(`round ${r}: ${n} reported success (${rep.detail}) but is not in the catalog (${present.join(',')})`);
        }
      }
      assert.deepEqual(lost, [], `${lost.length} lost or failed runs`);
    } finally {
      for (const w of workers) w.child.kill('SIGKILL');
      await Promise.all(workers.map((w) => w.done));
    }
  });

  it('three concurrent `index` CLI processes on one home: each reports success and every source is in the catalog', async function () {
    if (!fs.existsSync(CLI)) this.skip(); // needs `node esbuild.mjs`
    const names = ['delta', 'epsilon', 'zeta'];
    for (const n of names) await writeSqliteSource(path.join(dir, `${n}.sqlite`), n);
    for (let round = 0; round < 1; round++) {
      const catalog = path.join(dir, `cli-${round}`, 'catalog.sqlite');
      const runs = await Promise.all(
        names.map((n) => runProcess(process.execPath, [CLI, 'index', '--source', path.join(dir, `${n}.sqlite`), '--name', n, '--catalog', catalog, '--sample-rows', '0', '--json'], { timeoutMs: 60_000 })),
      );
      for (const [i, run] of runs.entries()) {
        assert.equal(run.hung, false);
        const result = jsonLines(run.stdout).find((l) => l.type === 'result');
        assert.equal(run.code, 0, run.stdout + run.stderr);
        assert.equal(result?.source, names[i]);
      }
      assert.deepEqual(await sourcesIn(catalog), names);
    }
  });

  it('removes temp catalogs of killed indexers (dead pid) on the next run, and keeps those of live ones', async function () {
    if (!fs.existsSync(CLI)) this.skip();
    const home = path.join(dir, 'tmp-home');
    fs.mkdirSync(home);
    const catalog = path.join(home, 'catalog.sqlite');
    const dead = spawn(process.execPath, ['-e', '']);
    await new Promise((r) => dead.on('close', r));
    const deadTmp = path.join(home, `.catalog.sqlite.${dead.pid}.${Date.now()}.tmp`);
    const liveTmp = path.join(home, `.catalog.sqlite.${process.pid}.${Date.now()}.tmp`);
    fs.writeFileSync(deadTmp, Buffer.alloc(4096));
    fs.writeFileSync(liveTmp, Buffer.alloc(4096));
    await writeSqliteSource(path.join(dir, 'eta.sqlite'), 'eta');
    const run = await runProcess(process.execPath, [CLI, 'index', '--source', path.join(dir, 'eta.sqlite'), '--catalog', catalog, '--sample-rows', '0', '--json'], { timeoutMs: 60_000 });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(fs.existsSync(deadTmp), false, 'the dead indexer’s temp catalog is removed');
    assert.equal(fs.existsSync(liveTmp), true, 'a live process’s temp catalog is kept');
  });
});
