/**
 * End-to-end overhead of `get_metric` over running the same compiled SQL directly, on the real Chinook SQLite file
 * with the Chinook pack. For each request, p50/p95 of:
 *   direct   — sql.js prepare/bind/step of the compiled SQL on an in-memory copy of the file (the floor);
 *   guarded  — the same SQL through runReadOnlySqlite (parser allow-list, query_only, row/byte caps);
 *   tool     — server.callTool('get_metric') in process, audit off: validation, model cache check, compile, PII gate,
 *              guard, execution, envelope;
 *   tool+mcp — the SDK client over the in-memory transport with the audit recorder on (durable append per call).
 * Run: npx tsx bench/semantic/tool-overhead.ts [iterations]  → bench/results/get-metric-overhead.{md,json}
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import initSqlJs from 'sql.js';
import { loadSqlGuard, runReadOnlySqlite } from '../../src/core/sql';
import { silentLogger } from '../../src/core/util/logger';
import { SemanticModels } from '../../src/server/semantic-model';
import { CHINOOK_SQLITE, indexInto, REPO_ROOT, startHarness, tempDir } from '../../test/support/server-harness';

const CASES: Array<{ label: string; args: Record<string, unknown> }> = [
  { label: 'invoice_total (one table)', args: { name: 'invoice_total' } },
  { label: 'invoice_total by customer.Country, IN filter', args: { name: 'invoice_total', group_by: ['customer.Country'], filters: [{ column: 'customer.Country', op: 'in', value: ['Brazil', 'Canada', 'France'] }] } },
  { label: 'invoice_total by genre.Name (3 joins, fan-out rewrite)', args: { name: 'invoice_total', group_by: ['genre.Name'] } },
  { label: 'line_revenue by quarter (inherited time)', args: { name: 'line_revenue', time_grain: 'quarter' } },
];

function pct(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/**
 * Times several variants interleaved (rotating order each iteration), so load from other processes on a shared
 * machine falls on all of them alike instead of on whichever ran during a busy spell.
 */
async function timeInterleaved(iterations: number, fns: ReadonlyArray<() => unknown>): Promise<Array<{ p50: number; p95: number; min: number }>> {
  for (let i = 0; i < 20; i++) for (const fn of fns) await fn();
  const times: number[][] = fns.map(() => []);
  for (let i = 0; i < iterations; i++) {
    for (let k = 0; k < fns.length; k++) {
      const j = (i + k) % fns.length;
      const s = process.hrtime.bigint();
      await fns[j]!();
      times[j]!.push(Number(process.hrtime.bigint() - s) / 1e6);
    }
  }
  return times.map((t) => {
    t.sort((a, b) => a - b);
    return { p50: round(pct(t, 50)), p95: round(pct(t, 95)), min: round(t[0]!) };
  });
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}

async function main(): Promise<void> {
  const iterations = Number(process.argv[2] ?? 200);
  const dir = tempDir('sb-bench-metric-');
  const catalogPath = path.join(dir, 'catalog.sqlite');
  await indexInto(catalogPath, CHINOOK_SQLITE, 'chinook');
  const ws = path.join(dir, 'ws');
  fs.mkdirSync(path.join(ws, '.schemabrain'), { recursive: true });
  const pack = path.join(REPO_ROOT, 'test', 'fixtures', 'semantic', 'chinook');
  for (const f of fs.readdirSync(pack)) if (f.endsWith('.yaml')) fs.copyFileSync(path.join(pack, f), path.join(ws, '.schemabrain', f));
  const inProcess = await startHarness({ catalogPath, deps: { workspaceDir: ws, semantic: new SemanticModels(ws, silentLogger), recorder: null } });
  const withAudit = await startHarness({ catalogPath, deps: { workspaceDir: ws, semantic: new SemanticModels(ws, silentLogger) } });
  const SQL = await initSqlJs();
  const db = new SQL.Database(fs.readFileSync(CHINOOK_SQLITE));
  const guard = await loadSqlGuard();

  const rows: Array<Record<string, unknown>> = [];
  for (const c of CASES) {
    const env = (await inProcess.server.callTool('get_metric', c.args)) as { status: string; data: { sql: string; params: (string | number)[]; row_count: number } };
    if (env.status !== 'success') throw new Error(`${c.label}: ${env.status}`);
    const { sql, params } = env.data;
    const [direct, guarded, tool, mcp] = await timeInterleaved(iterations, [
      () => {
        const stmt = db.prepare(sql);
        stmt.bind(params);
        while (stmt.step()) stmt.get();
        stmt.free();
      },
      () => runReadOnlySqlite(db, guard, sql, params, { maxRows: 1000, maxBytes: 1_000_000, timeoutMs: 15_000 }),
      () => inProcess.server.callTool('get_metric', c.args),
      () => withAudit.call('get_metric', c.args),
    ]);
    rows.push({ request: c.label, rows: env.data.row_count, direct: direct!, guarded: guarded!, tool: tool!, tool_mcp_audit: mcp!, overhead_p50_ms: round(tool!.p50 - direct!.p50), overhead_min_ms: round(tool!.min - direct!.min), overhead_mcp_audit_p50_ms: round(mcp!.p50 - direct!.p50) });
  }
  await inProcess.close();
  await withAudit.close();
  db.close();

  const machine = { cpus: os.cpus().length, cpu: os.cpus()[0]?.model ?? 'unknown', node: process.version, loadavg: os.loadavg().map((x) => Math.round(x * 100) / 100) };
  const json = { benchmark: 'get_metric end-to-end overhead', generatedAt: new Date().toISOString(), iterations, machine, dataset: 'Chinook SQLite (samples/chinook.sqlite) + test/fixtures/semantic/chinook', results: rows };
  fs.mkdirSync(path.join(REPO_ROOT, 'bench', 'results'), { recursive: true });
  fs.writeFileSync(path.join(REPO_ROOT, 'bench', 'results', 'get-metric-overhead.json'), `${JSON.stringify(json, null, 2)}\n`);
  type T = { p50: number; p95: number; min: number };
  const cell = (t: T): string => `${t.min} / ${t.p50} / ${t.p95}`;
  const md = [
    '# get_metric end-to-end overhead',
    '',
    `Generated ${json.generatedAt} by \`npx tsx bench/semantic/tool-overhead.ts ${iterations}\`; ${iterations} timed iterations per cell after 20 warm-up calls of each.`,
    `Machine: ${machine.cpus} × ${machine.cpu}, Node ${machine.node}, load average ${machine.loadavg.join(' ')} (shared machine: read the figures as orders of magnitude).`,
    '',
    'Milliseconds, min / p50 / p95, the four variants timed interleaved. *direct*: sql.js runs the compiled SQL; *guarded*: the same SQL through the three read-only layers; *tool*: `get_metric` in process (validation, model cache, compile, PII gate, guard, run, envelope), audit off; *tool + MCP + audit*: through the SDK client over the in-memory transport with a durable audit append per call.',
    '',
    '| request | rows | direct | guarded | tool | tool + MCP + audit | tool − direct (min) | tool − direct (p50) |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map((r) => `| ${String(r.request)} | ${String(r.rows)} | ${cell(r.direct as T)} | ${cell(r.guarded as T)} | ${cell(r.tool as T)} | ${cell(r.tool_mcp_audit as T)} | ${String(r.overhead_min_ms)} | ${String(r.overhead_p50_ms)} |`),
    '',
  ].join('\n');
  fs.writeFileSync(path.join(REPO_ROOT, 'bench', 'results', 'get-metric-overhead.md'), md);
  process.stdout.write(md);
}

void main();
