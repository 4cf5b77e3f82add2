/**
 * The seed 002 redactor. Four rules apply to every value, recursively; keys are never modified:
 * 1. connection URLs → `<redacted-connection-url>`
 * 2. strings larger than 2 KiB → `<truncated:N bytes>`
 * 3. every value inside a `filters` argument → `<value>` (filter values are user data; column names and operators survive)
 * 4. email-shaped strings → `<email>`
 * The same redacted form feeds the events file and the audit `args_fingerprint`, so neither ever carries the raw value.
 */

export const REDACTED_URL = '<redacted-connection-url>';
export const REDACTED_VALUE = '<value>';
export const REDACTED_EMAIL = '<email>';
export const MAX_STRING_BYTES = 2048;

const CONNECTION_URL = /^(postgresql|postgres|mysql|sqlite)(\+\w+)?:\/\//i;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
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
  return value;
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
    out[k] = k === 'filters' ? maskValues(v, depth + 1) : walk(v, depth + 1);
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
