import type { SqlToken } from './tokens';

/**
 * SQLite's tokenizer (https://www.sqlite.org/lang_comment.html, https://www.sqlite.org/lang_keywords.html, tokenize.c),
 * in a module of its own so that what reads SQLite text without guarding it (the introspector, in the small index
 * bundle) does not load the guard.
 */

const KEYWORDS = new Set(
  (
    'abort action add after all alter always analyze and as asc attach autoincrement before begin between by cascade case cast check ' +
    'collate column commit conflict constraint create cross current current_date current_time current_timestamp database default ' +
    'deferrable deferred delete desc detach distinct do drop each else end escape except exclude exclusive exists explain fail filter ' +
    'first following for foreign from full generated glob group groups having if ignore immediate in index indexed initially inner ' +
    'insert instead intersect into is isnull join key last left like limit match materialized natural no not nothing notnull null ' +
    'nulls of offset on or order others outer over partition plan pragma preceding primary query raise range recursive references ' +
    'regexp reindex release rename replace restrict returning right rollback row rows savepoint select set table temp temporary then ' +
    'ties to transaction trigger unbounded union unique update using vacuum values view virtual when where window with without'
  ).split(' '),
);

class TokenizeError extends Error {}

/**
 * The SELECT of a `CREATE VIEW name [(columns)] AS SELECT …` text as sqlite_schema keeps it: what follows the first
 * AS outside parentheses and quotes, trimmed, without a final semicolon; null when the text has no such AS.
 */
export function sqliteViewBody(sql: string): string | null {
  try {
    let depth = 0;
    for (const t of tokenizeSqlite(sql)) {
      if (t.text === '(') depth++;
      else if (t.text === ')') depth--;
      else if (depth === 0 && t.kind === 'keyword' && t.text.toLowerCase() === 'as') return sql.slice(t.end).trim().replace(/;\s*$/, '');
    }
  } catch {
    return null;
  }
  return null;
}

/** Tokenises SQLite SQL. Throws TokenizeError on an unterminated string or quoted identifier. */
export function tokenizeSqlite(sql: string): SqlToken[] {
  const out: SqlToken[] = [];
  const n = sql.length;
  let i = 0;
  const push = (start: number, end: number, kind: SqlToken['kind']): void => {
    out.push({ start, end, text: sql.slice(start, end), kind });
  };
  const isIdStart = (c: string): boolean => /[A-Za-z_]/.test(c) || c.charCodeAt(0) >= 0x80;
  const isIdPart = (c: string): boolean => /[A-Za-z0-9_$]/.test(c) || c.charCodeAt(0) >= 0x80;
  while (i < n) {
    const c = sql[i];
    const d = sql[i + 1] ?? '';
    if (/\s/.test(c)) {
      i++;
    } else if (c === '-' && d === '-') {
      const j = sql.indexOf('\n', i);
      const end = j < 0 ? n : j;
      push(i, end, 'comment');
      i = end;
    } else if (c === '/' && d === '*') {
      const j = sql.indexOf('*/', i + 2);
      const end = j < 0 ? n : j + 2;
      push(i, end, 'comment');
      i = end;
    } else if (c === "'" || ((c === 'x' || c === 'X') && d === "'")) {
      let j = c === "'" ? i + 1 : i + 2;
      for (;;) {
        if (j >= n) throw new TokenizeError('unterminated string literal');
        if (sql[j] === "'") {
          if (sql[j + 1] === "'") j += 2;
          else break;
        } else j++;
      }
      push(i, j + 1, 'constant');
      i = j + 1;
    } else if (c === '"' || c === '`') {
      let j = i + 1;
      for (;;) {
        if (j >= n) throw new TokenizeError('unterminated quoted identifier');
        if (sql[j] === c) {
          if (sql[j + 1] === c) j += 2;
          else break;
        } else j++;
      }
      push(i, j + 1, 'identifier');
      i = j + 1;
    } else if (c === '[') {
      const j = sql.indexOf(']', i + 1);
      if (j < 0) throw new TokenizeError('unterminated [identifier]');
      push(i, j + 1, 'identifier');
      i = j + 1;
    } else if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(d))) {
      const m = /^(0[xX][0-9A-Fa-f_]+|[0-9_]*\.?[0-9_]*([eE][+-]?[0-9_]+)?)/.exec(sql.slice(i));
      const len = m && m[0].length > 0 ? m[0].length : 1;
      push(i, i + len, 'constant');
      i += len;
    } else if (c === '?') {
      let j = i + 1;
      while (j < n && /[0-9]/.test(sql[j])) j++;
      push(i, j, 'parameter');
      i = j;
    } else if ((c === ':' || c === '@' || c === '$') && isIdPart(d)) {
      let j = i + 1;
      while (j < n && (isIdPart(sql[j]) || (sql[j] === ':' && sql[j + 1] === ':'))) j += sql[j] === ':' ? 2 : 1;
      push(i, j, 'parameter');
      i = j;
    } else if (isIdStart(c)) {
      let j = i + 1;
      while (j < n && isIdPart(sql[j])) j++;
      push(i, j, KEYWORDS.has(sql.slice(i, j).toLowerCase()) ? 'keyword' : 'identifier');
      i = j;
    } else {
      const three = sql.slice(i, i + 3);
      const two = sql.slice(i, i + 2);
      const len = three === '->>' ? 3 : ['||', '<<', '>>', '<=', '>=', '==', '!=', '<>', '->'].includes(two) ? 2 : 1;
      push(i, i + len, /[(),;.]/.test(c) && len === 1 ? 'punct' : 'operator');
      i += len;
    }
  }
  return out;
}
