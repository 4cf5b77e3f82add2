import { sha256Hex } from './canonical';

/**
 * Normalises SQL so that the same query shape gives the same fingerprint and no literal value reaches the audit
 * log even as a hash (a hash of an e-mail address can be reversed by guessing): comments dropped, string and
 * numeric literals replaced by `?`, `IN (?, ?, …)` lists collapsed, whitespace collapsed, and everything outside
 * quoted identifiers lower-cased. A lexer, not a parser: it works for both PostgreSQL and SQLite text.
 */
export function normalizeSql(sql: string): string {
  const out: string[] = [];
  let i = 0;
  const n = sql.length;
  const push = (tok: string): void => {
    out.push(tok);
  };
  while (i < n) {
    const c = sql[i];
    const next = sql[i + 1];
    if (c === '-' && next === '-') {
      while (i < n && sql[i] !== '\n') i++;
      push(' ');
    } else if (c === '/' && next === '*') {
      // PostgreSQL block comments nest.
      let depth = 0;
      do {
        if (sql[i] === '/' && sql[i + 1] === '*') {
          depth++;
          i += 2;
        } else if (sql[i] === '*' && sql[i + 1] === '/') {
          depth--;
          i += 2;
        } else i++;
      } while (i < n && depth > 0);
      push(' ');
    } else if (c === "'" || ((c === 'E' || c === 'e') && next === "'" && !/[A-Za-z0-9_$]$/.test(out[out.length - 1] ?? ' '))) {
      if (c !== "'") i++;
      i++;
      while (i < n) {
        if (sql[i] === '\\' && c !== "'") i += 2;
        else if (sql[i] === "'" && sql[i + 1] === "'") i += 2;
        else if (sql[i] === "'") {
          i++;
          break;
        } else i++;
      }
      push('?');
    } else if (c === '$' && /[A-Za-z_$]/.test(next ?? '') && /^\$[A-Za-z_]*\$/.test(sql.slice(i))) {
      // Dollar-quoted string: $tag$ … $tag$
      const tag = /^\$[A-Za-z_]*\$/.exec(sql.slice(i))![0];
      const end = sql.indexOf(tag, i + tag.length);
      i = end === -1 ? n : end + tag.length;
      push('?');
    } else if (c === '"' || c === '`' || c === '[') {
      const close = c === '[' ? ']' : c;
      let j = i + 1;
      while (j < n) {
        if (sql[j] === close && sql[j + 1] === close) j += 2;
        else if (sql[j] === close) break;
        else j++;
      }
      push(sql.slice(i, j + 1));
      i = j + 1;
    } else if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(next ?? ''))) {
      const prev = out.length ? out[out.length - 1] : ' ';
      if (/[A-Za-z0-9_$]$/.test(prev)) {
        // part of an identifier such as t1 or a $1 placeholder
        push(c);
        i++;
      } else {
        const m = /^(0x[0-9a-f]+|\d*\.?\d+(e[+-]?\d+)?)/i.exec(sql.slice(i))!;
        i += m[0].length;
        push('?');
      }
    } else if (/\s/.test(c)) {
      while (i < n && /\s/.test(sql[i])) i++;
      push(' ');
    } else {
      push(c.toLowerCase());
      i++;
    }
  }
  return out
    .join('')
    .replace(/\s+/g, ' ')
    .replace(/\s*([(),;=<>+*/-])\s*/g, '$1')
    .replace(/\(\?(,\?)+\)/g, '(?)')
    .replace(/;+$/, '')
    .trim();
}

/** sha256 of the normalised SQL; `null` when there is no SQL. */
export function sqlFingerprint(sql: string | null | undefined): string | null {
  if (sql === null || sql === undefined || !sql.trim()) return null;
  return sha256Hex(normalizeSql(sql));
}
