/**
 * The MCP surface at scale: resources/list (first page, cold and warm), resources/read, completion/complete, and
 * the tokens of tools/list before and after the listing was compacted. In process, through the SDK's real Client
 * over an in-memory transport, so the numbers are the server's own work (no process spawn, no pipe).
 *
 *   npx tsx bench/mcp/run.ts [--quick]
 *
 * Catalogs: MusicBrainz (371 relations) indexed from PostgreSQL when a MusicBrainz database is there, else the
 * synthetic generator at 370 tables; and the synthetic generator's 10,000 tables / 200,000 columns (bench/perf),
 * built in memory (no database needed: what is measured starts after the catalog is loaded).
 */
import { Client as PgClient } from 'pg';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CatalogProvider } from '../../src/core/catalog/provider';
import type { TableInfo } from '../../src/core/catalog/model';
import { CatalogView } from '../../src/core/catalog/view';
import { compactEnvelopeJsonSchema } from '../../src/core/envelope';
import { DEFAULT_POLICY } from '../../src/core/pii';
import { silentLogger } from '../../src/core/util/logger';
import { SourceConnections } from '../../src/server/connections';
import { createServer } from '../../src/server/create-server';
import { DEFAULT_LIMITS } from '../../src/server/deps';
import type { ServerDeps } from '../../src/server/deps';
import { createPiiGate } from '../../src/server/pii-gate';
import { allTools } from '../../src/server/tools';
import { inputJsonSchema } from '../../src/server/validate';
import { annotationsFor } from '../../src/server/tool';
import { CatalogProvider as RealProvider } from '../../src/core/catalog/provider';
import { latency, loadAvg, machineFacts, round, tempDir, writeResults } from '../core/measure';
import { tokenCounter } from '../perf/peers';
import { buildSyntheticSchema } from '../perf/generate';
import type { SyntheticTable } from '../perf/generate';
import { indexInto } from '../../test/support/server-harness';
import path from 'node:path';

const quick = process.argv.includes('--quick');

function tableInfo(t: SyntheticTable, i: number): TableInfo {
  return {
    schema: t.schema,
    name: t.name,
    kind: 'table',
    comment: t.comment ?? null,
    rowEstimate: null,
    columns: t.columns.map((c, j) => ({ name: c.name, ordinal: j + 1, dataType: c.type, isNullable: c.name !== 'id', defaultExpr: null, isGenerated: false, isIdentity: false, comment: c.comment ?? null, enumLabels: null, stats: null, pii: null })),
    primaryKey: { name: `${t.name}_pkey`, columns: ['id'] },
    uniqueConstraints: [],
    checkConstraints: [],
    foreignKeys: t.columns.flatMap((c) => (c.references ? [{ name: `${t.name}_${c.name}_fkey`, columns: [c.name], targetSchema: c.references.schema, targetTable: c.references.table, targetColumns: ['id'], onDelete: null, onUpdate: null }] : [])),
    indexes: [],
    partitions: [],
    viewDefinition: null,
    fingerprint: String(i),
  };
}

function syntheticView(tables: number, columns: number): CatalogView {
  const schema = buildSyntheticSchema({ tables, columns, seed: 20260101 });
  const source = { id: 'synthetic', name: 'synthetic', engine: 'postgres' as const, locator: 'postgres://bench/synthetic', database: 'synthetic', connectTemplate: null, serverVersion: null, indexedAt: new Date(0).toISOString(), tableCount: tables, columnCount: columns };
  return new CatalogView(1, [source], schema.tables.map((t, i) => ({ sourceId: source.id, table: tableInfo(t, i) })));
}

async function musicBrainzView(): Promise<{ view: CatalogView; label: string } | null> {
  for (const db of ['sb_bench_musicbrainz', 'sb_ds_musicbrainz']) {
    const url = `postgres://postgres@127.0.0.1:5432/${db}`;
    const c = new PgClient({ connectionString: url, connectionTimeoutMillis: 2000 });
    try {
      await c.connect();
      await c.end();
    } catch {
      continue;
    }
    const catalog = path.join(tempDir('sb-bench-mcp-'), 'catalog.sqlite');
    await indexInto(catalog, url, 'musicbrainz');
    const s = await new RealProvider(catalog).get();
    if (s.state === 'ready') return { view: s.view, label: `MusicBrainz (${db}, ${s.view.entries.length} relations)` };
  }
  return null;
}

function deps(view: CatalogView): ServerDeps {
  const provider = { path: '(in memory)', get: async () => ({ state: 'ready' as const, view }) } as unknown as CatalogProvider;
  return {
    catalog: provider,
    logger: silentLogger,
    pii: createPiiGate(DEFAULT_POLICY),
    recorder: null,
    sessionId: 'bench',
    limits: DEFAULT_LIMITS,
    secrets: new Map(),
    workspaceDir: null,
    version: 'bench',
    sqlGuard: () => Promise.reject(new Error('no SQL in this benchmark')),
    connections: new SourceConnections(new Map()),
  };
}

async function connect(d: ServerDeps): Promise<{ client: Client; close(): Promise<void> }> {
  const { server } = createServer(d);
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(b);
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(a);
  return { client, close: async () => client.close() };
}

/** Completion inputs an editor sends while someone types: table-name prefixes of 1–4 letters and a few words. */
function completionInputs(view: CatalogView, n: number): string[] {
  const out: string[] = ['art', 'order', 'song', 'cust', 'pay', 'rel', 'lab', 'inv'];
  for (let i = 0; out.length < n; i++) {
    const e = view.entries[(i * 7919) % view.entries.length]!;
    out.push(e.table.name.slice(0, 1 + (i % 4)));
  }
  return out;
}

async function measure(label: string, view: CatalogView) {
  const d = deps(view);
  const coldRuns = quick ? 3 : 10;
  const cold: number[] = [];
  for (let i = 0; i < coldRuns; i++) {
    const s = await connect(d);
    const t0 = performance.now();
    const page = await s.client.listResources();
    cold.push(performance.now() - t0);
    if (i === 0 && page.resources.length === 0) throw new Error('no resources');
    await s.close();
  }
  const s = await connect(d);
  const first = await s.client.listResources();
  const warm = await latency(quick ? 20 : 100, () => s.client.listResources(), 5);
  const uris = first.resources.slice(1, 201).map((r) => r.uri);
  const read = await latency(quick ? 50 : 200, (i) => s.client.readResource({ uri: uris[i % uris.length]! }), 0);
  const t0 = performance.now();
  await s.client.complete({ ref: { type: 'ref/prompt', name: 'review_table_quality' }, argument: { name: 'table', value: 'a' } });
  const completionColdMs = performance.now() - t0;
  const inputs = completionInputs(view, 200);
  const prompt = await latency(quick ? 100 : 400, (i) => s.client.complete({ ref: { type: 'ref/prompt', name: 'review_table_quality' }, argument: { name: 'table', value: inputs[i % inputs.length]! } }), 20);
  const template = await latency(quick ? 100 : 400, (i) => s.client.complete({ ref: { type: 'ref/resource', uri: 'schemabrain://{source}/{schema}/{table}' }, argument: { name: 'table', value: inputs[i % inputs.length]!.slice(0, 2) }, context: { arguments: { source: view.sources[0]!.name } } }), 20);
  await s.close();
  cold.sort((a, b) => a - b);
  return {
    label,
    tables: view.entries.length,
    firstPage: { resources: first.resources.length, hasNextCursor: first.nextCursor !== undefined, bytes: JSON.stringify(first).length },
    listColdMs: { p50: round(cold[Math.floor(cold.length / 2)]!, 1), max: round(cold[cold.length - 1]!, 1), runs: coldRuns },
    listWarm: warm,
    read,
    completionColdMs: round(completionColdMs, 1),
    completePrompt: prompt,
    completeTemplate: template,
  };
}

function toolsListTokens() {
  const count = tokenCounter();
  // "before": the listing as shipped before compaction, rebuilt from the same registry.
  const before = {
    tools: allTools.map((t) => ({ name: t.name, title: t.title, description: t.description, inputSchema: inputJsonSchema(t.input), outputSchema: compactEnvelopeJsonSchema(), annotations: annotationsFor(t), _meta: { latency_hint: t.latency, side_effects: t.sideEffects } })),
  };
  return { method: count.method, before, count };
}

async function main(): Promise<void> {
  const facts = machineFacts();
  const mb = await musicBrainzView();
  const small = mb ?? { view: syntheticView(370, 7400), label: 'synthetic 370 tables / 7,400 columns (no MusicBrainz database here)' };
  const large = { view: syntheticView(10_000, 200_000), label: 'synthetic 10,000 tables / 200,000 columns' };
  const results = [await measure(small.label, small.view), await measure(large.label, large.view)];

  const t = toolsListTokens();
  const s = await connect(deps(new CatalogView(0, [], [])));
  const after = await s.client.listTools();
  await s.close();
  const tokens = { method: t.method, tools: after.tools.length, before: t.count.count(JSON.stringify(t.before)), after: t.count.count(JSON.stringify(after)), beforeBytes: JSON.stringify(t.before).length, afterBytes: JSON.stringify(after).length };

  facts.loadAvgEnd = loadAvg();
  const row = (r: (typeof results)[number]) =>
    `| ${r.label} | ${r.firstPage.resources} (${r.firstPage.hasNextCursor ? 'more pages' : 'one page'}, ${Math.round(r.firstPage.bytes / 1024)} KiB) | ${r.listColdMs.p50} ms (max ${r.listColdMs.max}) | ${r.listWarm.p50Ms} / ${r.listWarm.p99Ms} ms | ${r.read.p50Ms} / ${r.read.p99Ms} ms | ${r.completionColdMs} ms | ${r.completePrompt.p50Ms} / ${r.completePrompt.p99Ms} ms | ${r.completeTemplate.p50Ms} / ${r.completeTemplate.p99Ms} ms |`;
  const md = [
    '# MCP surface benchmark (bench/mcp/run.ts)',
    '',
    `Machine: ${facts.nproc} cores (${facts.cpu}), ${facts.memGiB} GiB, node ${facts.node}; commit ${facts.commit}${facts.srcFilesModified ? ` (+${facts.srcFilesModified} modified src files)` : ''}; load average ${facts.loadAvgStart.join(' ')} → ${facts.loadAvgEnd.join(' ')}.${quick ? ' **--quick run: fewer iterations.**' : ''}`,
    '',
    'In process: the SDK Client over an in-memory transport to createServer, so the times are the server’s work plus JSON-RPC framing. "Cold" is the first resources/list of a new session (each of its 500 texts rendered through describe_table to give its size; cached per catalog generation afterwards). The first completion builds the prefix index (ordered by foreign-key links). Values of three letters or more also go through the table search; its index is shared with find_relevant_tables (the indexer persists it for catalogs of 1,000+ tables; here it is built during the untimed warm-up). The machine is shared and loaded (see the load average): p99 values mostly measure waiting for a core.',
    '',
    '| catalog | first page | resources/list cold (p50) | resources/list warm p50 / p99 | resources/read p50 / p99 | first completion | completion (prompt `table`) p50 / p99 | completion (template `{table}`) p50 / p99 |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...results.map(row),
    '',
    `## tools/list (${tokens.tools} tools, ${tokens.method})`,
    '',
    '| listing | bytes | tokens |',
    '| --- | ---: | ---: |',
    `| before: full input schemas with length bounds, the envelope’s fields in every outputSchema, side_effects in _meta | ${tokens.beforeBytes} | ${tokens.before} |`,
    `| after (as shipped) | ${tokens.afterBytes} | **${tokens.after}** |`,
    '| peers (bench/results/perf.md): DBHub 1.4.0, 2 tools | 1489 | 347 |',
    '| peers (bench/results/perf.md): server-postgres 0.6.2, 1 tool | 141 | 34 |',
    '',
    `Budget: ≤ 4,000 tokens — ${tokens.after <= 4000 ? 'met' : 'MISSED'}. The "before" row is rebuilt from today’s registry (today’s shorter shared argument descriptions included); bench/results/perf.md measured 5,601 tokens for the listing as it shipped before.`,
  ].join('\n');
  writeResults('mcp', { facts, quick, results, toolsList: tokens }, md);
  process.stdout.write(`${md}\n`);
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`${(e as Error).stack ?? String(e)}\n`);
    process.exit(1);
  },
);
