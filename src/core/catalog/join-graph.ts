import type { ForeignKeyInfo } from './model';
import type { CatalogView, TableEntry } from './view';

/**
 * The foreign-key graph of one source, undirected for path finding. Several tables are connected by the
 * Takahashi–Matsuyama Steiner heuristic (grow a tree from each terminal in turn by the shortest path to the next
 * nearest terminal; keep the smallest tree), which is exact for two tables and near-optimal for the handful an
 * agent passes.
 */

export interface JoinEdge {
  readonly from: TableEntry;
  readonly to: TableEntry;
  /** The declared FK, always stored in its own direction (from → to means from holds the FK columns). */
  readonly fk: ForeignKeyInfo;
  readonly fkOwner: TableEntry;
}

export class JoinGraph {
  private readonly adj = new Map<string, JoinEdge[]>();

  constructor(view: CatalogView, sourceName: string) {
    for (const e of view.tablesOf(sourceName)) {
      for (const fk of e.table.foreignKeys) {
        const target = view.lookup(sourceName, fk.targetSchema, fk.targetTable);
        if (!target || target.key === e.key) continue; // self-references never help connect two tables
        this.add({ from: e, to: target, fk, fkOwner: e });
        this.add({ from: target, to: e, fk, fkOwner: e });
      }
    }
  }

  private add(edge: JoinEdge): void {
    const a = this.adj.get(edge.from.key);
    if (a) a.push(edge);
    else this.adj.set(edge.from.key, [edge]);
  }

  neighbours(entry: TableEntry): readonly JoinEdge[] {
    return this.adj.get(entry.key) ?? [];
  }

  /** BFS shortest paths from a set of tree nodes; returns the path (edges) to the nearest target not in the tree. */
  private nearest(tree: ReadonlySet<string>, targets: ReadonlySet<string>, maxHops: number): JoinEdge[] | null {
    const prev = new Map<string, JoinEdge | null>();
    let frontier: string[] = [];
    for (const k of [...tree].sort()) {
      prev.set(k, null);
      frontier.push(k);
    }
    for (let depth = 0; depth < maxHops && frontier.length; depth++) {
      const next: string[] = [];
      for (const k of frontier) {
        const edges = [...(this.adj.get(k) ?? [])].sort((a, b) => a.to.key.localeCompare(b.to.key) || a.fk.name.localeCompare(b.fk.name));
        for (const edge of edges) {
          const nk = edge.to.key;
          if (prev.has(nk)) continue;
          prev.set(nk, edge);
          if (targets.has(nk)) {
            const path: JoinEdge[] = [];
            let cur: string = nk;
            for (let e = prev.get(cur); e; e = prev.get(cur)) {
              path.unshift(e);
              cur = e.from.key;
            }
            return path;
          }
          next.push(nk);
        }
      }
      frontier = next;
    }
    return null;
  }

  /** Smallest tree of FK edges connecting all terminals, or the terminals that cannot be reached within maxHops. */
  connect(terminals: readonly TableEntry[], maxHops: number): { edges: JoinEdge[]; unreachable: TableEntry[] } {
    const keys = [...new Set(terminals.map((t) => t.key))];
    let best: { edges: JoinEdge[]; unreachable: TableEntry[] } | null = null;
    for (const start of keys) {
      const tree = new Set([start]);
      const edges: JoinEdge[] = [];
      const remaining = new Set(keys.filter((k) => k !== start));
      while (remaining.size) {
        const path = this.nearest(tree, remaining, maxHops);
        if (!path) break;
        for (const e of path) {
          if (!tree.has(e.to.key)) edges.push(e);
          tree.add(e.to.key);
          remaining.delete(e.to.key);
        }
      }
      const unreachable = terminals.filter((t) => remaining.has(t.key));
      const cand = { edges, unreachable };
      if (!best || cand.unreachable.length < best.unreachable.length || (cand.unreachable.length === best.unreachable.length && cand.edges.length < best.edges.length)) {
        best = cand;
      }
    }
    return best ?? { edges: [], unreachable: [] };
  }
}
