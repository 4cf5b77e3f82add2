/**
 * Tuning on the dev splits only: `npx tsx bench/retrieval/dev-compare.ts [NAME=VALUE …] [-- NAME=VALUE …] [--blind-only]`.
 *
 * With one list of ranking constants (`RANKING` in src/core/search/rank.ts, e.g. `junctionEnd=0.8`), prints the
 * pooled dev figures of each blind database (every round's dev half together), Spider and BIRD per database and
 * Spider 2.0-lite with those constants. With two lists separated by `--`, prints instead every dev question whose
 * Full@10 (R@5 for Spider and BIRD) differs between the two settings, with its gold and both top tens. Held-out
 * questions are never run, nor the rounds kept out of tuning (UNTUNED_ROUNDS).
 */
import { buildSearchIndex } from '../../src/core/search/index';
import { RANKING } from '../../src/core/search/rank';
import { tuningSets } from './blind-sets';
import { key, type BenchQuestion } from './datasets';
import { mean, scoreQuestion, type Scores } from './scores';

const args = process.argv.slice(2);
const blindOnly = args.includes('--blind-only');
const split = args.indexOf('--');
const settings = split < 0 ? [args] : [args.slice(0, split), args.slice(split + 1)];
const constants = RANKING as unknown as Record<string, number>;
const defaults: Record<string, number> = { ...constants };

function apply(list: readonly string[]): void {
  Object.assign(constants, defaults);
  for (const a of list) {
    const m = /^(\w+)=(-?[\d.]+)$/.exec(a);
    if (m === null) continue;
    if (!(m[1]! in defaults)) throw new Error(`no ranking constant named ${m[1]}`);
    constants[m[1]!] = Number(m[2]);
  }
}

const sets = tuningSets(blindOnly);

const short = (ranked: readonly string[]): string => ranked.map((t) => t.replace(/^.*\./, '')).join(', ');
const ranking = (index: ReturnType<typeof buildSearchIndex>, q: BenchQuestion): string[] => index.search(q.text, { limit: 10, source: q.source }).hits.map((h) => key(h.sourceName, h.qualifiedName));

const pooled = new Map<string, Scores[]>();
for (const { set, group, metric } of sets) {
  const index = buildSearchIndex({ tables: set.tables });
  for (const q of set.questions) {
    if (!q.dev || q.gold.length === 0) continue;
    if (settings.length === 1) {
      apply(settings[0]!);
      const s = scoreQuestion(ranking(index, q), q);
      pooled.set(group, [...(pooled.get(group) ?? []), s]);
      continue;
    }
    apply(settings[0]!);
    const a = ranking(index, q);
    apply(settings[1]!);
    const b = ranking(index, q);
    const sa = scoreQuestion(a, q)[metric];
    const sb = scoreQuestion(b, q)[metric];
    if (sa === sb) continue;
    process.stdout.write(
      `${sb > sa ? 'GAIN' : 'LOSS'} ${set.name} ${q.id ?? ''} ${metric} ${sa.toFixed(2)} → ${sb.toFixed(2)}: ${q.text}\n` +
        `  gold: ${q.gold.map((g) => g.map((t) => t.replace(/^.*\./, '')).join('|')).join(', ')}\n  before: ${short(a)}\n  after:  ${short(b)}\n`,
    );
  }
}
for (const [group, scores] of pooled) {
  const m = mean(scores);
  process.stdout.write(`${group.padEnd(20)} dev n ${String(scores.length).padStart(4)}  Full@10 ${m.full10.toFixed(3)}  R@10 ${m.r10.toFixed(3)}  R@5 ${m.r5.toFixed(3)}  MRR ${m.mrr.toFixed(3)}\n`);
}
