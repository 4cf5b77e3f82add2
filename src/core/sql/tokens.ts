import { createHash } from 'node:crypto';

/** A lexical token reduced to what the fingerprint and the normaliser need; offsets are JS string indices. */
export interface SqlToken {
  readonly start: number;
  readonly end: number;
  readonly text: string;
  readonly kind: 'keyword' | 'identifier' | 'constant' | 'parameter' | 'operator' | 'punct' | 'comment';
}

/** Comments removed, runs of whitespace and comments collapsed to one space, trailing `;` dropped. */
export function normalizeTokens(sql: string, tokens: readonly SqlToken[]): string {
  const kept = tokens.filter((t) => t.kind !== 'comment');
  while (kept.length > 0 && kept[kept.length - 1].text === ';') kept.pop();
  let out = '';
  let prevEnd = -1;
  for (const t of kept) {
    if (prevEnd >= 0) out += t.start > prevEnd ? ' ' : '';
    out += sql.slice(t.start, t.end);
    prevEnd = t.end;
  }
  return out;
}

/**
 * sha256 over the statement's shape: comments dropped, keywords lower-cased, constants replaced by `?`.
 * Two queries that differ only in literals, spacing, comments or keyword case share a fingerprint, which is what
 * the audit log and "similar query" grouping want; identifiers keep their case because quoting makes it matter.
 */
export function fingerprintTokens(dialect: string, tokens: readonly SqlToken[]): string {
  const parts: string[] = [];
  for (const t of tokens) {
    if (t.kind === 'comment') continue;
    if (t.text === ';') continue;
    if (t.kind === 'constant') parts.push('?');
    else if (t.kind === 'keyword') parts.push(t.text.toLowerCase());
    else parts.push(t.text);
  }
  return createHash('sha256').update(`${dialect}\n${parts.join(' ')}`).digest('hex');
}

/** Converts UTF-8 byte offsets (what libpg_query reports) to JS string offsets. */
export function byteToCharOffsets(sql: string): (byteOffset: number) => number {
  const ascii = /^[\x00-\x7f]*$/.test(sql);
  if (ascii) return (b) => b;
  const map: number[] = [];
  let byte = 0;
  for (let i = 0; i < sql.length; i++) {
    const cp = sql.codePointAt(i) as number;
    const len = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    for (let k = 0; k < len; k++) map[byte + k] = i;
    byte += len;
    if (cp >= 0x10000) i++;
  }
  map[byte] = sql.length;
  return (b) => (b < 0 ? -1 : (map[b] ?? sql.length));
}
