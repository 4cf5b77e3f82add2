/** Per-question retrieval metrics and their means, shared by run.ts and through-mcp.ts. */
import type { BenchQuestion } from './datasets';

export interface Scores {
  n: number;
  r1: number;
  r3: number;
  r5: number;
  r10: number;
  full5: number;
  full10: number;
  mrr: number;
}

export function recallAt(ranked: readonly string[], gold: BenchQuestion['gold'], k: number): number {
  const top = new Set(ranked.slice(0, k));
  return gold.filter((g) => g.some((t) => top.has(t))).length / gold.length;
}

export function scoreQuestion(ranked: readonly string[], q: BenchQuestion): Scores {
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

export function mean(list: readonly Scores[]): Scores {
  const z: Scores = { n: list.length, r1: 0, r3: 0, r5: 0, r10: 0, full5: 0, full10: 0, mrr: 0 };
  if (list.length === 0) return z;
  for (const s of list) for (const k of ['r1', 'r3', 'r5', 'r10', 'full5', 'full10', 'mrr'] as const) z[k] += s[k];
  for (const k of ['r1', 'r3', 'r5', 'r10', 'full5', 'full10', 'mrr'] as const) z[k] = Math.round((z[k] / list.length) * 1000) / 1000;
  return z;
}

/** Answers at one confidence level: how many, how many with a gold table first, how many complete at 10. */
export interface Calibration {
  n: number;
  firstRight: number;
  complete: number;
}

/** Confidence level (`HIGH`, `MEDIUM`, `LOW`) → its answers. */
export type CalibrationTable = Record<string, Calibration>;

const LEVELS = ['HIGH', 'MEDIUM', 'LOW'] as const;

/** Counts one answer, scored by scoreQuestion, under the confidence it was given. */
export function tallyConfidence(table: CalibrationTable, confidence: string, s: Scores): void {
  const c = (table[confidence] ??= { n: 0, firstRight: 0, complete: 0 });
  c.n++;
  if (s.r1 > 0) c.firstRight++;
  if (s.full10 === 1) c.complete++;
}

/** Several tables summed level by level. */
export function poolCalibration(tables: ReadonlyArray<CalibrationTable | undefined>): CalibrationTable {
  const out: CalibrationTable = {};
  for (const t of tables) {
    for (const [k, c] of Object.entries(t ?? {})) {
      const o = (out[k] ??= { n: 0, firstRight: 0, complete: 0 });
      o.n += c.n;
      o.firstRight += c.firstRight;
      o.complete += c.complete;
    }
  }
  return out;
}

/** Markdown rows `| split | level | answers | first table right | complete at 10 |` for the levels with answers. */
export function calibrationRows(split: string, table: CalibrationTable): string[] {
  return LEVELS.flatMap((level) => {
    const c = table[level];
    return c === undefined || c.n === 0 ? [] : [`| ${split} | ${level} | ${c.n} | ${(c.firstRight / c.n).toFixed(3)} | ${(c.complete / c.n).toFixed(3)} |`];
  });
}

/**
 * The 95% Wilson score interval of `k` successes in `n` trials (E. B. Wilson, "Probable inference, the law of
 * succession, and statistical inference", JASA 22, 1927): how far a share measured on a few hundred questions may
 * sit from the share on questions like them. Unlike the normal approximation it stays inside [0, 1] near the ends.
 */
export function wilson(k: number, n: number, z = 1.96): [number, number] {
  if (n <= 0) return [0, 1];
  const p = k / n;
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

/**
 * Means of means weighted by question counts: the scores of several sets (or splits) as one pool. For a share such
 * as Full@10, `Math.round(full10 * n)` of the pool is the number of complete answers.
 */
export function pool(list: readonly Scores[]): Scores {
  const n = list.reduce((k, s) => k + s.n, 0);
  const w = (f: (s: Scores) => number): number => (n === 0 ? 0 : list.reduce((k, s) => k + f(s) * s.n, 0) / n);
  return { n, r1: w((s) => s.r1), r3: w((s) => s.r3), r5: w((s) => s.r5), r10: w((s) => s.r10), full5: w((s) => s.full5), full10: w((s) => s.full10), mrr: w((s) => s.mrr) };
}

/** Held-out Full@10 each blind database must reach (the retrieval goals). */
export const BLIND_GOALS: Readonly<Record<string, number>> = { musicbrainz: 0.6, adventureworks: 0.9, pagila: 0.9 };

/**
 * Complete answers (Full@10) of scores pooled from per-set means: each set's Full@10 times its questions, rounded,
 * summed; with their share and its 95% Wilson interval.
 */
export function completeAnswers(list: readonly Scores[]): { n: number; k: number; share: number; lo: number; hi: number } {
  const n = list.reduce((m, s) => m + s.n, 0);
  const k = list.reduce((m, s) => m + Math.round(s.full10 * s.n), 0);
  const [lo, hi] = wilson(k, n);
  return { n, k, share: n === 0 ? 0 : k / n, lo, hi };
}

/** Whether a held-out share reaches its goal, and by how much it falls short when it does not. */
export function goalVerdict(share: number, goal: number): string {
  return share >= goal ? 'met' : `not met (${(goal - share).toFixed(3)} short)`;
}

/** `0.420 [0.388–0.453]`, or a dash for no questions. */
export function shareWithInterval(c: { n: number; share: number; lo: number; hi: number }): string {
  return c.n === 0 ? '—' : `${c.share.toFixed(3)} [${c.lo.toFixed(3)}–${c.hi.toFixed(3)}]`;
}
