/**
 * The first find_relevant_tables after a cold start, measured on its own: CPU time (user + system, which waiting for
 * a core does not inflate) and wall time, in-process by phase and as a whole server process.
 *
 *   npx tsx bench/perf/first-find.ts --catalog <file> [--runs N] [--query TEXT] [--server dist/server.js] [--pause MS]
 *
 * In-process (a fresh Node process per run, so nothing is warm): open the catalog and build the view, build or load
 * the search index, answer one question, then describe one of the hits. Whole process: spawn the server over stdio,
 * wait for tools/list, then time the first find_relevant_tables call and the server's CPU time it took (the server
 * starts loading the catalog after the handshake, so the call includes whatever of the load was still running).
 * `--pause MS` waits that long after tools/list before the call, as a client does that lists the tools long before
 * its first question: the server's warm-up after the handshake has then finished.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { CatalogProvider } from '../../src/core/catalog/provider';
import { DEFAULT_POLICY } from '../../src/core/pii';
import { DerivedData } from '../../src/server/derived';
import { createPiiGate } from '../../src/server/pii-gate';
import { firstFindRun, flagValue as arg, loadAvg, median, memoryOf, round } from '../core/measure';

const ROOT = path.resolve(__dirname, '..', '..');

interface Phase {
  readonly cpuMs: number;
  readonly wallMs: number;
}

async function inProcessChild(catalog: string, query: string): Promise<void> {
  const phases: Record<string, Phase> = {};
  // Module loading is not counted: a server has its modules loaded before the first call.
  let c0 = process.cpuUsage();
  let t0 = performance.now();
  const mark = (name: string): void => {
    const c = process.cpuUsage(c0);
    phases[name] = { cpuMs: round((c.user + c.system) / 1000, 1), wallMs: round(performance.now() - t0, 1) };
    c0 = process.cpuUsage();
    t0 = performance.now();
  };
  const state = await new CatalogProvider(catalog).get();
  if (state.state !== 'ready') throw new Error(`catalog not readable: ${state.state}`);
  mark('catalog');
  const derived = new DerivedData(createPiiGate(DEFAULT_POLICY));
  const index = derived.searchIndex(state.view);
  mark('index');
  const result = index.search(query, { limit: 10 });
  // What the tool does with the hits: resolve each one and read its table.
  let columns = 0;
  for (const h of result.hits) {
    const r = state.view.resolveTable(h.qualifiedName, h.sourceName);
    if (r.ok) columns += r.value.table.columns.length;
  }
  mark('search');
  const top = result.hits[0];
  if (top) {
    const r = state.view.resolveTable(top.qualifiedName, top.sourceName);
    if (r.ok) columns += state.view.incomingForeignKeys(r.value).length + r.value.table.foreignKeys.length;
  }
  mark('describe');
  const rss = memoryOf(process.pid);
  process.stdout.write(`${JSON.stringify({ phases, hits: result.hits.map((h) => h.qualifiedName), columns, rssMiB: rss.rssMiB })}\n`);
}

async function main(): Promise<void> {
  const catalog = arg('--catalog');
  if (!catalog) throw new Error('--catalog <file> is required');
  const query = arg('--query') ?? 'which customers placed orders last month';
  if (process.argv.includes('--child')) return inProcessChild(catalog, query);
  const runs = Number(arg('--runs') ?? 3);
  const pauseMs = Number(arg('--pause') ?? 0);
  if (!Number.isFinite(pauseMs) || pauseMs < 0) throw new Error('--pause takes a number of milliseconds');
  const server = path.resolve(ROOT, arg('--server') ?? 'dist/server.js');
  process.stdout.write(`load average at start: ${loadAvg().join(' / ')}\n`);
  const inProc: Array<Record<string, Phase>> = [];
  for (let i = 0; i < runs; i++) {
    const r = spawnSync(process.execPath, ['--import', 'tsx', __filename, '--child', '--catalog', catalog, '--query', query], { cwd: ROOT, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`in-process run failed: ${r.stderr}`);
    const out = JSON.parse(r.stdout.trim().split('\n').pop()!) as { phases: Record<string, Phase>; hits: string[]; rssMiB: number };
    inProc.push(out.phases);
    process.stdout.write(`in-process run ${i + 1}: ${Object.entries(out.phases).map(([k, v]) => `${k} ${v.cpuMs}/${v.wallMs}`).join(' · ')} (CPU/wall ms) rss ${out.rssMiB} MiB; top hits ${out.hits.slice(0, 3).join(', ')}\n`);
  }
  const names = Object.keys(inProc[0] ?? {});
  process.stdout.write(`in-process median (CPU/wall ms): ${names.map((k) => `${k} ${round(median(inProc.map((p) => p[k]!.cpuMs)), 1)}/${round(median(inProc.map((p) => p[k]!.wallMs)), 1)}`).join(' · ')}\n`);
  const whole: Array<{ wallMs: number; cpuMs: number; cpuTotal: number; startWallMs: number; rssMiB: number }> = [];
  for (let i = 0; i < runs; i++) {
    const { wallMs, cpuMs, cpuTotalMs: cpuTotal, firstListMs, rssMiB } = await firstFindRun(server, catalog, query, pauseMs);
    whole.push({ wallMs: round(wallMs, 1), cpuMs, cpuTotal, startWallMs: round(firstListMs + wallMs, 1), rssMiB });
    process.stdout.write(
      `server run ${i + 1}: first find_relevant_tables ${round(wallMs, 1)} ms wall after tools/list${pauseMs > 0 ? ` and a ${pauseMs} ms pause` : ''} (server CPU ${cpuMs} ms in it); spawn → answer ${round(firstListMs + wallMs, 1)} ms wall, server CPU ${cpuTotal} ms; RSS ${rssMiB} MiB\n`,
    );
  }
  const med = (k: keyof (typeof whole)[number]): number => median(whole.map((w) => w[k]));
  process.stdout.write(`server median: first find ${med('wallMs')} ms wall / ${med('cpuMs')} ms CPU after tools/list; spawn → answer ${med('startWallMs')} ms wall / ${med('cpuTotal')} ms CPU; RSS ${med('rssMiB')} MiB\n`);
  process.stdout.write(`load average at end: ${loadAvg().join(' / ')}\n`);
}

main().catch((e: unknown) => {
  process.stderr.write(`${(e as Error).stack ?? String(e)}\n`);
  process.exit(1);
});
