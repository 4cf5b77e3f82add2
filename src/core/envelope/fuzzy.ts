/**
 * Close-name suggestions for `fuzzy_matches`. Scores combine a normalised Damerau-Levenshtein distance on the
 * whole name and on its last segment with token overlap, so `users` finds `public.user_account` as well as
 * `public.users`.
 */

function damerau(a: string, b: string): number {
  const n = a.length;
  const m = b.length;
  if (n === 0) return m;
  if (m === 0) return n;
  let prev2 = new Array<number>(m + 1).fill(0);
  let prev = Array.from({ length: m + 1 }, (_, j) => j);
  for (let i = 1; i <= n; i++) {
    const cur = new Array<number>(m + 1);
    cur[0] = i;
    for (let j = 1; j <= m; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2]! + 1);
      cur[j] = v;
    }
    prev2 = prev;
    prev = cur;
  }
  return prev[m]!;
}

function similarity(a: string, b: string): number {
  if (a === b) return 1;
  const d = damerau(a, b);
  return 1 - d / Math.max(a.length, b.length);
}

function tokens(s: string): string[] {
  return s
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

function lastSegment(s: string): string {
  const i = s.lastIndexOf('.');
  return i >= 0 ? s.slice(i + 1) : s;
}

export function nameSimilarity(query: string, candidate: string): number {
  const q = query.toLowerCase();
  const c = candidate.toLowerCase();
  const whole = similarity(q, c);
  const last = similarity(lastSegment(q), lastSegment(c));
  const qt = new Set(tokens(lastSegment(query)));
  const ct = tokens(lastSegment(candidate));
  let overlap = 0;
  for (const t of ct) if (qt.has(t) || [...qt].some((x) => x.length >= 3 && (t.startsWith(x) || x.startsWith(t)))) overlap++;
  const tokenScore = ct.length > 0 && qt.size > 0 ? overlap / Math.max(ct.length, qt.size) : 0;
  const contains = c.includes(lastSegment(q)) && lastSegment(q).length >= 3 ? 0.75 : 0;
  return Math.max(whole, last, tokenScore * 0.9, contains);
}

export function fuzzyMatches(query: string, candidates: Iterable<string>, limit = 5, threshold = 0.5): string[] {
  const scored: Array<[string, number]> = [];
  for (const c of candidates) {
    const s = nameSimilarity(query, c);
    if (s >= threshold) scored.push([c, s]);
  }
  scored.sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  return scored.slice(0, limit).map(([c]) => c);
}
