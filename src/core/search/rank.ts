/**
 * Ranking: BM25F per query term, where each term contributes its best evidence for a table — a literal match in
 * some field, or (at a lower weight) a shared WordNet/thesaurus concept — plus value-index hits, table-name
 * coverage, FK-graph signals (junction tables between matched tables, paths that connect the top hits), and a
 * deterministic order. BM25F as in Robertson & Zaragoza, "The Probabilistic Relevance Framework" (2009), §3.
 */
import { FIELDS, F_COLUMN, F_COLUMN_COMMENT, F_COMMENT, F_NAME, F_SCHEMA, F_SEMANTIC, type IndexData, type Posting } from './build';
import { parseQuery, type QueryTerm } from './query';
import { stem } from './tokenize';
import type { JoinEdge, SearchHit, SearchOptions, SearchResult } from './types';

export const RANKING = {
  k1: 1.2,
  /** Field weights and length normalisation, in FIELDS order. */
  weight: [3.0, 0.4, 1.0, 1.3, 0.5, 2.0],
  b: [0.5, 0.3, 0.75, 0.75, 0.75, 0.5],
  /** Concept matches count this much of a literal match (thesaurus groups are curated, WordNet is broader). */
  thesaurus: 0.6,
  wordnet: 0.4,
  /** Value-index hit, relative to the idf of the value. */
  value: 1.5,
  /** Multiplier per fraction of the table name's words the question covers. */
  nameCoverage: 0.35,
  /** Junction tables whose FK targets both match. */
  bridge: 0.5,
  /** Intermediate tables on a short FK path between top hits, relative to the weaker endpoint. */
  pathFill: 0.85,
  pathTop: 4,
  pathMaxHops: 3,
} as const;

const DEFAULT_LIMIT = 10;

interface Acc {
  score: number;
  /** idf mass of the query terms matched (for coverage). */
  matchedIdf: number;
  reasons: Array<{ weight: number; text: string }>;
  cols: Map<string, number>;
  nameHits: Set<string>;
}

export function searchIndex(data: IndexData, query: string, opts: SearchOptions = {}): SearchResult {
  const limit = Math.max(0, Math.floor(opts.limit ?? DEFAULT_LIMIT));
  const allowed = (d: number): boolean => {
    const doc = data.docs[d]!;
    return (opts.source === undefined || doc.source === opts.source) && (opts.schema === undefined || doc.schema === opts.schema);
  };
  const parsed = parseQuery(query, data.lexicon);
  if (parsed.isListAll) return listAll(data, allowed, limit, opts);
  if (parsed.terms.length === 0 && parsed.quoted.length === 0) return { hits: [], totalMatches: 0, terms: [] };

  const n = data.docs.length;
  const accs = new Map<number, Acc>();
  const acc = (d: number): Acc => {
    let a = accs.get(d);
    if (a === undefined) {
      a = { score: 0, matchedIdf: 0, reasons: [], cols: new Map(), nameHits: new Set() };
      accs.set(d, a);
    }
    return a;
  };

  let totalIdf = 0;
  for (const qt of parsed.terms) {
    const lexical = data.postings.get(qt.term);
    const idf = idfOf(n, lexical?.length ?? 0);
    totalIdf += idf * qt.weight;
    const best = new Map<number, { s: number; reason: string; weight: number; p: Posting; literal: boolean }>();
    for (const p of lexical ?? []) {
      if (!allowed(p.d)) continue;
      const s = qt.weight * idf * saturate(data, p);
      best.set(p.d, { s, reason: literalReason(qt, p), weight: s, p, literal: true });
    }
    for (const concept of data.lexicon.concepts(qt.surface)) {
      const list = data.conceptPostings.get(concept);
      if (list === undefined) continue;
      const cidf = idfOf(n, list.length);
      const factor = concept.startsWith('t') ? RANKING.thesaurus : RANKING.wordnet;
      for (const p of list) {
        if (!allowed(p.d) || data.docs[p.d] === undefined) continue;
        const s = qt.weight * factor * Math.min(cidf, idf + 1) * saturate(data, p);
        const cur = best.get(p.d);
        if (cur !== undefined && cur.s >= s) continue;
        const kind = concept.startsWith('t') ? 'synonym' : 'related word';
        best.set(p.d, { s, reason: `${kind} ${qt.surface}→${p.surface}`, weight: s, p, literal: false });
      }
    }
    for (const [d, b] of best) {
      const a = acc(d);
      a.score += b.s;
      a.matchedIdf += idf * qt.weight;
      a.reasons.push({ weight: b.weight, text: b.reason });
      for (const c of b.p.cols ?? []) a.cols.set(c, (a.cols.get(c) ?? 0) + b.s);
      if (b.p.tf[F_NAME]! > 0) a.nameHits.add(b.literal ? qt.term : `~${stem(b.p.surface)}`);
    }
  }

  // Value index: literal category values named in the question ("customers in 'LATAM'").
  for (const probe of parsed.valueProbes) {
    const list = data.values.get(probe);
    if (list === undefined) continue;
    const idf = idfOf(n, new Set(list.map((e) => e.d)).size);
    const boost = (parsed.quoted.includes(probe) ? 1.5 : 1) * RANKING.value * idf * Math.min(1, 0.5 + probe.length / 10);
    const done = new Set<number>();
    for (const e of list) {
      if (!allowed(e.d) || done.has(e.d)) continue;
      done.add(e.d);
      const a = acc(e.d);
      a.score += boost;
      a.matchedIdf += Math.min(idf, boost);
      a.reasons.push({ weight: boost, text: `value '${e.value}' in ${e.column}` });
      a.cols.set(e.column, (a.cols.get(e.column) ?? 0) + boost);
    }
    totalIdf += parsed.quoted.includes(probe) ? idf : 0;
  }

  // Table-name coverage: a question that names every word of a table's name is about that table, not a longer one.
  for (const [d, a] of accs) {
    const nameTerms = data.docs[d]!.nameTerms;
    if (nameTerms.length === 0) continue;
    const literal = nameTerms.filter((t) => a.nameHits.has(t)).length;
    const related = nameTerms.filter((t) => !a.nameHits.has(t) && a.nameHits.has(`~${t}`)).length;
    const cover = (literal + 0.5 * related) / nameTerms.length;
    if (cover > 0) a.score *= 1 + RANKING.nameCoverage * cover;
  }

  // Junction tables: a bridge whose FK targets both match joins them even when its own name says nothing.
  const baseScore = new Map<number, number>();
  for (const [d, a] of accs) baseScore.set(d, a.score);
  for (let d = 0; d < n; d++) {
    const doc = data.docs[d]!;
    if (!doc.isBridge || !allowed(d)) continue;
    const ends = new Map<number, number>();
    for (const e of data.edges[d]!) if (e.outgoing && e.to !== d) ends.set(e.to, baseScore.get(e.to) ?? 0);
    const scores = [...ends.entries()].filter(([, s]) => s > 0).sort((x, y) => y[1] - x[1]);
    if (scores.length < 2) continue;
    const boost = RANKING.bridge * Math.min(scores[0]![1], scores[1]![1]);
    const a = acc(d);
    a.score += boost;
    a.reasons.push({ weight: boost, text: `bridge between ${data.docs[scores[0]![0]]!.name} and ${data.docs[scores[1]![0]]!.name}` });
  }

  let ranked = sortAccs(data, accs);
  ranked = fillPaths(data, ranked, accs, allowed);

  const top = ranked[0];
  const coverageTop = top === undefined || totalIdf === 0 ? 0 : Math.min(1, accs.get(top)!.matchedIdf / totalIdf);
  const topScore = top === undefined ? 1 : accs.get(top)!.score;
  const hits: SearchHit[] = ranked.slice(0, limit).map((d) => {
    const a = accs.get(d)!;
    const doc = data.docs[d]!;
    return {
      sourceName: doc.source,
      qualifiedName: doc.qualifiedName,
      score: round(Math.min(1, (a.score / topScore) * (0.4 + 0.6 * coverageTop))),
      why: explain(a),
      matchedColumns: [...a.cols.entries()].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1)).slice(0, 8).map(([c]) => c),
    };
  });
  const result: SearchResult = { hits, totalMatches: ranked.length, terms: parsed.terms.map((t) => t.term) };
  return opts.withJoinTree ? { ...result, joinTree: joinTree(data, ranked.slice(0, limit)) } : result;
}

function idfOf(n: number, df: number): number {
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

function saturate(data: IndexData, p: Posting): number {
  let tf = 0;
  for (let f = 0; f < FIELDS.length; f++) {
    const raw = p.tf[f]!;
    if (raw === 0) continue;
    const norm = 1 - RANKING.b[f]! + (RANKING.b[f]! * data.fieldLen[f]![p.d]!) / data.avgLen[f]!;
    tf += (RANKING.weight[f]! * raw) / norm;
  }
  return tf / (RANKING.k1 + tf);
}

function literalReason(qt: QueryTerm, p: Posting): string {
  const w = qt.surface;
  if (p.tf[F_NAME]! > 0) return `name matches '${w}'`;
  if (p.tf[F_SEMANTIC]! > 0 && p.sem !== null) return `${p.sem[0]} matches '${w}'`;
  if (p.tf[F_COLUMN]! > 0 && p.cols !== null) return `column ${p.cols.slice(0, 2).join(', ')} matches '${w}'`;
  if (p.tf[F_COMMENT]! > 0) return `comment mentions '${w}'`;
  if (p.tf[F_COLUMN_COMMENT]! > 0 && p.cols !== null) return `comment on ${p.cols[0]} mentions '${w}'`;
  if (p.tf[F_SCHEMA]! > 0) return `schema matches '${w}'`;
  return `matches '${w}'`;
}

function explain(a: Acc): string[] {
  const seen = new Set<string>();
  return a.reasons
    .slice()
    .sort((x, y) => y.weight - x.weight || (x.text < y.text ? -1 : 1))
    .filter((r) => (seen.has(r.text) ? false : (seen.add(r.text), true)))
    .slice(0, 5)
    .map((r) => r.text);
}

function sortAccs(data: IndexData, accs: Map<number, Acc>): number[] {
  return [...accs.entries()]
    .filter(([, a]) => a.score > 0)
    .sort((x, y) => y[1].score - x[1].score || compareDocs(data, x[0], y[0]))
    .map(([d]) => d);
}

function compareDocs(data: IndexData, a: number, b: number): number {
  const da = data.docs[a]!;
  const db = data.docs[b]!;
  if (da.qualifiedName !== db.qualifiedName) return da.qualifiedName < db.qualifiedName ? -1 : 1;
  if (da.source !== db.source) return da.source < db.source ? -1 : 1;
  return a - b;
}

/**
 * Complete the join set: for each pair of top hits in one source that no FK joins directly, the tables on the
 * shortest FK path between them (up to `pathMaxHops` edges) are pulled up to just below the weaker endpoint.
 * Among equally short paths the one whose intermediates already score best wins, then the lexically first.
 */
function fillPaths(data: IndexData, ranked: number[], accs: Map<number, Acc>, allowed: (d: number) => boolean): number[] {
  const topScore = ranked.length > 0 ? accs.get(ranked[0]!)!.score : 0;
  const top = ranked.slice(0, RANKING.pathTop).filter((d) => accs.get(d)!.score >= 0.3 * topScore);
  let changed = false;
  for (let i = 0; i < top.length; i++) {
    for (let j = i + 1; j < top.length; j++) {
      const a = top[i]!;
      const b = top[j]!;
      if (data.docs[a]!.source !== data.docs[b]!.source) continue;
      const path = shortestPath(data, a, b, allowed, accs);
      if (path === null || path.length <= 2) continue;
      const target = RANKING.pathFill * Math.min(accs.get(a)!.score, accs.get(b)!.score);
      for (const mid of path.slice(1, -1)) {
        const cur = accs.get(mid);
        if (cur !== undefined && cur.score >= target) continue;
        const m: Acc = cur ?? { score: 0, matchedIdf: 0, reasons: [], cols: new Map(), nameHits: new Set<string>() };
        m.score = target;
        m.reasons.push({ weight: target, text: `joins ${data.docs[a]!.name} and ${data.docs[b]!.name}` });
        accs.set(mid, m);
        changed = true;
      }
    }
  }
  return changed ? sortAccs(data, accs) : ranked;
}

function shortestPath(data: IndexData, from: number, to: number, allowed: (d: number) => boolean, accs: Map<number, Acc>): number[] | null {
  // Breadth-first by layers, keeping every parent so that ties between equally short paths can be broken.
  const parents = new Map<number, number[]>([[from, []]]);
  let frontier = [from];
  for (let depth = 0; depth < RANKING.pathMaxHops && frontier.length > 0; depth++) {
    const next: number[] = [];
    const layer = new Map<number, number[]>();
    for (const u of frontier) {
      for (const e of data.edges[u]!) {
        if (parents.has(e.to) || !allowed(e.to)) continue;
        const ps = layer.get(e.to);
        if (ps === undefined) {
          layer.set(e.to, [u]);
          next.push(e.to);
        } else if (!ps.includes(u)) ps.push(u);
      }
    }
    for (const [v, ps] of layer) parents.set(v, ps);
    if (layer.has(to)) return bestPath(data, parents, from, to, accs);
    if (next.length > 2000) return null;
    frontier = next;
  }
  return null;
}

function bestPath(data: IndexData, parents: Map<number, number[]>, from: number, to: number, accs: Map<number, Acc>): number[] {
  const score = (d: number): number => accs.get(d)?.score ?? 0;
  const walk = (v: number): { path: number[]; s: number } => {
    if (v === from) return { path: [from], s: 0 };
    let best: { path: number[]; s: number } | null = null;
    for (const p of parents.get(v)!) {
      const r = walk(p);
      const cand = { path: [...r.path, v], s: r.s + (v === to ? 0 : score(v)) };
      if (best === null || cand.s > best.s || (cand.s === best.s && compareDocs(data, v, best.path[best.path.length - 1]!) < 0)) best = cand;
    }
    return best!;
  };
  return walk(to).path;
}

function listAll(data: IndexData, allowed: (d: number) => boolean, limit: number, opts: SearchOptions): SearchResult {
  const ds: number[] = [];
  for (let d = 0; d < data.docs.length; d++) if (allowed(d)) ds.push(d);
  ds.sort((x, y) => data.edges[y]!.length - data.edges[x]!.length || compareDocs(data, x, y));
  const hits = ds.slice(0, limit).map((d) => ({
    sourceName: data.docs[d]!.source,
    qualifiedName: data.docs[d]!.qualifiedName,
    score: 1,
    why: [`listed by '*' (${data.edges[d]!.length} foreign-key links)`],
    matchedColumns: [],
  }));
  const result: SearchResult = { hits, totalMatches: ds.length, terms: [] };
  return opts.withJoinTree ? { ...result, joinTree: joinTree(data, ds.slice(0, limit)) } : result;
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

function round(x: number): number {
  return Math.round(x * 10000) / 10000;
}
