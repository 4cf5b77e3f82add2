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
