/**
 * Identifier tokenisation for the PII classifier: snake_case, camelCase, ALLCAPS, digits, diacritics, and
 * all-lowercase concatenations (`nationalidnumber`, `passwordhash`) split against a vocabulary. Pure and
 * allocation-light: it runs once per column over catalogs of ~200k columns.
 */

const COMBINING_MARKS = /[\u0300-\u036f]/g;

/** Lowercase ASCII-folded form: `Téléphone` → `telephone`, `Straße` → `strasse`. */
export function foldAscii(s: string): string {
  let out = s;
  // Only pay for NFD when there is something non-ASCII to fold.
  for (let i = 0; i < s.length; i++) {
    if (s.charCodeAt(i) > 127) {
      out = s.normalize('NFD').replace(COMBINING_MARKS, '').replace(/ß/g, 'ss').replace(/æ/gi, 'ae').replace(/ø/gi, 'o');
      break;
    }
  }
  return out;
}

/**
 * Splits an identifier into lowercase word tokens. `AdmFName1` → [adm, f, name, 1]; `HTTPServer` → [http, server];
 * `FIRST_NAME` → [first, name]; `aCL IgG` → [a, cl, ig, g].
 */
export function splitIdentifier(name: string): string[] {
  const s = foldAscii(name);
  const hasLower = /[a-z]/.test(s);
  const tokens: string[] = [];
  let start = -1;
  for (let i = 0; i <= s.length; i++) {
    const code = i < s.length ? s.charCodeAt(i) : 0;
    const isUpper = code >= 65 && code <= 90;
    const isLower = code >= 97 && code <= 122;
    const isDigit = code >= 48 && code <= 57;
    if (!isUpper && !isLower && !isDigit) {
      if (start >= 0) tokens.push(s.slice(start, i).toLowerCase());
      start = -1;
      continue;
    }
    if (start >= 0) {
      const prev = s.charCodeAt(i - 1);
      const prevUpper = prev >= 65 && prev <= 90;
      const prevLower = prev >= 97 && prev <= 122;
      const prevDigit = prev >= 48 && prev <= 57;
      const next = i + 1 < s.length ? s.charCodeAt(i + 1) : 0;
      const nextLower = next >= 97 && next <= 122;
      // Boundaries: letter/digit change; `aB`; and `HTTPServer`, where the last capital of a run starts the next word.
      if (isDigit !== prevDigit || (hasLower && isUpper && (prevLower || (prevUpper && nextLower)))) {
        tokens.push(s.slice(start, i).toLowerCase());
        start = i;
      }
    } else {
      start = i;
    }
  }
  return tokens;
}

/** Plural → singular for table and column nouns; good enough for schema vocabulary, not general English. */
export function singular(w: string): string {
  if (w.length <= 3) return w;
  if (w === 'people') return 'person';
  if (w === 'children') return 'child';
  if (w === 'staff' || w === 'status' || w === 'address' || w.endsWith('ss') || w.endsWith('us') || w.endsWith('is')) return w;
  if (w.endsWith('ies')) return w.slice(0, -3) + 'y';
  if (/(?:ch|sh|x|ss|zz)es$/.test(w)) return w.slice(0, -2);
  if (w.endsWith('s')) return w.slice(0, -1);
  return w;
}

/**
 * Splits an unknown all-lowercase token into known words (`nationalidnumber` → national id number) by dynamic
 * programming over the vocabulary, preferring the fewest pieces. Returns null when no full cover exists.
 */
export function segment(token: string, vocab: ReadonlySet<string>, maxWord = 16): string[] | null {
  const n = token.length;
  if (n < 6 || n > 40) return null;
  const best: (number | undefined)[] = new Array(n + 1);
  const back: number[] = new Array(n + 1).fill(-1);
  best[0] = 0;
  for (let end = 1; end <= n; end++) {
    for (let start = Math.max(0, end - maxWord); start < end; start++) {
      const b = best[start];
      if (b === undefined) continue;
      const len = end - start;
      // One-letter pieces only where English schemas use them (`x`, `y`) would flood the search; forbid them.
      if (len < 2) continue;
      if (!vocab.has(token.slice(start, end))) continue;
      const cost = b + 1;
      if (best[end] === undefined || cost < best[end]!) {
        best[end] = cost;
        back[end] = start;
      }
    }
  }
  if (best[n] === undefined || best[n] === 1) return null;
  const parts: string[] = [];
  for (let end = n; end > 0; end = back[end]!) parts.unshift(token.slice(back[end]!, end));
  return parts;
}
