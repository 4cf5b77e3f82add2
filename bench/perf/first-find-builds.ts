/**
 * Two or more builds side by side: each indexes the same database into a catalog of its own (with its own CLI, so in
 * its own catalog format), timed as a whole process, then its server answers a first find_relevant_tables, the builds
 * taking turns:
 *
 *   npx tsx bench/perf/first-find-builds.ts --source LABEL=URL [--source LABEL=URL …] --build LABEL=DIST_DIR
 *     [--build LABEL=DIST_DIR …] [--runs N] [--query TEXT] [--query-for LABEL=TEXT …]
 *
 * DIST_DIR is a `dist` folder (an older one: `git worktree add ../old <commit>`, link `node_modules`, `npm run build`,
 * and copy its `dist` without running it first, so that its code cache is written by a server run like the others).
 * Per database and build: a full index into a fresh catalog (wall and CPU time of the whole `cli.js index` process);
 * the first call sent as soon as tools/list is answered (wall, and the server's CPU time in it), spawn → answer, RSS
 * after the call, and the catalog's size. Each round runs the builds in a rotated order.
 * Writes bench/results/first-find-builds.{md,json}.
 */
import fs from 'node:fs';
import path from 'node:path';
import { firstFindRun, flagValue, labelledFlagValues, loadAvg, machineFacts, median, round, runMain, runOk, tempDir, timeNodeWithPeak, writeResults, type FirstFindRun as Run } from '../core/measure';

interface Build {
  readonly label: string;
  readonly dist: string;
}

interface Row {
  readonly source: string;
  readonly build: string;
  readonly catalogMiB: number;
  readonly fullIndexMs: number;
  readonly fullIndexCpuMs: number;
  readonly firstFindMs: number;
  readonly firstFindCpuMs: number;
  readonly spawnToAnswerMs: number;
  readonly rssMiB: number;
  readonly raw: number[];
}

async function main(): Promise<void> {
  const sources = labelledFlagValues('--source', 'URL');
  const runs = Number(flagValue('--runs') ?? 8);
  const query = flagValue('--query') ?? 'which customers placed orders last month';
  const queries = new Map(labelledFlagValues('--query-for', 'TEXT').map((q) => [q.label, q.value]));
  const builds: Build[] = labelledFlagValues('--build', 'DIST_DIR').map(({ label, value }) => {
    const dist = path.resolve(value);
    if (!fs.existsSync(path.join(dist, 'server.js')) || !fs.existsSync(path.join(dist, 'cli.js'))) throw new Error(`--build ${label}: no server.js and cli.js in ${dist}`);
    return { label, dist };
  });
  if (sources.length === 0 || builds.length < 2 || !Number.isInteger(runs) || runs < 1) throw new Error('usage: --source LABEL=URL --build LABEL=DIST_DIR --build LABEL=DIST_DIR [--runs N ≥ 1]');
  const facts = machineFacts();
  const work = tempDir('sb-first-find-builds-');
  const rows: Row[] = [];
  try {
    for (const source of sources) {
      const q = queries.get(source.label) ?? query;
      const catalogs = builds.map((_, i) => path.join(work, `${source.label}-${i}.sqlite`));
      for (const [i, b] of builds.entries()) {
        await runOk(process.execPath, [path.join(b.dist, 'cli.js'), 'index', '--source', source.value, '--name', source.label, '--catalog', catalogs[i]!, '--json'], { timeoutMs: 600_000, env: { ...process.env, SCHEMABRAIN_HOME: work } });
        await firstFindRun(path.join(b.dist, 'server.js'), catalogs[i]!, q); // unmeasured: writes this build's code cache if it has none
        process.stderr.write(`first-find-builds: ${source.label}, ${b.label} indexed (${round(fs.statSync(catalogs[i]!).size / 2 ** 20, 1)} MiB)\n`);
      }
      const results: Run[][] = builds.map(() => []);
      const indexes: Array<Array<{ ms: number; cpuMs: number }>> = builds.map(() => []);
      for (let r = 0; r < runs; r++) {
        for (let k = 0; k < builds.length; k++) {
          const i = (r + k) % builds.length;
          const fresh = path.join(work, `${source.label}-${i}-fresh.sqlite`);
          fs.rmSync(fresh, { force: true });
          const ix = await timeNodeWithPeak(path.join(builds[i]!.dist, 'cli.js'), ['index', '--source', source.value, '--name', source.label, '--catalog', fresh, '--json'], { timeoutMs: 600_000, env: { ...process.env, SCHEMABRAIN_HOME: work } });
          indexes[i]!.push({ ms: ix.ms, cpuMs: ix.cpuMs });
          results[i]!.push(await firstFindRun(path.join(builds[i]!.dist, 'server.js'), catalogs[i]!, q));
        }
      }
      for (const [i, b] of builds.entries()) {
        const rs = results[i]!;
        const med = (f: (r: Run) => number): number => round(median(rs.map(f)), 1);
        rows.push({
          source: source.label,
          build: b.label,
          catalogMiB: round(fs.statSync(catalogs[i]!).size / 2 ** 20, 1),
          fullIndexMs: round(median(indexes[i]!.map((x) => x.ms)), 0),
          fullIndexCpuMs: round(median(indexes[i]!.map((x) => x.cpuMs)), 0),
          firstFindMs: med((r) => r.wallMs),
          firstFindCpuMs: med((r) => r.cpuMs),
          spawnToAnswerMs: med((r) => r.firstListMs + r.wallMs),
          rssMiB: med((r) => r.rssMiB),
          raw: rs.map((r) => round(r.wallMs, 1)),
        });
      }
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  facts.loadAvgEnd = loadAvg();
  const md = [
    '# Builds side by side: a full index and the first find_relevant_tables',
    '',
    `Generated by \`npx tsx bench/perf/first-find-builds.ts\` on ${new Date().toISOString()}: ${facts.nproc} CPUs (${facts.cpu}), Node ${facts.node}, commit ${facts.commit}${facts.srcFilesModified ? ` (${facts.srcFilesModified} files under src/ modified)` : ''}.`,
    `Load average at start ${facts.loadAvgStart.join(' / ')}, at end ${facts.loadAvgEnd.join(' / ')}.`,
    '',
    `For each database, each build indexed it with its own CLI; then, ${runs} times with the builds taking turns, it indexed it again into a fresh catalog (\`node cli.js index --json\`, whole process) and its \`server.js\` was started over stdio on its catalog, the question${queries.size > 0 ? '' : ` ("${query}")`} sent as soon as tools/list was answered. Medians; CPU is all threads' (the indexer's over its life, the server's during the call).`,
    '',
    '| database | build | catalog | full index (wall) | its CPU | first find (wall) | its CPU | spawn → answer | server RSS after |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map((r) => `| ${r.source} | ${r.build} | ${r.catalogMiB} MiB | ${r.fullIndexMs} ms | ${r.fullIndexCpuMs} ms | ${r.firstFindMs} ms | ${r.firstFindCpuMs} ms | ${r.spawnToAnswerMs} ms | ${r.rssMiB} MiB |`),
    '',
    ...(queries.size > 0 ? [`Questions: ${sources.map((s) => `${s.label}: "${queries.get(s.label) ?? query}"`).join('; ')}.`, ''] : []),
    `Raw first-find runs (ms): ${rows.map((r) => `${r.source} ${r.build}: ${r.raw.join(', ')}`).join(' · ')}.`,
  ];
  writeResults('first-find-builds', { facts, runs, query, queries: Object.fromEntries(queries), rows }, md.join('\n'));
  process.stderr.write('first-find-builds: wrote bench/results/first-find-builds.md\n');
}

runMain('first-find-builds', main);
