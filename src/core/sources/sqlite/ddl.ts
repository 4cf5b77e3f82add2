/**
 * A small tokenizer over SQLite DDL text as kept in sqlite_schema.sql. SQLite exposes columns, keys and indexes
 * through PRAGMAs but not CHECK constraints, constraint names, column comments, index expressions or partial-index
 * predicates, so those are read from the CREATE text (https://www.sqlite.org/lang_createtable.html,
 * https://www.sqlite.org/lang_createindex.html). The parser is deliberately shallow: it splits on top-level commas
 * and recognises a handful of keywords; anything it cannot read is simply left out.
 */

export interface Token {
  readonly kind: 'word' | 'ident' | 'string' | 'number' | 'punct' | 'comment';
  /** Unquoted value for identifiers, raw text otherwise. */
  readonly value: string;
  readonly start: number;
  readonly end: number;
}

export function tokenize(sql: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  const n = sql.length;
  while (i < n) {
    const ch = sql[i] as string;
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    const start = i;
    if (ch === '-' && sql[i + 1] === '-') {
      const nl = sql.indexOf('\n', i);
      i = nl < 0 ? n : nl;
      out.push({ kind: 'comment', value: sql.slice(start + 2, i).trim(), start, end: i });
      continue;
    }
    if (ch === '/' && sql[i + 1] === '*') {
      const close = sql.indexOf('*/', i + 2);
      i = close < 0 ? n : close + 2;
      out.push({ kind: 'comment', value: sql.slice(start + 2, close < 0 ? n : close).trim(), start, end: i });
      continue;
    }
    if (ch === "'" || ch === '"' || ch === '`' || ch === '[') {
      const close = ch === '[' ? ']' : ch;
      let value = '';
      i++;
      while (i < n) {
        const c = sql[i] as string;
        if (c === close) {
          if (close !== ']' && sql[i + 1] === close) {
            value += c;
            i += 2;
            continue;
          }
          i++;
          break;
        }
        value += c;
        i++;
      }
      out.push({ kind: ch === "'" ? 'string' : 'ident', value, start, end: i });
      continue;
    }
    if (/[A-Za-z_\u0080-\uffff]/.test(ch)) {
      while (i < n && /[A-Za-z0-9_$\u0080-\uffff]/.test(sql[i] as string)) i++;
      out.push({ kind: 'word', value: sql.slice(start, i), start, end: i });
      continue;
    }
    if (/[0-9.]/.test(ch)) {
      while (i < n && /[0-9.eE+\-xXa-fA-F]/.test(sql[i] as string) && !(sql[i] === '-' && !/[eE]/.test(sql[i - 1] as string))) i++;
      out.push({ kind: 'number', value: sql.slice(start, i), start, end: i });
      continue;
    }
    i++;
    out.push({ kind: 'punct', value: ch, start, end: i });
  }
  return out;
}

const isWord = (t: Token | undefined, w: string): boolean => t !== undefined && t.kind === 'word' && t.value.toUpperCase() === w;
const isPunct = (t: Token | undefined, p: string): boolean => t !== undefined && t.kind === 'punct' && t.value === p;
const nameOf = (t: Token | undefined): string | null => (t && (t.kind === 'word' || t.kind === 'ident' || t.kind === 'string') ? t.value : null);

/** Index of the matching ')' for the '(' at `open`, or -1. */
function closeParen(tokens: readonly Token[], open: number): number {
  let depth = 0;
  for (let i = open; i < tokens.length; i++) {
    if (isPunct(tokens[i], '(')) depth++;
    else if (isPunct(tokens[i], ')') && --depth === 0) return i;
  }
  return -1;
}

/** Splits tokens[from, to) on top-level commas (comments excluded from the items). */
function splitItems(tokens: readonly Token[], from: number, to: number): Token[][] {
  const items: Token[][] = [[]];
  let depth = 0;
  for (let i = from; i < to; i++) {
    const t = tokens[i] as Token;
    if (t.kind === 'comment') continue;
    if (isPunct(t, '(')) depth++;
    if (isPunct(t, ')')) depth--;
    if (depth === 0 && isPunct(t, ',')) items.push([]);
    else (items[items.length - 1] as Token[]).push(t);
  }
  return items.filter((x) => x.length > 0);
}

function parenNames(tokens: readonly Token[], open: number): { names: string[]; end: number } {
  const end = closeParen(tokens, open);
  if (end < 0) return { names: [], end: tokens.length };
  const names = splitItems(tokens, open + 1, end).map((item) => nameOf(item[0]) ?? '');
  return { names, end };
}

export interface ParsedConstraint {
  readonly kind: 'primary' | 'unique' | 'check' | 'foreign';
  readonly name: string | null;
  readonly columns: readonly string[];
  readonly expression: string | null;
}

export interface ParsedTable {
  readonly constraints: readonly ParsedConstraint[];
  /** Column name → comment written beside its definition (`-- …` or a block comment). */
  readonly columnComments: ReadonlyMap<string, string>;
}

const COLUMN_CONSTRAINT_START = new Set(['CONSTRAINT', 'PRIMARY', 'UNIQUE', 'CHECK', 'FOREIGN']);

export function parseCreateTable(sql: string): ParsedTable {
  const tokens = tokenize(sql);
  const open = tokens.findIndex((t) => isPunct(t, '('));
  const constraints: ParsedConstraint[] = [];
  const columnComments = new Map<string, string>();
  if (open < 0 || !tokens.slice(0, open).some((t) => isWord(t, 'TABLE'))) return { constraints, columnComments };
  const close = closeParen(tokens, open);
  if (close < 0) return { constraints, columnComments };

  // Comments: the ones between an item's start and the next item's start belong to that item's column.
  const itemStarts: number[] = [];
  let depth = 0;
  let expectStart = true;
  for (let i = open + 1; i < close; i++) {
    const t = tokens[i] as Token;
    if (t.kind === 'comment') continue;
    if (expectStart) {
      itemStarts.push(i);
      expectStart = false;
    }
    if (isPunct(t, '(')) depth++;
    else if (isPunct(t, ')')) depth--;
    else if (depth === 0 && isPunct(t, ',')) expectStart = true;
  }
  itemStarts.push(close);

  for (let k = 0; k + 1 < itemStarts.length; k++) {
    const from = itemStarts[k] as number;
    const to = itemStarts[k + 1] as number;
    const item = tokens.slice(from, to).filter((t) => t.kind !== 'comment');
    if (item.length === 0) continue;
    const first = item[0] as Token;
    const firstUpper = first.kind === 'word' ? first.value.toUpperCase() : '';
    const tableLevel = COLUMN_CONSTRAINT_START.has(firstUpper);
    const column = tableLevel ? null : nameOf(first);
    if (column) {
      // Comments inside the definition or after its comma (before the next definition) describe this column.
      const text = tokens
        .slice(from, to)
        .filter((t) => t.kind === 'comment' && t.value)
        .map((t) => t.value)
        .join(' ')
        .trim();
      if (text) columnComments.set(column, text);
    }
    let pendingName: string | null = null;
    for (let i = tableLevel ? 0 : 1; i < item.length; i++) {
      const t = item[i] as Token;
      if (isWord(t, 'CONSTRAINT')) {
        pendingName = nameOf(item[i + 1]);
        i++;
        continue;
      }
      if (isWord(t, 'PRIMARY') && isWord(item[i + 1], 'KEY')) {
        let cols: string[] = column ? [column] : [];
        if (tableLevel && isPunct(item[i + 2], '(')) cols = parenNames(item, i + 2).names;
        constraints.push({ kind: 'primary', name: pendingName, columns: cols, expression: null });
        pendingName = null;
        i++;
        continue;
      }
      if (isWord(t, 'UNIQUE')) {
        let cols: string[] = column ? [column] : [];
        if (tableLevel && isPunct(item[i + 1], '(')) cols = parenNames(item, i + 1).names;
        constraints.push({ kind: 'unique', name: pendingName, columns: cols, expression: null });
        pendingName = null;
        continue;
      }
      if (isWord(t, 'CHECK') && isPunct(item[i + 1], '(')) {
        const end = closeParen(item, i + 1);
        if (end > i + 1) {
          const expression = sql.slice((item[i + 2] as Token).start, (item[end - 1] as Token).end).trim();
          constraints.push({ kind: 'check', name: pendingName, columns: column ? [column] : [], expression });
          i = end;
        }
        pendingName = null;
        continue;
      }
      if (isWord(t, 'FOREIGN') && isWord(item[i + 1], 'KEY') && isPunct(item[i + 2], '(')) {
        const { names, end } = parenNames(item, i + 2);
        constraints.push({ kind: 'foreign', name: pendingName, columns: names, expression: null });
        pendingName = null;
        i = end;
        continue;
      }
      if (isWord(t, 'REFERENCES') && column) {
        constraints.push({ kind: 'foreign', name: pendingName, columns: [column], expression: null });
        pendingName = null;
      }
    }
  }
  return { constraints, columnComments };
}

export interface ParsedIndex {
  /** Key terms as written (column names unquoted; expressions as source text), without COLLATE/ASC/DESC. */
  readonly terms: readonly string[];
  readonly predicate: string | null;
}

export function parseCreateIndex(sql: string): ParsedIndex | null {
  const tokens = tokenize(sql).filter((t) => t.kind !== 'comment');
  const on = tokens.findIndex((t) => isWord(t, 'ON'));
  if (on < 0) return null;
  const open = tokens.findIndex((t, i) => i > on && isPunct(t, '('));
  const close = open < 0 ? -1 : closeParen(tokens, open);
  if (close < 0) return null;
  const terms = splitItems(tokens, open + 1, close).map((item) => {
    let last = item.length;
    for (let i = 0; i < item.length; i++) {
      if (isWord(item[i], 'COLLATE') || ((isWord(item[i], 'ASC') || isWord(item[i], 'DESC')) && i === item.length - 1)) {
        last = i;
        break;
      }
    }
    const kept = item.slice(0, last);
    if (kept.length === 1 && (kept[0]?.kind === 'word' || kept[0]?.kind === 'ident')) return kept[0].value;
    if (kept.length === 0) return '';
    return sql.slice((kept[0] as Token).start, (kept[kept.length - 1] as Token).end);
  });
  const where = tokens.findIndex((t, i) => i > close && isWord(t, 'WHERE'));
  const predicate = where >= 0 && tokens[where + 1] ? sql.slice((tokens[where + 1] as Token).start).trim().replace(/;\s*$/, '') : null;
  return { terms, predicate };
}

/** `col IN ('a', 'b')` → labels, for CHECK constraints that stand in for enums. */
export function checkInListLabels(expression: string, column: string): string[] | null {
  const tokens = tokenize(expression).filter((t) => t.kind !== 'comment');
  let i = 0;
  while (isPunct(tokens[i], '(') && isPunct(tokens[tokens.length - 1], ')')) {
    tokens.pop();
    i++;
  }
  const col = tokens[i];
  if (!col || nameOf(col)?.toLowerCase() !== column.toLowerCase() || col.kind === 'string') return null;
  if (!isWord(tokens[i + 1], 'IN') || !isPunct(tokens[i + 2], '(')) return null;
  const end = closeParen(tokens, i + 2);
  if (end !== tokens.length - 1) return null;
  const labels: string[] = [];
  for (const item of splitItems(tokens, i + 3, end)) {
    if (item.length !== 1 || item[0]?.kind !== 'string') return null;
    labels.push(item[0].value);
  }
  return labels.length > 0 ? labels : null;
}
