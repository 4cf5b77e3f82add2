import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import type { TableInfo } from '../../src/core/catalog/model';
import { compileMetric, loadSemanticSources, semanticCatalog } from '../../src/core/semantic';
import type { CompiledMetric, Dialect, MetricRequest, SemanticCatalog, SemanticModel } from '../../src/core/semantic';

/**
 * Compile-time benchmark: per metric request, p50/p99 of `compileMetric` in microseconds over the Pagila and
 * Chinook definition packs (catalogs from test/fixtures/semantic). Writes bench/results/semantic.{md,json}.
 * Run: npx tsx bench/semantic/run.ts [iterations]
 */

interface Case {
  readonly pack: 'pagila' | 'chinook';
  readonly dialect: Dialect;
  readonly label: string;
  readonly request: MetricRequest;
}

const CASES: readonly Case[] = [
  { pack: 'pagila', dialect: 'postgres', label: 'revenue (no joins)', request: { name: 'revenue' } },
  { pack: 'pagila', dialect: 'postgres', label: 'revenue by month', request: { name: 'revenue', time_grain: 'month' } },
  { pack: 'pagila', dialect: 'postgres', label: 'revenue by store via customer', request: { name: 'revenue', group_by: ['store.store_id'], via: ['payment_customer', 'customer_store'] } },
  { pack: 'pagila', dialect: 'postgres', label: 'revenue by actor surname (fan-out, 5 joins)', request: { name: 'revenue', group_by: ['actor.last_name'], time_grain: 'quarter' } },
  { pack: 'pagila', dialect: 'postgres', label: 'active customers, 3 filters', request: { name: 'active_customers', filters: [{ column: 'customer.store_id', op: 'in', value: [1, 2] }, { column: 'customer.last_name', op: 'ne', value: 'SMITH' }] } },
  { pack: 'pagila', dialect: 'postgres', label: 'error: ambiguous_path', request: { name: 'revenue', group_by: ['store.store_id'] } },
  { pack: 'chinook', dialect: 'sqlite', label: 'invoice total by genre (fan-out)', request: { name: 'invoice_total', group_by: ['genre.Name'] } },
  { pack: 'chinook', dialect: 'sqlite', label: 'line revenue by quarter (inherited time)', request: { name: 'line_revenue', time_grain: 'quarter' } },
  { pack: 'chinook', dialect: 'sqlite', label: 'invoice total top 10 artists', request: { name: 'invoice_total', group_by: ['artist.Name'], order_by: [{ column: 'invoice_total', direction: 'desc' }], limit: 10 } },
  { pack: 'chinook', dialect: 'sqlite', label: 'error: unknown_metric (fuzzy)', request: { name: 'invoice_totl' } },
];

export interface PackContext {
  readonly model: SemanticModel;
  readonly catalog: SemanticCatalog;
}

export function loadPack(pack: string): PackContext {
  const dir = `test/fixtures/semantic/${pack}`;
  const catalog = semanticCatalog(JSON.parse(readFileSync(`${dir}/catalog.json`, 'utf8')) as TableInfo[]);
  const files = readdirSync(dir).filter((f) => f.endsWith('.yaml')).map((f) => ({ path: f, text: readFileSync(`${dir}/${f}`, 'utf8') }));
  return { model: loadSemanticSources(files, catalog).model, catalog };
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/**
 * End-to-end overhead of the semantic layer over running the same SQL directly: time compile + execute against
 * execute alone, with the caller's executor (the tool layer passes its guarded read-only runner).
 */
export async function measureOverhead(
  ctx: PackContext,
  request: MetricRequest,
  dialect: Dialect,
  execute: (sql: string, params: readonly (string | number | boolean)[]) => Promise<unknown>,
  iterations = 50,
): Promise<{ directP50Ms: number; viaSemanticP50Ms: number; overheadP50Ms: number }> {
  const first = compileMetric(ctx.model, ctx.catalog, request, dialect);
  if (!first.ok) throw new Error(`${first.kind}: ${first.message}`);
  const direct: number[] = [];
  const via: number[] = [];
  for (let i = 0; i < iterations; i++) {
    let t = process.hrtime.bigint();
    await execute(first.sql, first.params);
    direct.push(Number(process.hrtime.bigint() - t) / 1e6);
    t = process.hrtime.bigint();
    const c = compileMetric(ctx.model, ctx.catalog, request, dialect) as CompiledMetric;
    await execute(c.sql, c.params);
    via.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  direct.sort((a, b) => a - b);
  via.sort((a, b) => a - b);
  const d = percentile(direct, 50);
  const v = percentile(via, 50);
  return { directP50Ms: d, viaSemanticP50Ms: v, overheadP50Ms: v - d };
}

function main(): void {
  const iterations = Number(process.argv[2] ?? 5000);
  const packs = new Map<string, PackContext>();
  const results: Array<{ pack: string; dialect: Dialect; label: string; ok: boolean; p50Us: number; p99Us: number; batchMeanP99Us: number; maxUs: number; iterations: number }> = [];
  for (const c of CASES) {
    const ctx = packs.get(c.pack) ?? loadPack(c.pack);
    packs.set(c.pack, ctx);
    const warm = compileMetric(ctx.model, ctx.catalog, c.request, c.dialect);
    for (let i = 0; i < 500; i++) compileMetric(ctx.model, ctx.catalog, c.request, c.dialect);
    const times: number[] = [];
    for (let i = 0; i < iterations; i++) {
      const t = process.hrtime.bigint();
      compileMetric(ctx.model, ctx.catalog, c.request, c.dialect);
      times.push(Number(process.hrtime.bigint() - t) / 1000);
    }
    // Means over batches of 50 consecutive compiles: a context switch on a busy machine hits one batch mean by
    // 1/50th of its length instead of standing alone as the p99 of single calls.
    const batches: number[] = [];
    for (let i = 0; i + 50 <= times.length; i += 50) batches.push(times.slice(i, i + 50).reduce((a, b) => a + b, 0) / 50);
    batches.sort((a, b) => a - b);
    times.sort((a, b) => a - b);
    results.push({ pack: c.pack, dialect: c.dialect, label: c.label, ok: warm.ok, p50Us: round(percentile(times, 50)), p99Us: round(percentile(times, 99)), batchMeanP99Us: round(percentile(batches, 99)), maxUs: round(times[times.length - 1]!), iterations });
  }
  const worstP99 = Math.max(...results.map((r) => r.p99Us));
  const worstP50 = Math.max(...results.map((r) => r.p50Us));
  const worstBatch = Math.max(...results.map((r) => r.batchMeanP99Us));
  const load = loadavg().map((x) => x.toFixed(2)).join(', ');
  const doc = {
    generatedAt: new Date().toISOString(),
    node: process.version,
    cpus: cpus().length,
    loadAverage: load,
    worstP50Us: worstP50,
    worstBatchMeanP99Us: worstBatch,
    budgetUs: 1000,
    worstP99Us: worstP99,
    withinBudget: worstP99 <= 1000,
    results,
  };
  writeFileSync('bench/results/semantic.json', `${JSON.stringify(doc, null, 2)}\n`);
  const md = [
    '# Semantic layer: metric compile time',
    '',
    `Generated by \`npx tsx bench/semantic/run.ts ${iterations}\` on Node ${process.version} (${new Date().toISOString().slice(0, 10)}); ${iterations} compiles per request after 500 warm-up compiles, on a shared 2-core machine.`,
    `Machine: ${cpus().length} CPUs, load average ${load} while measuring (other work shares the machine).`,
    '',
    `Budget: 1 ms (1000 µs) per compile. Worst p50: ${worstP50} µs. Worst p99 of 50-compile batch means: ${worstBatch} µs. Worst single-call p99: ${worstP99} µs — ${worstP99 <= 1000 ? 'within' : 'over'} budget${worstP99 > 1000 ? ' (single-call tails on a loaded machine are dominated by preemption: compare the batch-mean column and the max)' : ''}.`,
    '',
    '| pack | dialect | request | result | p50 µs | p99 µs | p99 of batch means µs | max µs |',
    '| --- | --- | --- | --- | ---: | ---: | ---: | ---: |',
    ...results.map((r) => `| ${r.pack} | ${r.dialect} | ${r.label} | ${r.ok ? 'sql' : 'error envelope'} | ${r.p50Us} | ${r.p99Us} | ${r.batchMeanP99Us} | ${r.maxUs} |`),
    '',
    'End-to-end overhead against running the same SQL directly is measured by `measureOverhead()` in `bench/semantic/run.ts` once the tool layer supplies its guarded executor.',
    '',
  ].join('\n');
  writeFileSync('bench/results/semantic.md', md);
  process.stdout.write(md);
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}

if (require.main === module) main();
