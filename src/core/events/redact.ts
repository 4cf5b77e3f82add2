import { redactFloorSecrets } from '../pii/secrets';

/**
 * The seed 002 redactor. Four rules apply to every value, recursively; keys are never modified:
 * 1. connection URLs → `<redacted-connection-url>`
 * 2. strings larger than 2 KiB → `<truncated:N bytes>`
 * 3. every value inside a `filters` argument, or under a key that names a secret (`password`, `token`, `api_key`, …)
 *    → `<value>` (filter values are user data; column names and operators survive)
 * 4. email-shaped strings → `<email>`
 * Inside longer strings (a sentence, a query, a message) the same secrets are cut out where they stand: connection
 * URLs, e-mail addresses, the always-on floor secrets (card numbers passing Luhn, SSNs, API keys and tokens, JWTs,
 * private keys, password hashes: see pii/secrets.ts) and, in SQL-shaped text, every string literal (`'<value>'`).
 * The same redacted form feeds the events file and the audit `args_fingerprint`, so neither ever carries the raw value.
 */

export const REDACTED_URL = '<redacted-connection-url>';
export const REDACTED_VALUE = '<value>';
export const REDACTED_EMAIL = '<email>';
export const MAX_STRING_BYTES = 2048;

const CONNECTION_URL = /^(postgresql|postgres|mysql|sqlite)(\+\w+)?:\/\//i;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const URL_IN_TEXT = /\b(?:postgresql|postgres|mysql|mariadb|sqlite)(?:\+\w+)?:\/\/[^\s'"`<>]+/gi;
const EMAIL_IN_TEXT = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,24}/g;
/**
 * Text that reads as SQL: it opens with a statement keyword (after spaces, comments or parentheses), or a statement
 * keyword is followed later by one of its clauses. `select 'x'` has no clause and is SQL all the same.
 */
const SQL_SHAPE = /^(?:\s|--[^\n]*\n?|\/\*[\s\S]*?\*\/|\()*(?:select|with|values|table|explain|show|insert|update|delete|call|do)\b|\b(?:select|insert|update|delete|with|values)\b[\s\S]*?\b(?:from|into|set|where|values|select)\b/i;
/**
 * 'literal' (with '' escapes, an E/N/B/X prefix or U&), $tag$…$tag$ dollar quotes, and a literal left open at the end
 * of the text: its value is everything after the quote.
 */
const SQL_LITERAL = /\b[EeNnBbXx]?'(?:[^']|''){0,2048}'|'(?:[^']|''){0,2048}'|\$([A-Za-z_]\w{0,30})?\$[\s\S]{0,4096}?\$\1\$|'[^']{0,4096}$|\$([A-Za-z_]\w{0,30})?\$[\s\S]{0,4096}$/g;
/** Comments of SQL text: anything may be written in them, a secret too. */
const SQL_COMMENT = /--[^\n]*|\/\*[\s\S]{0,4096}?(?:\*\/|$)/g;
/** Argument names whose values are secrets whatever they look like (`password`, `api_key`, `auth_token`, `cookie`). */
const SECRET_KEY = /pass(?:word|wd|phrase|code)?$|^pw$|pwd|secret|token|api[_-]?key|private[_-]?key|credential|authori[sz]ation|cookie/i;
/** Nesting deeper than this is cut rather than walked: args come from an agent and must not be able to stall the bus. */
const MAX_DEPTH = 32;

export type Redacted = null | boolean | number | string | readonly Redacted[] | { readonly [key: string]: Redacted };

export function redactString(value: string): string {
  if (CONNECTION_URL.test(value)) return REDACTED_URL;
  // Length in UTF-16 units bounds the UTF-8 size from below, so short strings skip the byte count.
  if (value.length * 3 > MAX_STRING_BYTES) {
    const bytes = Buffer.byteLength(value, 'utf8');
    if (bytes > MAX_STRING_BYTES) return `<truncated:${bytes} bytes>`;
  }
  if (EMAIL.test(value)) return REDACTED_EMAIL;
  return redactInside(value);
}

/** Secrets embedded in a longer string, replaced where they stand (the rest of the text stays readable). */
function redactInside(value: string): string {
  if (value.length < 6) return value;
  let out = value;
  if (out.includes('://')) out = out.replace(URL_IN_TEXT, REDACTED_URL);
  if ((out.includes("'") || out.includes('$') || out.includes('--') || out.includes('/*')) && SQL_SHAPE.test(out)) {
    // One pass, left to right, so a quote inside a comment and a comment marker inside a literal are each read as
    // what they are where they stand.
    out = out.replace(new RegExp(`${SQL_LITERAL.source}|${SQL_COMMENT.source}`, 'g'), (m) =>
      m.startsWith('--') ? '-- <comment>' : m.startsWith('/*') ? '/* <comment> */' : `'${REDACTED_VALUE}'`,
    );
  }
  if (out.includes('@')) out = out.replace(EMAIL_IN_TEXT, REDACTED_EMAIL);
  return redactFloorSecrets(out).text;
}

/** Every leaf below a `filters` key becomes `<value>`, whatever its type; structure and keys stay. */
function maskValues(value: unknown, depth: number): Redacted {
  if (Array.isArray(value)) return depth >= MAX_DEPTH ? REDACTED_VALUE : value.map((v) => maskValues(v, depth + 1));
  if (value !== null && typeof value === 'object') {
    if (depth >= MAX_DEPTH) return REDACTED_VALUE;
    const out: Record<string, Redacted> = {};
    for (const [k, v] of Object.entries(value)) out[k] = maskValues(v, depth + 1);
    return out;
  }
  return REDACTED_VALUE;
}

function walk(value: unknown, depth: number): Redacted {
  if (value === null || value === undefined) return null;
  switch (typeof value) {
    case 'string':
      return redactString(value);
    case 'number':
      return Number.isFinite(value) ? value : null;
    case 'boolean':
      return value;
    case 'bigint':
      return value.toString();
    case 'object':
      break;
    default:
      // functions and symbols carry no data worth logging
      return null;
  }
  if (depth >= MAX_DEPTH) return '<truncated:depth>';
  if (Array.isArray(value)) return value.map((v) => walk(v, depth + 1));
  if (value instanceof Date) return value.toISOString();
  const out: Record<string, Redacted> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (v === undefined) continue;
    out[k] = k === 'filters' || SECRET_KEY.test(k) ? maskValues(v, depth + 1) : walk(v, depth + 1);
  }
  return out;
}

/** Redacts a tool's arguments (or any JSON-like value) into a fresh, JSON-safe value. Never throws on cycles-free input. */
export function redactArgs(args: unknown): Redacted {
  try {
    return walk(args, 0);
  } catch {
    // e.g. a getter that throws: drop the whole value rather than risk logging part of it
    return '<unserializable>';
  }
}
