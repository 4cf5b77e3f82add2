/**
 * The state of one question's ranking (QueryState: scores, evidence bits, the pieces of evidence, reasons, guesses)
 * and the small steps the ranking's modules share: a word's idf, registering a piece of evidence and the share of it a
 * table covers, the k best candidates, offers and raises of a table to a value with its reason, and the leading tables.
 */
import type { IndexData } from './build';
import { RANKING } from './ranking';

/** A reason that postings cannot reproduce; `show` orders it among the word reasons of explain(). */
interface ExtraReason {
  readonly weight: number;
  readonly text: string;
  readonly column?: string;
  readonly show?: number;
}

export interface QueryState {
  readonly score: Float64Array;
  readonly evidenceBits: Uint32Array;
  /** The question's pieces of evidence, by bit: idf weight, and whether anything in the catalog matched it. */
  readonly pieces: Array<{ idf: number; known: boolean }>;
  /** Index in `pieces` of each query word's piece, by its surface form. */
  readonly wordPieces: Map<string, number>;
  /** Graph, value and mention reasons, which cannot be recomputed from postings. */
  readonly extra: Map<number, Array<ExtraReason>>;
  readonly touched: number[];
  readonly touch: (d: number) => void;
  /**
   * Code lists raised because they may hold a word of the question: the share of their score the guess gave when it
   * was made, and whether every such guess reached them through another table (a junction, a part).
   */
  readonly guesses: Map<number, { share: number; far: boolean }>;
  /** The catalog word each question word that the ranking read as made on one stands for (prefixBase), by surface. */
  readonly prefixes: Map<string, string>;
  /** Question words to match as written only (literalWords). */
  readonly literal: ReadonlySet<string>;
}

export function idfOf(n: number, df: number): number {
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

/** Registers one piece of the question's evidence and returns its bit. */
export function piece(st: QueryState, idf: number, known: boolean): number {
  st.pieces.push({ idf, known });
  return pieceBit(st.pieces.length - 1);
}

/** The bit of the i-th piece of evidence in `evidenceBits` (pieces past the 32nd share the last bit). */
export function pieceBit(i: number): number {
  return 1 << Math.min(31, i);
}

/**
 * Share of the question's evidence that a table matches. Evidence that nothing in the catalog matches (a name, a
 * value the catalog does not hold, a chatty word: "I'm trying to figure out…") weighs `unknownEvidence` of its idf:
 * no table could match it, so it says less about how well the best one does.
 */
export function coverage(st: QueryState, d: number): number {
  const bits = st.evidenceBits[d]!;
  let total = 0;
  let covered = 0;
  st.pieces.forEach((p, i) => {
    const w = p.known ? p.idf : RANKING.unknownEvidence * p.idf;
    total += w;
    if ((bits & pieceBit(i)) !== 0) covered += w;
  });
  return total === 0 ? 0 : Math.min(1, covered / total);
}

/** A raise a code list (or its junction) is offered: the best value, its reason, and whether it came only through another table. */
export interface Offer {
  value: number;
  text: string;
  far: boolean;
}

/** Keeps the better of two offers to one table; it came through another table only if every offer did. */
export function keepOffer(boosts: Map<number, Offer>, d: number, value: number, text: string, far: boolean): void {
  const prev = boosts.get(d);
  if (prev === undefined || prev.value < value) boosts.set(d, { value, text, far: far && (prev?.far ?? true) });
  else if (!far) prev.far = false;
}

/** Raises each table to its offer, and notes a code list's raise as a guess of what it holds (spreadGuesses). */
export function raiseOffers(data: IndexData, st: QueryState, offers: Iterable<[number, Offer]>, show: number): void {
  for (const [d, b] of offers) {
    st.touch(d);
    const add = b.value - st.score[d]!;
    st.score[d] = b.value;
    if (data.docs[d]!.role === 'lookup') noteGuess(st, d, add / b.value, b.far);
    pushExtra(st, d, { weight: add, text: b.text, show });
  }
}

function noteGuess(st: QueryState, d: number, share: number, far: boolean): void {
  const prev = st.guesses.get(d);
  st.guesses.set(d, { share: Math.max(prev?.share ?? 0, share), far: far && (prev?.far ?? true) });
}

/** The first `k` tables of `ranked` that are neither code lists nor auxiliary: the ones the answer is about. */
export function leadingTables(data: IndexData, ranked: readonly number[], k: number): number[] {
  const out: number[] = [];
  for (const c of ranked) {
    if (out.length >= k) break;
    const role = data.docs[c]!.role;
    if (role !== 'lookup' && role !== 'auxiliary') out.push(c);
  }
  return out;
}

/**
 * Raise each table to the best value offered for it (ties in table order, the highest offer first), with its
 * reason; returns the new candidate order, or `ranked` as it was when nothing was offered.
 */
export function applyRaises(data: IndexData, ranked: number[], boosts: Array<[number, number, string]>, st: QueryState): number[] {
  if (boosts.length === 0) return ranked;
  boosts.sort((x, y) => x[0] - y[0] || y[1] - x[1]);
  for (const [d, value, text] of boosts) {
    if (st.score[d]! >= value) continue;
    st.touch(d);
    const add = value - st.score[d]!;
    st.score[d] = value;
    pushExtra(st, d, { weight: add, text, show: 1.2 });
  }
  return topCandidates(data, st, RANKING.candidates);
}

export function pushExtra(st: QueryState, d: number, r: ExtraReason): void {
  const list = st.extra.get(d);
  if (list === undefined) st.extra.set(d, [r]);
  else list.push(r);
}

/** The k best scored candidates, best first; a bounded heap keeps this O(m log k) on wide catalogs. */
export function topCandidates(data: IndexData, st: QueryState, k: number): number[] {
  const score = st.score;
  const order = data.order;
  // better(a, b): a ranks before b.
  const better = (a: number, b: number): boolean => score[a]! > score[b]! || (score[a] === score[b] && order[a]! < order[b]!);
  const heap: number[] = [];
  const touched = st.touched;
  for (let t = 0; t < touched.length; t++) {
    const d = touched[t]!;
    if (score[d]! <= 0) continue;
    if (heap.length < k) {
      heap.push(d);
      let i = heap.length - 1;
      while (i > 0) {
        const p = (i - 1) >> 1;
        const up = heap[p]!;
        if (!better(up, heap[i]!)) break;
        heap[p] = heap[i]!;
        heap[i] = up;
        i = p;
      }
    } else if (better(d, heap[0]!)) {
      heap[0] = d;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let worst = i;
        if (l < heap.length && better(heap[worst]!, heap[l]!)) worst = l;
        if (r < heap.length && better(heap[worst]!, heap[r]!)) worst = r;
        if (worst === i) break;
        const down = heap[worst]!;
        heap[worst] = heap[i]!;
        heap[i] = down;
        i = worst;
      }
    }
  }
  return heap.sort((a, b) => (better(a, b) ? -1 : better(b, a) ? 1 : 0));
}
