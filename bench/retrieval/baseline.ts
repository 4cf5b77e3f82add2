/**
 * The plain BM25 baseline: one bag of words per table from its table and column names only (snake/camel split,
 * same light stemmer), Okapi BM25 with k1 = 1.2, b = 0.75. No fields, comments, synonyms, values, splitting of
 * run-together names, or graph signals. Computed by the same harness in the same run as the real engine.
 */
import { splitIdentifierRaw, stem } from '../../src/core/search/index';
import { STOP_WORDS } from '../../src/core/search/tokenize';
import type { SearchTableInput } from '../../src/core/search/index';

export interface BaselineHit {
  readonly sourceName: string;
  readonly qualifiedName: string;
  readonly score: number;
}

export function buildBaseline(tables: readonly SearchTableInput[]): (q: string, limit: number, source?: string) => BaselineHit[] {
  const postings = new Map<string, Array<{ d: number; tf: number }>>();
  const len: number[] = [];
  tables.forEach(({ table }, d) => {
    const counts = new Map<string, number>();
    for (const name of [table.name, ...table.columns.map((c) => c.name)]) {
      for (const p of splitIdentifierRaw(name)) if (!/^\d+$/.test(p)) counts.set(stem(p), (counts.get(stem(p)) ?? 0) + 1);
    }
    let l = 0;
    for (const [t, tf] of counts) {
      l += tf;
      const list = postings.get(t) ?? [];
      list.push({ d, tf });
      postings.set(t, list);
    }
    len.push(l);
  });
  const avg = len.reduce((a, b) => a + b, 0) / Math.max(1, len.length);
  const n = tables.length;
  return (q, limit, source) => {
    const terms = new Set(
      q
        .toLowerCase()
        .split(/[^\p{L}\p{N}]+/u)
        .filter((w) => w.length > 1 && !STOP_WORDS.has(w))
        .map(stem),
    );
    const score = new Map<number, number>();
    for (const t of terms) {
      const list = postings.get(t);
      if (!list) continue;
      const idf = Math.log(1 + (n - list.length + 0.5) / (list.length + 0.5));
      for (const { d, tf } of list) {
        if (source !== undefined && tables[d]!.sourceName !== source) continue;
        const s = (idf * tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * len[d]!) / avg));
        score.set(d, (score.get(d) ?? 0) + s);
      }
    }
    return [...score.entries()]
      .sort((a, b) => b[1] - a[1] || a[0] - b[0])
      .slice(0, limit)
      .map(([d, s]) => ({ sourceName: tables[d]!.sourceName, qualifiedName: `${tables[d]!.table.schema}.${tables[d]!.table.name}`, score: s }));
  };
}
