/** Rows as a grid shows them: column names and one array of values per row, in column order. */
export interface TableData {
  readonly columns: readonly { readonly name: string }[];
  readonly rows: readonly (readonly unknown[])[];
}

/** An inclusive rectangle of cells (row and column indexes into the data, in any order). */
export interface CellRange {
  readonly r0: number;
  readonly c0: number;
  readonly r1: number;
  readonly c1: number;
}

/** A text that a spreadsheet would read as a number, not a formula ("-5", "+1.5e3"). */
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * A cell's text for a file or the clipboard. A value that a spreadsheet would run as a formula (it starts with `=`,
 * `+`, `-`, `@`, a tab or a carriage return and is not a number) gets a leading `'`, which spreadsheets read as "text"
 * and do not show: a value from the database (`=HYPERLINK(…)`, `@SUM(…)`) must not run when the export is opened.
 */
function text(v: unknown): string {
  if (v === null || v === undefined) return '';
  const s = typeof v === 'object' ? JSON.stringify(v) : String(v);
  return /^[=+\-@\t\r]/.test(s) && !NUMBER.test(s) ? `'${s}` : s;
}

/** The cells of `range` (all of them, headers first, without one), clipped to the data. */
function slice(data: TableData, range: CellRange | undefined): { headers: string[] | null; rows: unknown[][] } {
  const cols = data.columns.length;
  if (!range) return { headers: data.columns.map((c) => c.name), rows: data.rows.map((r) => [...r]) };
  const r0 = Math.max(0, Math.min(range.r0, range.r1));
  const r1 = Math.min(data.rows.length - 1, Math.max(range.r0, range.r1));
  const c0 = Math.max(0, Math.min(range.c0, range.c1));
  const c1 = Math.min(cols - 1, Math.max(range.c0, range.c1));
  const rows: unknown[][] = [];
  for (let r = r0; r <= r1; r++) rows.push(data.rows[r]!.slice(c0, c1 + 1));
  return { headers: null, rows };
}

/**
 * Tab-separated text for the clipboard (pastes into spreadsheets): the whole result with a header row, or only the
 * selected cells. NULL is an empty cell; tabs and line breaks inside values become spaces so the grid shape holds.
 */
export function toTsv(data: TableData, range?: CellRange): string {
  const { headers, rows } = slice(data, range);
  const cell = (v: unknown): string => text(v).replace(/[\t\r\n]+/g, ' ');
  const lines = rows.map((r) => r.map(cell).join('\t'));
  if (headers) lines.unshift(headers.map(cell).join('\t'));
  return lines.join('\n');
}

/**
 * RFC 4180 CSV: a header row, CRLF line ends, and a field quoted (quotes doubled) when it holds a comma, a quote, a
 * line break or leading/trailing spaces. NULL is an empty unquoted field, an empty string a quoted one ("").
 */
export function toCsv(data: TableData): string {
  const field = (v: unknown): string => {
    if (v === null || v === undefined) return '';
    const s = text(v);
    return s === '' || /[",\r\n]/.test(s) || s !== s.trim() ? `"${s.replace(/"/g, '""')}"` : s;
  };
  const lines = [data.columns.map((c) => field(c.name)).join(',')];
  for (const r of data.rows) lines.push(data.columns.map((_, i) => field(r[i])).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
