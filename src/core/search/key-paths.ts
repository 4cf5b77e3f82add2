/**
 * Paths in the foreign-key graph: the breadth-first walk from a table (FkWalk) and the best of equally short paths,
 * the join paths completed between the leading tables (fillPaths), the tables a path passes on a key alone, and the
 * join tree of an answer.
 */
import type { IndexData } from './build';
import type { JoinEdge } from './types';
import { RANKING } from './ranking';
import { pushExtra, topCandidates, type QueryState } from './query-state';
import { bareMarks, isBareSupertype, isOwnTable } from './table-shape';

/**
 * Whether an FK of either table points at the other, other than as a subtype's key (`person` → `businessentity`: a
 * person is a row of the other table, not related to one of its rows).
 */
export function joinedDirectly(data: IndexData, a: number, b: number): boolean {
  for (const e of data.edges[a]!) if (e.to === b && !e.subtype) return true;
  return false;
}

/**
 * Shortest FK path from `from` to the nearest of `targets` (up to `pathMaxHops` edges). Breadth-first by layers,
 * keeping every parent so that ties between equally short paths can be broken: the best-scored target, then the path
 * whose intermediates hold most of what `prefer` measures, then the one whose intermediates score best. With
 * `ownFirst`, the path leaves `from` through one of its own FKs or into a table of its own (isOwnTable: `release` →
 * `release_country` → `country_area` → `area`, not `release` → `release_group` → `l_area_release_group` → `area`).
 */
export function pathToAny(data: IndexData, from: number, targets: ReadonlySet<number>, allowed: (d: number) => boolean, st: QueryState, ownFirst = false, prefer?: Float32Array): number[] | null {
  return new FkWalk(data, from, allowed, ownFirst).pathToAny(targets, st, prefer);
}

/**
 * A breadth-first walk of FK edges from one table, by layers of up to `pathMaxHops` edges, extended only as far as a
 * question needs: the first layer that reaches a target ends it, and a later question asked of the same walk
 * (fillPaths asks one walk for each other table it pairs `from` with) extends it from there. Every table reached
 * keeps all its parents in the layer before it (bestPath chooses among them); a layer never changes what earlier
 * layers hold, so the answer for a target is the same whichever question extended the walk first.
 */
class FkWalk {
  /** Per table, 0 when not reached, else its layer + 1 (`from` is layer 0). */
  private readonly depth: Uint8Array;
  /** Per reached table, its first parent in the layer before it; further parents in `moreParents`. */
  private readonly parent: Int32Array;
  private readonly moreParents = new Map<number, number[]>();
  private frontier: number[];
  private layers = 0;
  /** No further layer: the hops are spent, nothing is left to reach, or a layer grew past 2000 tables. */
  private done = false;
  /** Tables entered from a subtype of theirs that has no name of its own (`person` → `businessentity`): their other
   * subtypes (`vendor`, `store`) are other rows, not related ones (EdgeData.subtype). */
  private abstractUp: Set<number> | null = null;

  constructor(
    private readonly data: IndexData,
    private readonly from: number,
    private readonly allowed: (d: number) => boolean,
    private readonly ownFirst: boolean,
  ) {
    const n = data.docs.length;
    this.depth = new Uint8Array(n);
    this.parent = new Int32Array(n);
    this.depth[from] = 1;
    this.parent[from] = -1;
    this.frontier = [from];
  }

  /** The best path to the nearest of `targets` (the best-scored of those equally near), or null past the hops. */
  pathToAny(targets: ReadonlySet<number>, st: QueryState, prefer?: Float32Array): number[] | null {
    let layer = 1;
    for (;;) {
      if (layer > this.layers && !this.extend()) return null;
      const reached: number[] = [];
      for (const t of targets) if (this.depth[t] === layer + 1) reached.push(t);
      if (reached.length > 0) {
        reached.sort((x, y) => st.score[y]! - st.score[x]! || this.data.order[x]! - this.data.order[y]!);
        return bestPath(this.data, (v) => this.parentsOf(v), this.from, reached[0]!, st, prefer);
      }
      layer++;
    }
  }

  /** The parents of a reached table in the layer before it, in the order the walk met them. */
  private parentsOf(v: number): readonly number[] {
    const first = this.parent[v]!;
    if (first < 0) return [];
    const more = this.moreParents.get(v);
    return more === undefined ? [first] : [first, ...more];
  }

  /** Adds the next layer; false when there is none. */
  private extend(): boolean {
    const data = this.data;
    if (this.done || this.layers >= RANKING.pathMaxHops || this.frontier.length === 0) return false;
    const bare = bareMarks(data);
    const next: number[] = [];
    const layer = this.layers + 1;
    for (const u of this.frontier) {
      const up = this.abstractUp !== null && this.abstractUp.has(u);
      for (const e of data.edges[u]!) {
        const v = e.to;
        if (up && !e.outgoing && e.subtype) continue;
        const seen = this.depth[v]!;
        if (seen !== 0) {
          if (seen === layer + 1 && this.parent[v] !== u) {
            const more = this.moreParents.get(v);
            if (more === undefined) this.moreParents.set(v, [u]);
            else if (!more.includes(u)) more.push(u);
          }
          continue;
        }
        if (!this.allowed(v) || (this.ownFirst && layer === 1 && !e.outgoing && !(RANKING.ownTables > 0 && isOwnTable(data.docs[this.from]!, data.docs[v]!)))) continue;
        this.depth[v] = layer + 1;
        this.parent[v] = u;
        next.push(v);
        if (e.outgoing && e.subtype && bare !== null && isBareSupertype(data, v, bare)) (this.abstractUp ??= new Set()).add(v);
      }
    }
    this.layers = layer;
    this.frontier = next;
    if (next.length > 2000) this.done = true;
    return true;
  }
}

/** Whether the join path passes its `i`-th table on a key alone: a bare table of keys, or keyPassesThrough. */
export function passedOnKey(data: IndexData, path: readonly number[], i: number): boolean {
  return isBareSupertype(data, path[i]!) || keyPassesThrough(data, path[i - 1]!, path[i]!, path[i + 1]!);
}

/**
 * Whether a join path passes `mid` on its key alone: `mid` is a subtype of one neighbour on the path (its primary key
 * is its key to it) and the other points at that primary key (`salesperson` → `employee` → `person`; `release_country`
 * → `country_area` → `area`). The neighbours then join on the key directly; `mid` holds nothing the join needs.
 */
function keyPassesThrough(data: IndexData, prev: number, mid: number, next: number): boolean {
  if (!(RANKING.keyThrough > 0)) return false;
  // Up: `mid`'s key to a neighbour is its primary key. Down: the other neighbour points at `mid`.
  let upPrev = false;
  let upNext = false;
  let downPrev = false;
  let downNext = false;
  for (const e of data.edges[mid]!) {
    if (e.to !== prev && e.to !== next) continue;
    if (!e.outgoing) {
      if (e.to === prev) downPrev = true;
      else downNext = true;
    } else if (e.subtype) {
      if (e.to === prev) upPrev = true;
      else upNext = true;
    }
  }
  return (upNext && downPrev) || (upPrev && downNext);
}

/**
 * Complete the join set: for each pair of top hits in one source that no FK joins directly, the tables on the
 * shortest FK path between them (up to `pathMaxHops` edges) are pulled up to just below the weaker endpoint.
 * Among equally short paths the one whose intermediates already score best wins, then the lexically first.
 * `walked` keeps the path of each pair an earlier pass walked (keyed `a * n + b`, a < b), so a second pass only walks
 * the pairs it has not seen; the tables on a known path are raised again with the current scores.
 */
export function fillPaths(data: IndexData, ranked: number[], lexical: ReadonlySet<number>, unasked: (d: number) => boolean, st: QueryState, allowed: (d: number) => boolean, walked: Map<number, number[] | null>): number[] {
  if (ranked.length < 2) return ranked;
  const topScore = st.score[ranked[0]!]!;
  // Views have no keys of their own to join by: they take no place among the tables a join set is completed for.
  const top = (RANKING.pathViews > 0 ? ranked.filter((d) => !data.docs[d]!.derived) : ranked).slice(0, RANKING.pathTop).filter((d) => st.score[d]! >= RANKING.pathFloor * topScore);
  let changed = false;
  // One walk from each table, asked for each table it is paired with.
  const walks = new Map<number, FkWalk>();
  for (let i = 0; i < top.length; i++) {
    for (let j = i + 1; j < top.length; j++) {
      const a = top[i]!;
      const b = top[j]!;
      // Two tables reached only as holders of people or places ("in Norway") are alternatives, not a join.
      if (data.docs[a]!.source !== data.docs[b]!.source || (!lexical.has(a) && !lexical.has(b))) continue;
      const pair = Math.min(a, b) * data.docs.length + Math.max(a, b);
      let path = walked.get(pair);
      if (path === undefined) {
        let walk = walks.get(a);
        if (walk === undefined) walks.set(a, (walk = new FkWalk(data, a, allowed, false)));
        path = walk.pathToAny(new Set([b]), st);
        walked.set(pair, path);
      }
      if (path === null || path.length <= 2) continue;
      const lo = Math.min(st.score[a]!, st.score[b]!);
      const hi = Math.max(st.score[a]!, st.score[b]!);
      const target = RANKING.pathFill * (path.length === 3 && RANKING.pathMean > 0 ? lo ** (1 - RANKING.pathMean) * hi ** RANKING.pathMean : lo);
      for (let i = 1; i < path.length - 1; i++) {
        const mid = path[i]!;
        if (passedOnKey(data, path, i)) continue;
        const value = unasked(mid) ? RANKING.auxiliary * target : target;
        if (st.score[mid]! >= value) continue;
        st.touch(mid);
        st.score[mid] = value;
        pushExtra(st, mid, { weight: value, text: `joins ${data.docs[a]!.name} and ${data.docs[b]!.name}` });
        changed = true;
      }
    }
  }
  return changed ? topCandidates(data, st, RANKING.candidates) : ranked;
}

function bestPath(data: IndexData, parents: (v: number) => readonly number[], from: number, to: number, st: QueryState, prefer?: Float32Array): number[] {
  // Each path is scored first by how few tables it meets from both sides (converges), then by how surely its
  // intermediates hold what `prefer` measures, then by their scores.
  type Walk = { path: number[]; c: number; p: number; s: number };
  const memo = new Map<number, Walk>();
  const walk = (v: number): Walk => {
    const hit = memo.get(v);
    if (hit !== undefined) return hit;
    if (v === from) return { path: [from], c: 0, p: 0, s: 0 };
    let best: Walk | null = null;
    let bestParent = -1;
    for (const par of parents(v)) {
      const r = walk(par);
      const mid = v !== to;
      const before = r.path.length >= 2 ? r.path[r.path.length - 2]! : -1;
      const c = r.c + (RANKING.convergence > 0 && before >= 0 && converges(data, before, par, v) ? 1 : 0);
      const cand = { path: [...r.path, v], c, p: r.p + (mid && prefer !== undefined ? prefer[v]! : 0), s: r.s + (mid ? st.score[v]! : 0) };
      if (best === null || cand.c < best.c || (cand.c === best.c && (cand.p > best.p || (cand.p === best.p && (cand.s > best.s || (cand.s === best.s && data.order[par]! < data.order[bestParent]!)))))) {
        best = cand;
        bestParent = par;
      }
    }
    memo.set(v, best!);
    return best!;
  };
  return walk(to).path;
}

/**
 * Whether a join path meets `mid` from both sides: `prev` and `next` each point at it (`track` → `artist_credit` ←
 * `release`). Such a join pairs rows that share a value of `mid` ("the same credit"), not rows that belong together
 * (`track` → `medium` → `release`), so among equally short paths one that converges less is taken.
 */
function converges(data: IndexData, prev: number, mid: number, next: number): boolean {
  let fromPrev = false;
  let fromNext = false;
  for (const e of data.edges[mid]!) {
    if (e.outgoing) continue;
    if (e.to === prev) fromPrev = true;
    else if (e.to === next) fromNext = true;
  }
  return fromPrev && fromNext;
}

/**
 * FK edges that connect the given tables: a breadth-first tree from the first hit over the FK graph restricted to
 * the hits, then further components from their own first member. Deterministic: edges in declaration order.
 */
export function joinTree(data: IndexData, members: readonly number[]): JoinEdge[] {
  const inSet = new Set(members);
  const visited = new Set<number>();
  const out: JoinEdge[] = [];
  for (const root of members) {
    if (visited.has(root)) continue;
    visited.add(root);
    const queue = [root];
    while (queue.length > 0) {
      const u = queue.shift()!;
      for (const e of data.edges[u]!) {
        if (!inSet.has(e.to) || visited.has(e.to)) continue;
        visited.add(e.to);
        queue.push(e.to);
        const [from, to] = e.outgoing ? [u, e.to] : [e.to, u];
        out.push({
          sourceName: data.docs[u]!.source,
          from: data.docs[from]!.qualifiedName,
          fromColumns: e.fromColumns,
          to: data.docs[to]!.qualifiedName,
          toColumns: e.toColumns,
          constraint: e.constraint,
        });
      }
    }
  }
  return out;
}
