/**
 * Code lists: the labels of a small table read whole (`shift.name` = Day / Evening / Night, `department.name`,
 * `payment_status.name`). Every distinct label is kept in the catalog (`ColumnInfo.codeValues`, bounded in count
 * and length) so that a value named in a question ("the night shift", "refunded payments") reaches the table that
 * holds it. Values of PII-tagged columns are never kept (see run-index.ts).
 */

/** A table with more rows than this is not a code list. */
export const CODE_LIST_MAX_ROWS = 300;
/** At most this many distinct labels per column. */
export const CODE_VALUE_MAX = 200;
/** A label longer than this is prose (a description), not a code: the column is left out. */
export const CODE_VALUE_MAX_CHARS = 60;

/** Numbers, dates, times and hex digests are not labels. */
const NOT_A_LABEL = /^[\d.,:/\-+ ]*$|^[0-9a-f]{16,}$|^\$?[0-9a-z+/]{24,}={0,2}$/i;

/**
 * The distinct labels of one text column of a table that was read whole, in first-seen order; null when the
 * column is not a code-list column (more than CODE_VALUE_MAX distinct values, a value longer than
 * CODE_VALUE_MAX_CHARS, fewer than two labels, or no letters at all).
 */
export function codeListValues(values: Iterable<string | null | undefined>): string[] | null {
  const seen = new Map<string, string>();
  for (const raw of values) {
    if (typeof raw !== 'string') continue;
    const v = raw.trim();
    if (v.length === 0) continue;
    if (v.length > CODE_VALUE_MAX_CHARS) return null;
    if (NOT_A_LABEL.test(v) || !/\p{L}/u.test(v)) continue;
    const k = v.toLowerCase();
    if (seen.has(k)) continue;
    seen.set(k, v);
    if (seen.size > CODE_VALUE_MAX) return null;
  }
  return seen.size >= 2 ? [...seen.values()] : null;
}

/** A table with more columns than this, and no foreign key pointing at it, is an entity rather than a code list. */
export const CODE_LIST_MAX_COLUMNS = 6;

/**
 * Whether a small table's labels may be kept: it looks like a code list (another table points at it, or it has
 * few columns) and none of its columns is PII-tagged — a table of people or addresses keeps no value sets, even of
 * the columns the classifier left untagged (a customer's city or company).
 */
export function keepsCodeValues(table: { readonly columns: ReadonlyArray<{ readonly pii: unknown }> }, referenced: boolean): boolean {
  if (!referenced && table.columns.length > CODE_LIST_MAX_COLUMNS) return false;
  return table.columns.every((c) => c.pii === null || c.pii === undefined);
}

/** `schema.table` of every table some foreign key of `tables` points at. */
export function referencedTables(tables: ReadonlyArray<{ readonly foreignKeys: ReadonlyArray<{ readonly targetSchema: string; readonly targetTable: string }> }>): Set<string> {
  const out = new Set<string>();
  for (const t of tables) for (const fk of t.foreignKeys) out.add(`${fk.targetSchema}.${fk.targetTable}`);
  return out;
}

/** True when a table of this many rows is small enough to be read whole for its labels. */
export function isCodeListSize(rows: number | null): rows is number {
  return rows !== null && rows > 0 && rows <= CODE_LIST_MAX_ROWS;
}
