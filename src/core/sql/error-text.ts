/**
 * Database error messages without data. PostgreSQL quotes the offending *value* in data exceptions
 * (`invalid input syntax for type uuid: "sk_live_…"`, `value "…" is out of range for type integer`,
 * `invalid byte sequence for encoding "UTF8": 0x00`), and a user function's RAISE message is whatever it chose to
 * print. Classes whose quoted parts are identifiers taken from the agent's own SQL (42 syntax/name, 08 connection,
 * 25/53/54/55/57 resource and state) keep their text; every other class keeps the sentence — which names the type
 * or operation — with quoted parts and byte dumps replaced by `…`; RAISE messages and internal errors are withheld.
 * SQLite messages name tokens of the statement (`near "x": syntax error`, `no such column: x`) and are kept.
 */
const KEEP_CLASSES = new Set(['42', '08', '25', '53', '54', '55', '57', '3D', '3F', '0A']);
const WITHHOLD = /^(P0|XX|38|39)/;
const MAX = 300;

function cap(s: string): string {
  return s.length > MAX ? `${s.slice(0, MAX)}…` : s;
}

export function stripValues(message: string): string {
  return message
    .replace(/"(?:[^"]|"")*"/g, '"…"')
    .replace(/'(?:[^']|'')*'/g, "'…'")
    .replace(/\b0x[0-9a-f]{2}(?:\s+0x[0-9a-f]{2})*/gi, '0x…');
}

/** The message to show for a database error with this SQLSTATE (null: SQLite or not known). */
export function safeDatabaseMessage(message: string, code: string | null): string {
  if (code && /^[0-9A-Z]{5}$/.test(code)) {
    if (KEEP_CLASSES.has(code.slice(0, 2))) return cap(message);
    if (WITHHOLD.test(code)) return `the database raised error ${code} (its message is withheld because it may carry row data)`;
    return cap(stripValues(message));
  }
  if (code && code.startsWith('SQLITE')) return cap(message);
  return cap(stripValues(message));
}
