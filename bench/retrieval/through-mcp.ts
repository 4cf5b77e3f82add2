/**
 * The retrieval figures through the real tool: `npx tsx bench/retrieval/through-mcp.ts [--dev-only] [--show-dev-losses]`.
 *
 * `run.ts` scores the search engine in-process on catalogs parsed from the pg_dump files. An agent gets its tables
 * another way: the database is indexed by the CLI (`dist/cli.js index`, live introspection and sampling), and the
 * MCP server (`dist/server.js`, stdio) answers `find_relevant_tables` from the persisted catalog. This benchmark
 * loads MusicBrainz, AdventureWorks and Pagila into a real PostgreSQL server, indexes each with the CLI, asks every
 * question of the hand-written and blind sets through an MCP client over stdio, and scores the answers with the
 * same gold and metrics as run.ts, beside the in-process figures of the same questions in the same run. It also
 * counts the questions whose top ten differ between the two paths, and every answer that is not `success` or that holds
 * no table. Held-out questions are scored as aggregates only; `--dev-only` runs the dev questions alone.
 *
 * Writes bench/results/retrieval-mcp.md and retrieval-mcp.json. Needs a PostgreSQL server (127.0.0.1:5432 or
 * SCHEMABRAIN_TEST_PG_URL) and the shared data (../shared/data or SCHEMABRAIN_BENCH_DATA).
 */
import fs from 'node:fs';
import path from 'node:path';
import { CatalogStore } from '../../src/core/catalog/store';
import { CatalogView } from '../../src/core/catalog/view';
import { buildIndexData, isMirror } from '../../src/core/search/build';
import { buildSearchIndex, searchInput } from '../../src/core/search/index';
import { getTestPostgres } from '../../test/support/pg';
import { loadDataset, type DatasetName } from '../../test/support/datasets';
import { DIST, runOk, startStdioServer, tempDir, writeResults } from '../core/measure';
import { ensureBuilt } from '../core/musicbrainz';
import { blindSets, goalParts } from './blind-sets';
import { key, ownSets, type BenchQuestion, type BenchSet } from './datasets';
import { BLIND_GOALS, calibrationRows, completeAnswers, goalVerdict, mean, poolCalibration, scoreQuestion as score, shareWithInterval, tallyConfidence, type CalibrationTable, type Scores } from './scores';

const devOnly = process.argv.includes('--dev-only');
// Dev questions that are complete in-process but not through the tool, with both answers (for inspection).
const showDevLosses = process.argv.includes('--show-dev-losses');
const LIMIT = 10;

interface SplitResult {
  readonly mcp: Scores;
  readonly inProcess: Scores;
  /** Questions whose ten tables (in order) differ between the two paths. */
  readonly differentTop10: number;
  /** Answers with a status other than `success`, or with no table. */
  readonly notOk: number;
  readonly empty: number;
  /** By the answer's `confidence` (HIGH, MEDIUM, LOW): questions, how many have a gold table first, how many are complete at 10. */
  readonly byConfidence: CalibrationTable;
}

interface SetResult {
  readonly name: string;
  readonly database: string;
  readonly tables: number;
  /** Relations of the live-indexed catalog by kind, and how many of its views are mirrors of one relation. */
  readonly live: Record<string, number>;
  readonly dev: SplitResult | null;
  readonly heldOut: SplitResult | null;
  /** Dev questions only: ids whose top ten differ, for inspection. */
  readonly devDifferent: readonly string[];
}

/** The tables of a find_relevant_tables answer, as `source|schema.table` keys, and its status. */
function answerTables(result: unknown, source: string): { status: string; confidence: string; tables: string[] } {
  const r = result as { structuredContent?: { status?: string; confidence?: string | null; data?: { tables?: Array<{ table: string }> } }; content?: Array<{ type: string; text?: string }> };
  let env = r.structuredContent;
  if (env === undefined) {
    const text = r.content?.find((c) => c.type === 'text')?.text;
    env = text === undefined ? undefined : (JSON.parse(text) as typeof env);
  }
  if (env === undefined) throw new Error('find_relevant_tables answered without an envelope');
  return { status: env.status ?? 'missing', confidence: env.confidence ?? 'none', tables: (env.data?.tables ?? []).map((t) => key(source, t.table)) };
}

async function main(): Promise<void> {
  await ensureBuilt(false, runOk);
  const own = ownSets();
  const sets = [...own, ...blindSets(own)];
  const pg = await getTestPostgres();
  if (pg.kind !== 'server') {
    await pg.stop();
    throw new Error('no PostgreSQL server answers at 127.0.0.1:5432 (or SCHEMABRAIN_TEST_PG_URL); this benchmark indexes real databases');
  }
  const work = tempDir('sb-bench-retrieval-mcp-');
  const results: SetResult[] = [];
  try {
    for (const catalogSet of own) {
      const dataset = catalogSet.name as DatasetName;
      const db = await loadDataset(pg, dataset, `sb_bench_${dataset}`);
      const catalogPath = path.join(work, `${dataset}.sqlite`);
      await runOk(process.execPath, [path.join(DIST, 'cli.js'), 'index', '--source', db.url, '--name', dataset, '--catalog', catalogPath, '--json'], { timeoutMs: 600_000 });
      const live = await liveRelations(catalogPath);
      const session = await startStdioServer(process.execPath, [path.join(DIST, 'server.js'), '--catalog', catalogPath, '--no-audit', '--events-path', path.join(work, `${dataset}-events.jsonl`)], { SCHEMABRAIN_HOME: work });
      try {
        const engine = buildSearchIndex({ tables: catalogSet.tables });
        for (const set of sets.filter((s) => s.tables === catalogSet.tables)) {
          results.push({ ...(await runSet(set, db.database, session.client.callTool.bind(session.client), engine)), live });
        }
      } finally {
        await session.close();
      }
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
    await pg.stop();
  }
  for (const r of results) {
    const line = (label: string, s: SplitResult | null): string =>
      s === null ? '' : ` ${label} n=${s.mcp.n} mcp Full@10 ${s.mcp.full10.toFixed(3)} R@10 ${s.mcp.r10.toFixed(3)} | in-process ${s.inProcess.full10.toFixed(3)} ${s.inProcess.r10.toFixed(3)} | differ ${s.differentTop10} notOk ${s.notOk} empty ${s.empty};`;
    process.stderr.write(`${r.name}:${line('dev', r.dev)}${line('held-out', r.heldOut)}${r.devDifferent.length ? ` dev differ: ${r.devDifferent.join(' ')}` : ''}\n`);
  }
  if (devOnly) return;
  writeResults('retrieval-mcp', { generatedAt: new Date().toISOString(), node: process.version, limit: LIMIT, sets: results }, markdown(results));
}

/** The relations of a catalog file by kind, plus `mirror`: views the search index leaves out as renamings. */
async function liveRelations(catalogPath: string): Promise<Record<string, number>> {
  const store = await CatalogStore.open(catalogPath);
  try {
    const tables = CatalogView.open(store).view.entries.map((e) => ({ sourceName: e.source.name, table: e.table }));
    const out: Record<string, number> = {};
    for (const { table } of tables) out[table.kind] = (out[table.kind] ?? 0) + 1;
    out.mirror = buildIndexData(searchInput(tables, () => false)).docs.filter(isMirror).length;
    return out;
  } finally {
    store.close();
  }
}

type CallTool = (params: { name: string; arguments: Record<string, unknown> }) => Promise<unknown>;

async function runSet(set: BenchSet, database: string, callTool: CallTool, engine: ReturnType<typeof buildSearchIndex>): Promise<Omit<SetResult, 'live'>> {
  const source = set.tables[0]?.sourceName ?? set.name;
  const split = async (questions: readonly BenchQuestion[], dev: boolean): Promise<{ result: SplitResult | null; different: string[] }> => {
    if (questions.length === 0) return { result: null, different: [] };
    const mcp: Scores[] = [];
    const local: Scores[] = [];
    const different: string[] = [];
    let notOk = 0;
    let empty = 0;
    const byConfidence: CalibrationTable = {};
    for (const q of questions) {
      const answer = answerTables(await callTool({ name: 'find_relevant_tables', arguments: { query: q.text, limit: LIMIT } }), source);
      if (answer.status !== 'success') notOk++;
      if (answer.tables.length === 0) empty++;
      const inProcess = engine.search(q.text, { limit: LIMIT }).hits.map((h) => key(h.sourceName, h.qualifiedName));
      if (answer.tables.join('\n') !== inProcess.join('\n')) different.push(q.id);
      const viaMcp = score(answer.tables, q);
      const viaEngine = score(inProcess, q);
      if (dev && showDevLosses && viaMcp.full10 < viaEngine.full10) process.stderr.write(`LOSS ${q.id} ${q.text}\n  mcp: ${answer.tables.join(' ')}\n  in:  ${inProcess.join(' ')}\n`);
      tallyConfidence(byConfidence, answer.confidence, viaMcp);
      mcp.push(viaMcp);
      local.push(viaEngine);
    }
    return { result: { mcp: mean(mcp), inProcess: mean(local), differentTop10: different.length, notOk, empty, byConfidence }, different: dev ? different : [] };
  };
  const dev = await split(set.questions.filter((q) => q.dev), true);
  const heldOut = devOnly ? { result: null, different: [] } : await split(set.questions.filter((q) => !q.dev), false);
  return { name: set.name, database, tables: set.tables.length, dev: dev.result, heldOut: heldOut.result, devDifferent: dev.different };
}

function markdown(results: readonly SetResult[]): string {
  const f = (x: number): string => x.toFixed(3);
  const rows: string[] = [];
  for (const r of results) {
    for (const [label, s] of [
      ['dev', r.dev],
      ['held-out', r.heldOut],
    ] as const) {
      if (s === null) continue;
      rows.push(`| ${r.name} | ${label} | ${s.mcp.n} | ${f(s.mcp.full10)} | ${f(s.inProcess.full10)} | ${f(s.mcp.r10)} | ${f(s.inProcess.r10)} | ${f(s.mcp.r5)} | ${f(s.inProcess.r5)} | ${f(s.mcp.mrr)} | ${f(s.inProcess.mrr)} | ${s.differentTop10} | ${s.notOk} | ${s.empty} |`);
    }
  }
  // The goals: every blind round of a database pooled, as the tool answered and as the engine did in-process.
  const goals: string[] = [];
  for (const [db, goal] of Object.entries(BLIND_GOALS)) {
    for (const { label, halves, judged } of goalParts(results, db, (r, split) => r[split])) {
      const mcp = completeAnswers(halves.map((x) => x.mcp));
      const inProcess = completeAnswers(halves.map((x) => x.inProcess));
      const verdict = judged ? `${goal.toFixed(2)} | ${goalVerdict(mcp.share, goal)}` : ' | ';
      goals.push(`| ${db} | ${label} | ${mcp.n} | ${shareWithInterval(mcp)} | ${mcp.k} | ${inProcess.share.toFixed(3)} (${inProcess.k}) | ${verdict} |`);
    }
  }
  // What an agent reads as the answer's confidence, against whether the answer is right: pooled over every set.
  const calibration = [...calibrationRows('dev', poolCalibration(results.map((r) => r.dev?.byConfidence))), ...calibrationRows('held-out', poolCalibration(results.map((r) => r.heldOut?.byConfidence)))];
  const seen = new Set<string>();
  const catalogs = results
    .filter((r) => !seen.has(r.database) && seen.add(r.database))
    .map((r) => `\`${r.database}\`: ${Object.entries(r.live).filter(([k]) => k !== 'mirror').map(([k, v]) => `${v} ${k.replace('_', ' ')}${v === 1 ? '' : 's'}`).join(', ')}; ${r.live.mirror ?? 0} of the views only rename one relation (mirrors)`)
    .join('; ');
  return `# Retrieval through the real tool (\`find_relevant_tables\` over MCP)

Generated by \`npx tsx bench/retrieval/through-mcp.ts\`. Each database is loaded into PostgreSQL (MusicBrainz and
AdventureWorks as schema only, Pagila with its data), indexed by the CLI (\`dist/cli.js index\`: live introspection,
sampling on), and every question is asked of \`dist/server.js\` over stdio by an MCP client, \`limit\` ${LIMIT}. The
same questions are ranked in-process, in the same run, on the catalogs that \`run.ts\` parses from the pg_dump files.
Gold and metrics are those of \`run.ts\`; held-out questions are scored as aggregates only.

The live catalogs hold what the pg_dump parse leaves out: ${catalogs}. The in-process catalogs have tables only (and
Pagila's code-list labels from its data dump), so the two paths rank the same questions over different relations.

## Against the goals

Every blind round of a database pooled. "held-out": the held-out halves of the rounds open to tuning, only ever scored
as aggregates; "dev": their dev halves, tuned on; "untuned rounds": rounds 11 and 12, both halves, kept out of tuning.
Brackets: 95% Wilson interval of the share answered through the tool.

| database | part | n | MCP Full@10 [95% interval] | complete | in-process Full@10 (complete) | goal (held-out Full@10) | verdict |
|---|---|---|---|---|---|---|---|
${goals.join('\n')}

## Every set

| set | split | n | MCP Full@10 | in-process Full@10 | MCP R@10 | in-process R@10 | MCP R@5 | in-process R@5 | MCP MRR | in-process MRR | top 10 differs | not \`success\` | no table |
|---|---|---|---|---|---|---|---|---|---|---|---|---|---|
${rows.join('\n')}

"top 10 differs": questions whose ten tables, in order, are not the same on both paths. "not \`success\`": answers with
another status (a weak match answers \`degraded\` with the best candidates and a map of the schema's areas); "no
table": answers without any table.

## What the answer's confidence says

Every set above pooled, by the \`confidence\` of the answer (\`LOW\` includes the weak matches answered \`degraded\`):
how often the first table is one the question needs, and how often the ten hold all it needs.

| split | confidence | answers | first table right | complete at 10 |
|---|---|---|---|---|
${calibration.join('\n')}
`;
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
