#!/usr/bin/env node
// `npm run bench`: builds dist/ once, then runs every benchmark in bench/ one after another with `npx tsx`,
// continuing past a failure, and prints a summary (exit 1 when any failed). Each benchmark writes its own
// bench/results/<name>.md and .json.
//
//   node bench/run.mjs [--quick] [--only core,perf] [--skip perf]
//
// --quick is passed to the benchmarks that take it (fewer runs; for a smoke check, not for committed figures).
// Benchmarks run one at a time on purpose: they time things, and the machine may have only two cores.
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** name, script, whether it takes --quick. */
const BENCHMARKS = [
  { name: 'core', script: 'bench/core/run.ts', quick: true },
  { name: 'perf', script: 'bench/perf/run.ts', quick: true },
  { name: 'retrieval', script: 'bench/retrieval/run.ts', quick: true },
  { name: 'retrieval-hostile', script: 'bench/retrieval/hostile.ts', quick: true },
  { name: 'pii', script: 'bench/pii/run.ts', quick: false },
  { name: 'audit', script: 'bench/audit/run.ts', quick: true },
  { name: 'sql', script: 'bench/sql/run.ts', quick: false },
  { name: 'sql-mask', script: 'bench/sql/mask-latency.ts', quick: false },
  { name: 'semantic', script: 'bench/semantic/run.ts', quick: false },
  { name: 'mcp', script: 'bench/mcp/run.ts', quick: true },
  { name: 'team', script: 'bench/team/run.ts', quick: true },
];

function listFlag(args, name) {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] ? new Set(args[i + 1].split(',').map((s) => s.trim())) : null;
}

function run(cmd, args) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(cmd, args, { cwd: ROOT, stdio: 'inherit', env: process.env });
    child.on('error', (e) => resolve({ code: -1, error: e.message, ms: Date.now() - started }));
    child.on('close', (code, signal) => resolve({ code: code ?? -1, error: signal ? `killed by ${signal}` : null, ms: Date.now() - started }));
  });
}

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const only = listFlag(args, '--only');
const skip = listFlag(args, '--skip') ?? new Set();
const unknown = [...(only ?? []), ...skip].filter((n) => !BENCHMARKS.some((b) => b.name === n));
if (unknown.length) {
  process.stderr.write(`unknown benchmark(s): ${unknown.join(', ')}; known: ${BENCHMARKS.map((b) => b.name).join(', ')}\n`);
  process.exit(2);
}
const selected = BENCHMARKS.filter((b) => (!only || only.has(b.name)) && !skip.has(b.name));

process.stdout.write(`bench: ${selected.map((b) => b.name).join(', ')} on ${os.availableParallelism()} CPUs, load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}\n`);
const build = await run(process.execPath, ['esbuild.mjs']);
if (build.code !== 0) process.stdout.write('bench: the build failed; benchmarks that run dist/ will fail too\n');

const results = [];
for (const b of selected) {
  process.stdout.write(`\n=== ${b.name}: npx tsx ${b.script}${quick && b.quick ? ' --quick' : ''}\n`);
  const r = await run('npx', ['tsx', b.script, ...(quick && b.quick ? ['--quick'] : [])]);
  results.push({ ...b, ...r });
}

process.stdout.write('\nbench summary\n');
for (const r of results) {
  const verdict = r.code === 0 ? 'ok    ' : 'FAILED';
  process.stdout.write(`  ${verdict} ${r.name.padEnd(10)} ${(r.ms / 1000).toFixed(1).padStart(7)} s  ${r.code === 0 ? `bench/results/${r.name}.md` : (r.error ?? `exit ${r.code}`)}\n`);
}
const failed = results.filter((r) => r.code !== 0).length;
process.stdout.write(`${results.length - failed} passed, ${failed} failed\n`);
process.stdout.write(`load average at end ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}\n`);
process.exit(failed ? 1 : 0);
