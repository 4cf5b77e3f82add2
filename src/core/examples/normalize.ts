import { pgParser } from '../sql/pg-parser';
import { byteToCharOffsets } from '../sql/tokens';

/**
 * Token-level rewriting of PostgreSQL statements with the real PostgreSQL scanner (libpg_query). Callers must have
 * loaded the parser first (`loadSqlGuard()` does). Offsets from the scanner are UTF-8 bytes; they are mapped to
 * string indices before slicing.
 */

interface Token {
  readonly start: number;
  readonly end: number;
  readonly text: string;
  readonly constant: boolean;
  readonly param: number | null;
  readonly word: boolean;
}

function tokens(sql: string): Token[] {
  const at = byteToCharOffsets(sql);
  return pgParser().scanSync(sql).tokens.map((t) => {
    const start = at(t.start);
    const end = at(t.end);
    const text = sql.slice(start, end);
    const constant = /^(SCONST|USCONST|ICONST|FCONST|BCONST|XCONST)$/.test(t.tokenName) || /^[xXbBeEnN]'/.test(text);
    const param = t.tokenName === 'PARAM' ? Number(text.slice(1)) : null;
    // Identifiers, and keywords that may be used as names (unreserved = 1, col_name = 2 in libpg_query).
    const word = !constant && param === null && (t.tokenName === 'IDENT' || t.tokenName === 'UIDENT' || t.keywordKind === 1 || t.keywordKind === 2 || text.startsWith('"'));
    return { start, end, text, constant, param, word };
  });
}

/** Replaces every remaining constant by a fresh `$n` parameter, numbered after the highest one already present. */
export function stripLiterals(sql: string): string {
  const toks = tokens(sql);
  let next = toks.reduce((m, t) => Math.max(m, t.param ?? 0), 0);
  let out = '';
  let pos = 0;
  for (const t of toks) {
    if (!t.constant) continue;
    out += `${sql.slice(pos, t.start)}$${++next}`;
    pos = t.end;
  }
  return out + sql.slice(pos);
}

function unquote(text: string): { name: string; quoted: boolean } {
  if (text.startsWith('"') && text.endsWith('"') && text.length >= 2) return { name: text.slice(1, -1).replace(/""/g, '"'), quoted: true };
  return { name: text, quoted: false };
}

/**
 * Replaces identifiers that name a blocked column by its placeholder. Unquoted names match case-insensitively
 * (PostgreSQL folds them to lower case), quoted ones exactly.
 */
export function replaceIdentifiers(sql: string, replacements: ReadonlyMap<string, string>): string {
  if (replacements.size === 0) return sql;
  const lower = new Map<string, string>();
  for (const [k, v] of replacements) if (!lower.has(k.toLowerCase())) lower.set(k.toLowerCase(), v);
  let out = '';
  let pos = 0;
  for (const t of tokens(sql)) {
    if (!t.word) continue;
    const { name, quoted } = unquote(t.text);
    const hit = quoted ? replacements.get(name) : (replacements.get(name) ?? lower.get(name.toLowerCase()));
    if (hit === undefined) continue;
    out += sql.slice(pos, t.start) + hit;
    pos = t.end;
  }
  return out + sql.slice(pos);
}
