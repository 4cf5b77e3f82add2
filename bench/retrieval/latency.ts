/**
 * `find_relevant_tables` latency on the largest own catalog (MusicBrainz, 371 tables): `npx tsx bench/retrieval/latency.ts`.
 * Every blind and hand-written MusicBrainz question, three rounds after a warm-up round, with `withJoinTree`.
 * Prints wall-clock percentiles and per-call CPU-time percentiles: on a shared machine the wall clock includes
 * time spent waiting for a core, the CPU time of the call does not.
 */
import { loadavg } from 'node:os';
import { buildSearchIndex } from '../../src/core/search/index';
import { blindSets } from './blind-sets';
import { ownSets } from './datasets';

const own = ownSets();
const mb = own.find((s) => s.name === 'musicbrainz');
if (mb === undefined) throw new Error('MusicBrainz catalog not found in the shared data');
const questions = [...mb.questions, ...(blindSets([mb])[0]?.questions ?? [])].map((q) => q.text);
const index = buildSearchIndex({ tables: mb.tables });
for (const q of questions) index.search(q, { limit: 10, withJoinTree: true });
const wall: number[] = [];
const cpu: number[] = [];
const load0 = loadavg()[0]!;
for (let round = 0; round < 3; round++) {
  for (const q of questions) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    index.search(q, { limit: 10, withJoinTree: true });
    wall.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
}
const pct = (xs: number[], p: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
const fmt = (x: number): string => x.toFixed(2);
process.stdout.write(
  `${mb.tables.length} tables, ${questions.length} questions x 3 rounds; load ${load0.toFixed(1)} → ${loadavg()[0]!.toFixed(1)} on ${require('node:os').cpus().length} cores\n` +
    `wall ms: p50 ${fmt(pct(wall, 50))} p90 ${fmt(pct(wall, 90))} p99 ${fmt(pct(wall, 99))}\n` +
    `cpu  ms: p50 ${fmt(pct(cpu, 50))} p90 ${fmt(pct(cpu, 90))} p99 ${fmt(pct(cpu, 99))} mean ${fmt(cpu.reduce((a, b) => a + b, 0) / cpu.length)}\n`,
);
