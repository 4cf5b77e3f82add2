/**
 * Redaction helpers shared by every tool: whether a column is visible under a policy, stable placeholder names
 * for redacted columns (`<redacted_credential_column_1>`), and scrubbing of raw values out of free text such as
 * example SQL, so a blocked column's literals never reach the agent.
 */
import { PII_CATEGORIES, type PiiCategory } from '../envelope/kinds';
import type { PiiTag } from '../catalog/model';
import { effectiveBlockSet, isBlocked, type PiiPolicy } from './policy';
import { isFailClosed } from './propagate';
import { isCardNumber, isIban, isJwt, isApiKey, isPasswordHash, isSsn } from './values';

export type Visibility = 'visible' | 'redacted';

export function columnVisibility(tag: PiiTag | null | undefined, policy: PiiPolicy): Visibility {
  return isBlocked(tag, policy) ? 'redacted' : 'visible';
}

/** The category a placeholder names: the first blocked category in taxonomy order (`pii` for the fail-closed sentinel). */
export function placeholderCategory(tag: PiiTag, policy: PiiPolicy): PiiCategory | 'pii' {
  if (isFailClosed(tag)) return 'pii';
  const blocked = effectiveBlockSet(policy);
  return PII_CATEGORIES.find((c) => blocked.has(c) && tag.categories.includes(c)) ?? 'pii';
}

export function placeholderName(category: PiiCategory | 'pii', n: number): string {
  return `<redacted_${category}_column_${n}>`;
}

/** Generic placeholder for a redacted column inside FK lists and join suggestions. */
export const REDACTED_COLUMN = '<redacted_column>';

export interface ColumnRef {
  readonly name: string;
  readonly pii: PiiTag | null;
}

export interface RedactedColumn {
  readonly name: string;
  readonly visibility: Visibility;
  /** The name to show: the real name when visible, a placeholder when redacted. */
  readonly displayName: string;
}

/**
 * Decides visibility for the columns of one table and numbers the redacted ones per category, in the order
 * given (pass columns in ordinal order so the numbering is stable across calls and re-indexing).
 */
export function redactColumns(columns: readonly ColumnRef[], policy: PiiPolicy): RedactedColumn[] {
  const counters = new Map<string, number>();
  return columns.map((c) => {
    if (!isBlocked(c.pii, policy)) return { name: c.name, visibility: 'visible', displayName: c.name };
    const cat = placeholderCategory(c.pii!, policy);
    const n = (counters.get(cat) ?? 0) + 1;
    counters.set(cat, n);
    return { name: c.name, visibility: 'redacted', displayName: placeholderName(cat, n) };
  });
}

export const REDACTED_VALUE = "'<redacted>'";

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

// A SQL literal: string ('' escapes, optional E/N prefix), number, or a parenthesised list of them.
const LITERAL = String.raw`(?:[EeNn]?'(?:[^']|'')*'|-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)`;
const LITERAL_LIST = String.raw`\(\s*${LITERAL}(?:\s*,\s*${LITERAL})*\s*\)`;
const OPERATOR = String.raw`(?:=|<>|!=|<=|>=|<|>|(?:NOT\s+)?I?LIKE|(?:NOT\s+)?IN|IS\s+(?:NOT\s+)?DISTINCT\s+FROM|@>|<@|~\*?|!~\*?)`;

/**
 * Replaces the literals compared with any of the blocked columns (`email = 'a@b.c'`, `t."SSN" IN ('…','…')`,
 * `'…' = email`, `email BETWEEN '…' AND '…'`) with `'<redacted>'`. Column names match unquoted case-insensitively
 * and quoted exactly, with or without a table qualifier.
 */
export function scrubSqlLiterals(sql: string, blockedColumns: readonly string[]): string {
  let out = sql;
  for (const col of blockedColumns) {
    const ident = String.raw`(?:(?:"[^"]+"|[A-Za-z_][\w$]*)\s*\.\s*)?(?:"${escapeRegex(col)}"|\b${escapeRegex(col)}\b)`;
    const flags = col === col.toLowerCase() ? 'gi' : 'g';
    out = out.replace(new RegExp(String.raw`(${ident}\s*${OPERATOR}\s*)(${LITERAL_LIST}|${LITERAL})`, flags), (_m, lhs: string, lit: string) =>
      lhs + (lit.startsWith('(') ? `(${REDACTED_VALUE})` : REDACTED_VALUE),
    );
    out = out.replace(new RegExp(String.raw`(${ident}\s+(?:NOT\s+)?BETWEEN\s+)${LITERAL}(\s+AND\s+)${LITERAL}`, `${flags}`), (_m, a: string, b: string) => `${a}${REDACTED_VALUE}${b}${REDACTED_VALUE}`);
    out = out.replace(new RegExp(String.raw`${LITERAL}(\s*${OPERATOR}\s*${ident})`, flags), (_m, rhs: string) => REDACTED_VALUE + rhs);
  }
  return out;
}

export interface ScrubOptions {
  /** Names of blocked columns whose compared literals are removed from SQL-like text. */
  readonly blockedColumns?: readonly string[];
  /** Raw values known to belong to blocked columns (e.g. their samples), removed wherever they appear. */
  readonly knownValues?: readonly string[];
  /** Also replace anything shaped like a catastrophic value (e-mail, card, SSN, IBAN, JWT, API key, password hash). Default true. */
  readonly patterns?: boolean;
}

const EMAIL_IN_TEXT = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,24}/g;
const DIGIT_RUN = /\b\d(?:[ -]?\d){11,18}\b/g;
const SSN_IN_TEXT = /\b\d{3}-\d{2}-\d{4}\b/g;
const IBAN_IN_TEXT = /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,4})?\b/g;
const TOKENISH = /[A-Za-z0-9_$./+=-]{20,}/g;

/** Scrubs free text (descriptions, example queries, error messages) of blocked columns' values. */
export function scrubText(text: string, options: ScrubOptions = {}): string {
  let out = options.blockedColumns && options.blockedColumns.length > 0 ? scrubSqlLiterals(text, options.blockedColumns) : text;
  const known = [...new Set((options.knownValues ?? []).filter((v) => v.trim().length >= 3))].sort((a, b) => b.length - a.length);
  for (const v of known) out = out.split(v).join('<redacted>');
  if (options.patterns ?? true) {
    out = out.replace(EMAIL_IN_TEXT, '<redacted:email>');
    out = out.replace(SSN_IN_TEXT, (m) => (isSsn(m) ? '<redacted:ssn>' : m));
    out = out.replace(DIGIT_RUN, (m) => (isCardNumber(m) ? '<redacted:card>' : m));
    out = out.replace(IBAN_IN_TEXT, (m) => (isIban(m) ? '<redacted:iban>' : m));
    out = out.replace(TOKENISH, (m) => (isJwt(m) || isApiKey(m) || isPasswordHash(m) ? '<redacted:secret>' : m));
  }
  return out;
}
