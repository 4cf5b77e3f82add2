import { fansOut, flipCardinality } from './types';
import type { Cardinality, JoinDef, SemanticModel } from './types';

/**
 * Path finding over the canonical-join graph. The graph is undirected; an edge walked against its declared
 * direction flips its cardinality (`many_to_one` read backwards is `one_to_many`). Cost is lexicographic: first
 * the number of edges not named in `via`, then the number of edges, so `via` can force a longer route or pick
 * one of two parallel joins. Shortest paths are counted; a target reached by more than one optimal path is
 * ambiguous, and we tell parallel joins on the same hop (`ambiguous_join`) from different routes
 * (`ambiguous_path`).
 */

export interface Step {
  readonly join: JoinDef;
  readonly fromEntity: string;
  readonly toEntity: string;
  /** Cardinality read in the direction walked (from the metric's side outward). */
  readonly cardinality: Cardinality;
  readonly reversed: boolean;
}

export type PathOutcome =
  | { readonly kind: 'ok'; readonly steps: readonly Step[] }
  | { readonly kind: 'unreachable' }
  | { readonly kind: 'ambiguous_join'; readonly candidates: readonly string[]; readonly firstPath: readonly string[] }
  | { readonly kind: 'ambiguous_path'; readonly paths: readonly (readonly string[])[] };

const NON_VIA_WEIGHT = 1024;
const MAX_ENUMERATED = 8;

interface Pred {
  readonly from: string;
  readonly join: JoinDef;
}

export interface ShortestPaths {
  pathTo(target: string): PathOutcome;
}

export function shortestPaths(model: SemanticModel, anchor: string, via: ReadonlySet<string>): ShortestPaths {
  const dist = new Map<string, number>([[anchor, 0]]);
  const preds = new Map<string, Pred[]>();
  const done = new Set<string>();
  const order: string[] = [];
  // Graphs are tens of entities: a linear-scan Dijkstra beats a heap here.
  const frontier = new Set<string>([anchor]);
  while (frontier.size > 0) {
    let u: string | null = null;
    let best = Infinity;
    for (const n of frontier) {
      const d = dist.get(n)!;
      if (d < best) {
        best = d;
        u = n;
      }
    }
    frontier.delete(u!);
    const cur = u!;
    done.add(cur);
    order.push(cur);
    for (const jn of model.joinsByEntity.get(cur) ?? []) {
      const j = model.joins.get(jn)!;
      if (j.from === j.to) continue; // self-references never lie on a shortest path between entities
      const other = j.from === cur ? j.to : j.from;
      if (done.has(other)) continue;
      const nd = best + (via.has(j.name) ? 1 : NON_VIA_WEIGHT);
      const od = dist.get(other);
      if (od === undefined || nd < od) {
        dist.set(other, nd);
        preds.set(other, [{ from: cur, join: j }]);
        frontier.add(other);
      } else if (nd === od) {
        preds.get(other)!.push({ from: cur, join: j });
      }
    }
  }
  const count = new Map<string, number>([[anchor, 1]]);
  for (const n of order) {
    if (n === anchor) continue;
    count.set(n, (preds.get(n) ?? []).reduce((s, p) => s + (count.get(p.from) ?? 0), 0));
  }

  const enumerate = (target: string): Pred[][] => {
    const out: Pred[][] = [];
    const walk = (n: string, acc: Pred[]): void => {
      if (out.length >= MAX_ENUMERATED) return;
      if (n === anchor) {
        out.push([...acc].reverse());
        return;
      }
      for (const p of preds.get(n) ?? []) {
        acc.push(p);
        walk(p.from, acc);
        acc.pop();
      }
    };
    walk(target, []);
    return out;
  };

  return {
    pathTo(target) {
      if (target === anchor) return { kind: 'ok', steps: [] };
      if (!dist.has(target)) return { kind: 'unreachable' };
      const paths = enumerate(target);
      if ((count.get(target) ?? 0) > 1) {
        const seqs = paths.map((p) => p.map((x) => x.from).join('>'));
        if (new Set(seqs).size === 1) {
          // Same entities hop by hop: parallel joins. Name the alternatives on the first hop where they differ.
          const hop = paths[0]!.findIndex((_, i) => new Set(paths.map((p) => p[i]!.join.name)).size > 1);
          const candidates = [...new Set(paths.map((p) => p[hop]!.join.name))].sort();
          return { kind: 'ambiguous_join', candidates, firstPath: paths[0]!.map((p) => p.join.name) };
        }
        return { kind: 'ambiguous_path', paths: paths.map((p) => p.map((x) => x.join.name)) };
      }
      const steps = paths[0]!.map((p, i, all): Step => {
        const toEntity = i + 1 < all.length ? all[i + 1]!.from : target;
        const reversed = p.join.from !== p.from;
        return { join: p.join, fromEntity: p.from, toEntity, reversed, cardinality: reversed ? flipCardinality(p.join.cardinality) : p.join.cardinality };
      });
      return { kind: 'ok', steps };
    },
  };
}

/**
 * Entities reachable from the anchor without fan-out (every step many_to_one or one_to_one), by hop distance.
 * Used to inherit a time dimension: only a column that is single-valued per anchor row may bucket it.
 */
export function nonFanOutReach(model: SemanticModel, anchor: string): Map<string, { hops: number; via: readonly string[] }> {
  const out = new Map<string, { hops: number; via: readonly string[] }>([[anchor, { hops: 0, via: [] }]]);
  let layer = [anchor];
  while (layer.length > 0) {
    const next: string[] = [];
    for (const cur of layer) {
      const here = out.get(cur)!;
      for (const jn of model.joinsByEntity.get(cur) ?? []) {
        const j = model.joins.get(jn)!;
        if (j.from === j.to) continue;
        const other = j.from === cur ? j.to : j.from;
        const card = j.from === cur ? j.cardinality : flipCardinality(j.cardinality);
        if (fansOut(card) || out.has(other)) continue;
        out.set(other, { hops: here.hops + 1, via: [...here.via, j.name] });
        next.push(other);
      }
    }
    layer = next;
  }
  return out;
}
