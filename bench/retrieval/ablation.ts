/**
 * What each ranking constant is worth, on the dev splits only: `npx tsx bench/retrieval/ablation.ts [--render]`
 * (`--render` writes the report again from the committed JSON, without measuring).
 *
 * Sets one constant of `RANKING` at a time to 0 (the others at their values) and counts what changes against the
 * engine as it is: complete answers of ten (Full@10) on the pooled dev halves of each blind database, and the summed
 * R@5 of the dev questions of Spider and BIRD per database and of Spider 2.0-lite. Writes
 * `bench/results/retrieval-ablation.{json,md}`. Held-out questions are never run, nor the rounds kept out of tuning
 * (UNTUNED_ROUNDS), so the map can guide tuning without reading what the goals are measured on.
 *
 * Zero switches a raise, a share or a rule off; for a count or a threshold (`candidates`, `pathMaxHops`) it means
 * something else, which the table shows with the constant's own description.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BM25F } from '../../src/core/search/build';
import { buildSearchIndex } from '../../src/core/search/index';
import { RANKING } from '../../src/core/search/rank';
import { machineFacts, writeResults } from '../core/measure';
import { tuningSets } from './blind-sets';
import { key, type BenchSet } from './datasets';
import { scoreQuestion } from './scores';

const ROOT = path.resolve(__dirname, '..', '..');
const RESULTS = path.join(ROOT, 'bench', 'results');

interface Group {
  readonly name: string;
  /** `full10`: complete answers of ten; `r5`: summed recall at five. */
  readonly metric: 'full10' | 'r5';
  readonly parts: Array<{ set: BenchSet; index: ReturnType<typeof buildSearchIndex> }>;
}

/**
 * The first sentence of each constant's doc comment in the file that defines RANKING. A constant of `names` with no
 * comment of its own gets the first sentence of the first comment that names it in backticks, marked with the constant
 * that comment belongs to.
 */
export function constantDescriptions(source: string, names: readonly string[] = []): Map<string, string> {
  const out = new Map<string, string>();
  const comments: Array<{ owner: string; text: string }> = [];
  const firstSentence = (text: string): string => {
    const first = /^(.+?\.)(?:\s|$)/.exec(text)?.[1] ?? text;
    return first.length > 150 ? `${first.slice(0, 147)}…` : first;
  };
  for (const m of source.matchAll(/\/\*\*((?:(?!\*\/)[\s\S])*)\*\/\s*(\w+):/g)) {
    const text = m[1]!
      .split('\n')
      .map((l) => l.replace(/^\s*\*\s?/, '').trim())
      .join(' ')
      .replace(/\s+/g, ' ')
      .trim();
    comments.push({ owner: m[2]!, text });
    out.set(m[2]!, firstSentence(text));
  }
  for (const name of names) {
    if (out.has(name)) continue;
    const c = comments.find((x) => x.text.includes(`\`${name}\``));
    if (c !== undefined) out.set(name, `(with \`${c.owner}\`) ${firstSentence(c.text)}`);
  }
  return out;
}

/** The source of the file that defines RANKING, for the constants' descriptions ('' when it cannot be read). */
function rankingSource(): string {
  try {
    return readFileSync(path.join(ROOT, 'src', 'core', 'search', 'ranking.ts'), 'utf8');
  } catch {
    return '';
  }
}

/** The tuning sets pooled by group, each with its index, in their order. */
function groups(): Group[] {
  const out = new Map<string, Group>();
  for (const { set, group, metric } of tuningSets()) {
    const g = out.get(group) ?? { name: group, metric, parts: [] };
    g.parts.push({ set, index: buildSearchIndex({ tables: set.tables }) });
    out.set(group, g);
  }
  return [...out.values()];
}

/** Per group: its metric summed over its dev questions. */
function measure(gs: readonly Group[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const g of gs) {
    let sum = 0;
    for (const { set, index } of g.parts) {
      for (const q of set.questions) {
        if (!q.dev || q.gold.length === 0) continue;
        const ranked = index.search(q.text, { limit: 10, source: q.source }).hits.map((h) => key(h.sourceName, h.qualifiedName));
        sum += scoreQuestion(ranked, q)[g.metric];
      }
    }
    out[g.name] = sum;
  }
  return out;
}

function devCounts(gs: readonly Group[]): Record<string, number> {
  return Object.fromEntries(gs.map((g) => [g.name, g.parts.reduce((n, p) => n + p.set.questions.filter((q) => q.dev && q.gold.length > 0).length, 0)]));
}

function fmt(x: number, metric: 'full10' | 'r5'): string {
  const v = metric === 'full10' ? Math.round(x) : Math.round(x * 10) / 10;
  return v === 0 ? '0' : v > 0 ? `+${v}` : String(v);
}

interface Row {
  readonly constant: string;
  readonly value: number;
  readonly about: string;
  /** Per group, the change in its metric against the base. */
  readonly delta: Readonly<Record<string, number>>;
}

interface Ablation {
  readonly generated: string;
  readonly commit: string;
  readonly groups: ReadonlyArray<{ readonly name: string; readonly metric: 'full10' | 'r5' }>;
  readonly base: Readonly<Record<string, number>>;
  readonly devQuestions: Readonly<Record<string, number>>;
  /** Constants the index reads when it is built (BM25F): zeroing them at search time would show nothing. */
  readonly buildTime: readonly string[];
  readonly rows: readonly Row[];
}

function measureAll(): Ablation {
  const constants = RANKING as unknown as Record<string, number>;
  const defaults: Record<string, number> = { ...constants };
  const buildTime = Object.keys(BM25F);
  const gs = groups();
  const base = measure(gs);
  const rows: Row[] = [];
  for (const [name, value] of Object.entries(defaults)) {
    if (typeof value !== 'number' || value === 0 || buildTime.includes(name)) continue;
    constants[name] = 0;
    try {
      const m = measure(gs);
      // main() describes each constant from the source.
      rows.push({ constant: name, value, about: '', delta: Object.fromEntries(gs.map((g) => [g.name, m[g.name]! - base[g.name]!])) });
    } finally {
      constants[name] = value;
    }
    process.stderr.write('.');
  }
  process.stderr.write('\n');
  return { generated: new Date().toISOString(), commit: machineFacts().commit, groups: gs.map((g) => ({ name: g.name, metric: g.metric })), base, devQuestions: devCounts(gs), buildTime, rows };
}

/** The report for people, from the measured JSON. */
export function renderAblation(a: Ablation): string {
  const gs = a.groups;
  const blind = gs.filter((g) => g.metric === 'full10');
  const blindSum = (r: Row): number => blind.reduce((s, g) => s + r.delta[g.name]!, 0);
  const moved = (r: Row, g: Ablation['groups'][number]): boolean => (g.metric === 'full10' ? Math.round(r.delta[g.name]!) !== 0 : Math.abs(r.delta[g.name]!) >= 0.05);
  const gainsOn = (r: Row): Ablation['groups'] => gs.filter((g) => moved(r, g) && r.delta[g.name]! > 0);
  const lossesOn = (r: Row): Ablation['groups'] => gs.filter((g) => moved(r, g) && r.delta[g.name]! < 0);
  const rows = [...a.rows].sort((x, y) => blindSum(x) - blindSum(y) || x.constant.localeCompare(y.constant));
  const none = rows.filter((r) => gs.every((g) => !moved(r, g)));
  const onlyGains = rows.filter((r) => gainsOn(r).length > 0 && lossesOn(r).length === 0);
  const mixed = rows.filter((r) => gainsOn(r).length > 0 && lossesOn(r).length > 0);
  const small = rows.filter((r) => !none.includes(r) && !onlyGains.includes(r) && gs.every((g) => (g.metric === 'full10' ? Math.abs(r.delta[g.name]!) <= 3 : Math.abs(r.delta[g.name]!) < 1)));
  const changes = (r: Row, on: Ablation['groups']): string => on.map((g) => `${g.name} ${fmt(r.delta[g.name]!, g.metric)}`).join(', ');
  const names = (list: readonly Row[]): string => list.map((r) => `\`${r.constant}\``).join(', ') || 'none';
  const head = `| constant | value | what it is | ${gs.map((g) => `${g.name} (${g.metric === 'full10' ? 'Full@10' : 'R@5'})`).join(' | ')} |\n| --- | ---: | --- | ${gs.map(() => '---:').join(' | ')} |\n`;
  const line = (r: Row): string => `| \`${r.constant}\` | ${r.value} | ${r.about.replace(/\|/g, '\\|')} | ${gs.map((g) => fmt(r.delta[g.name]!, g.metric)).join(' | ')} |`;
  return [
    '# What each ranking constant is worth (dev splits only)',
    '',
    `Generated by \`npx tsx bench/retrieval/ablation.ts\` on ${a.generated}, commit ${a.commit}.`,
    '',
    'Each row sets one constant of `RANKING` (`src/core/search/ranking.ts`) to 0, the others at their values, and counts',
    'the change against the engine as it is. Blind databases: complete answers of ten (Full@10) on the pooled dev halves of',
    'the rounds open to tuning. Spider and BIRD per database and Spider 2.0-lite: the summed R@5 of their dev questions (one',
    'question whose gold moves from four of five tables to five counts +0.2). Held-out halves and untuned rounds are never',
    'run. Zero switches a raise, a share or a rule off; for a count or a threshold it means something else (zero',
    '`candidates` ranks nothing; zero `commonMinTables` applies the rule for common words to every catalog), so read each',
    `row with the constant's own description. ${a.buildTime.map((k) => `\`${k}\``).join(', ')} ${a.buildTime.length === 1 ? 'is' : 'are'} read when the index is built and left out here.`,
    '',
    `Base (the engine as it is): ${gs.map((g) => `${g.name} ${fmt(a.base[g.name]!, g.metric).replace(/^\+/, '')} of ${a.devQuestions[g.name]}`).join(' · ')}.`,
    '',
    '## Summary',
    '',
    `- ${rows.length} constants measured. ${none.length} change no dev answer on any of these sets when zeroed: ${names(none)}. Each has a unit test of the question shape it serves (\`test/unit/search\`), a shape these sets do not hold.`,
    `- ${small.length} more move at most three complete answers of any blind database and less than one unit of R@5 elsewhere: the long tail of the ranking.`,
    `- Zeroing gains and loses nothing for ${onlyGains.length}: ${onlyGains.map((r) => `\`${r.constant}\` (${changes(r, gainsOn(r))})`).join('; ') || 'none'}.`,
    `- Zeroing gains on one set and loses on another for ${mixed.length}: ${mixed.map((r) => `\`${r.constant}\` (${changes(r, [...gainsOn(r), ...lossesOn(r)])})`).join('; ') || 'none'}.`,
    `- The largest losses, blind databases together: ${rows.slice(0, 8).map((r) => `\`${r.constant}\` (${fmt(blindSum(r), 'full10')})`).join(', ')}.`,
    '',
    '## Every constant, largest loss first (blind databases together)',
    '',
    head + rows.map(line).join('\n'),
    '',
  ].join('\n');
}

function main(): void {
  // --render: the report again from the committed JSON, without measuring.
  const measured = process.argv.includes('--render') ? (JSON.parse(readFileSync(path.join(RESULTS, 'retrieval-ablation.json'), 'utf8')) as Ablation) : measureAll();
  // The descriptions come from the source as it is now, measured or not.
  const about = constantDescriptions(rankingSource(), measured.rows.map((r) => r.constant));
  const a: Ablation = { ...measured, rows: measured.rows.map((r) => ({ ...r, about: about.get(r.constant) ?? '' })) };
  writeResults('retrieval-ablation', a, renderAblation(a));
  process.stdout.write(`${a.rows.length} constants; written to bench/results/retrieval-ablation.md\n`);
}

if (require.main === module) main();
