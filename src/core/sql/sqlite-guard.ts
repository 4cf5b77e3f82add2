import { isAggregateFunction, isDeniedSqliteFunction } from './function-policy';
import { fingerprintTokens, normalizeTokens, type SqlToken } from './tokens';
import type { GuardAccepted, GuardReason, GuardRefused, GuardResult, Projection, StatementKind } from './types';
import { MAX_SQL_LENGTH } from './pg-guard';
import { hasNul, inputShapeProblem } from './input-limits';
import { tokenizeSqlite } from './sqlite-tokens';

export { sqliteViewBody, tokenizeSqlite } from './sqlite-tokens';

/**
 * Layer 1 for SQLite: a tokenizer that follows SQLite's own (https://www.sqlite.org/lang_comment.html,
 * https://www.sqlite.org/lang_keywords.html, tokenize.c: strings '…' with '' escapes, identifiers "…", […] and
 * `…`, blobs x'…', variables ?NNN :a @a $a, non-nesting block comments that may run to end of input), then:
 * exactly one statement, whose leading keyword is SELECT, VALUES or WITH (whose CTEs are followed by SELECT or
 * VALUES), optionally under EXPLAIN [QUERY PLAN]; no denied function. SQLite has no writable CTEs and no DML inside
 * a SELECT, so the statement's leading keyword decides. Layer 2 (`PRAGMA query_only`, SQLite's own statement
 * splitter) runs at execution time in `sqlite-exec.ts`. The tokenizer is in `sqlite-tokens.ts`.
 */

const SELECT_LIST_STOP = new Set(['from', 'where', 'group', 'having', 'window', 'order', 'limit', 'union', 'intersect', 'except']);
const FROM_STOP = new Set(['where', 'group', 'having', 'window', 'order', 'limit', 'union', 'intersect', 'except', 'on', 'using', 'natural', 'left', 'right', 'full', 'inner', 'cross', 'outer', 'join', 'returning']);

function refused(reason: GuardReason, message: string, detail: string | null): GuardRefused {
  return { ok: false, dialect: 'sqlite', reason, message, detail };
}

/** Unquotes an identifier token ("a""b" → a"b, [x] → x, `y` → y). */
function identName(t: SqlToken): string {
  const s = t.text;
  if (s.startsWith('"') || s.startsWith('`')) return s.slice(1, -1).split(s[0] + s[0]).join(s[0]);
  if (s.startsWith('[')) return s.slice(1, -1);
  return s;
}

const lower = (t: SqlToken | undefined): string => (t ? t.text.toLowerCase() : '');
const isName = (t: SqlToken | undefined): boolean => !!t && t.kind === 'identifier';

/** Index just past the matching `)` of the `(` at index i. */
function skipParens(ts: readonly SqlToken[], i: number): number {
  let depth = 0;
  for (let j = i; j < ts.length; j++) {
    if (ts[j].text === '(') depth++;
    else if (ts[j].text === ')') {
      depth--;
      if (depth === 0) return j + 1;
    }
  }
  return ts.length;
}

/** Past `WITH [RECURSIVE] name [(cols)] AS [NOT] [MATERIALIZED] (…) [, …]`; collects CTE names. */
function skipWith(ts: readonly SqlToken[], i: number, ctes: Set<string>): number {
  let j = i + 1;
  if (lower(ts[j]) === 'recursive') j++;
  for (;;) {
    if (!isName(ts[j]) && ts[j]?.kind !== 'keyword') return j;
    ctes.add(identName(ts[j]).toLowerCase());
    j++;
    if (ts[j]?.text === '(') j = skipParens(ts, j);
    if (lower(ts[j]) !== 'as') return j;
    j++;
    if (lower(ts[j]) === 'not') j++;
    if (lower(ts[j]) === 'materialized') j++;
    if (ts[j]?.text !== '(') return j;
    j = skipParens(ts, j);
    if (ts[j]?.text !== ',') return j;
    j++;
  }
}

export function guardSqlite(sql: string): GuardResult {
  if (sql.length > MAX_SQL_LENGTH) return refused('too_long', `argument 'sql' must be at most ${MAX_SQL_LENGTH} characters`, null);
  if (hasNul(sql)) return refused('invalid_input', "argument 'sql' must not contain NUL bytes (\\u0000)", 'NUL');
  let tokens: SqlToken[];
  try {
    tokens = tokenizeSqlite(sql);
  } catch (e) {
    const msg = e instanceof Error ? e.message : 'unreadable';
    return refused('parse_error', `argument 'sql' is not valid SQLite: ${msg}`, msg);
  }
  const shape = inputShapeProblem(tokens);
  if (shape) return refused('invalid_input', shape, null);
  const code = tokens.filter((t) => t.kind !== 'comment');
  const statements: SqlToken[][] = [[]];
  for (const t of code) {
    if (t.text === ';') statements.push([]);
    else statements[statements.length - 1].push(t);
  }
  const nonEmpty = statements.filter((s) => s.length > 0);
  if (nonEmpty.length === 0) return refused('empty_statement', "argument 'sql' must contain one statement; it is empty", null);
  if (nonEmpty.length > 1) {
    return refused(
      'multiple_statements',
      `argument 'sql' must contain exactly one statement; found ${nonEmpty.length} — send them one call at a time`,
      String(nonEmpty.length),
    );
  }
  const ts = nonEmpty[0];
  let i = 0;
  let kind: StatementKind = 'select';
  if (lower(ts[0]) === 'explain') {
    kind = 'explain';
    i = 1;
    if (lower(ts[1]) === 'query' && lower(ts[2]) === 'plan') i = 3;
  }
  const ctes = new Set<string>();
  let head = lower(ts[i]);
  if (head === 'with') {
    const j = skipWith(ts, i, ctes);
    head = lower(ts[j]);
  }
  if (head !== 'select' && head !== 'values') {
    const label = head ? head.toUpperCase() : 'nothing';
    return refused(
      'not_read_only',
      `argument 'sql' must be a single read-only statement (SELECT, WITH … SELECT, VALUES or EXPLAIN); found ${kind === 'explain' ? 'EXPLAIN ' : ''}${label}`,
      label,
    );
  }
  if (kind !== 'explain' && head === 'values' && lower(ts[i]) !== 'with') kind = 'values';

  const functions: string[] = [];
  for (let k = 0; k < ts.length - 1; k++) {
    if ((ts[k].kind === 'identifier' || ts[k].kind === 'keyword') && ts[k + 1].text === '(' && ts[k - 1]?.text !== '.') {
      const name = identName(ts[k]).toLowerCase();
      if (ts[k].kind === 'keyword' && !['replace', 'like', 'glob', 'match', 'regexp', 'current_date', 'current_time', 'current_timestamp'].includes(name)) continue;
      if (isDeniedSqliteFunction(name)) {
        return refused(
          'forbidden_function',
          `argument 'sql' calls ${name}(), which is not allowed in read-only queries (extension loading, file or schema side effects)`,
          name,
        );
      }
      if (!functions.includes(name)) functions.push(name);
    }
  }

  const { tables, aliases } = relationsOf(ts, ctes);
  const projections = projectionsOf(sql, ts);
  const columns = new Set<string>();
  for (const p of projections) for (const c of p.sourceColumns) columns.add(c);
  for (const c of columnRefs(ts, 0, ts.length, new Set([...tables.map((t) => t.toLowerCase()), ...Object.keys(aliases).map((a) => a.toLowerCase()), ...ctes]))) columns.add(c);

  const accepted: GuardAccepted = {
    ok: true,
    dialect: 'sqlite',
    statementKind: kind,
    normalized: normalizeTokens(sql, tokens),
    fingerprint: fingerprintTokens('sqlite', tokens),
    tables,
    aliases,
    columns: [...columns],
    projections,
    functions,
  };
  return accepted;
}

/** Relations after FROM / JOIN and after top-level commas inside a FROM list. */
function relationsOf(ts: readonly SqlToken[], ctes: ReadonlySet<string>): { tables: string[]; aliases: Record<string, string> } {
  const tables: string[] = [];
  const aliases: Record<string, string> = {};
  const inFrom: boolean[] = [];
  let depth = 0;
  for (let k = 0; k < ts.length; k++) {
    const t = ts[k];
    const lw = lower(t);
    if (t.text === '(') {
      depth++;
      inFrom[depth] = false;
      continue;
    }
    if (t.text === ')') {
      depth--;
      continue;
    }
    if (lw === 'from' || lw === 'join') inFrom[depth] = true;
    else if (t.kind === 'keyword' && (FROM_STOP.has(lw) || lw === 'select') && lw !== 'join') {
      if (lw !== 'on' && lw !== 'using' && !['left', 'right', 'full', 'inner', 'cross', 'outer', 'natural'].includes(lw)) inFrom[depth] = false;
      continue;
    } else if (!(t.text === ',' && inFrom[depth])) continue;
    if (!inFrom[depth]) continue;
    const n1 = ts[k + 1];
    // `temp.t` / `temporary.t`: a keyword is a schema qualifier when a dot follows it.
    const keywordSchema = n1?.kind === 'keyword' && ts[k + 2]?.text === '.' && isName(ts[k + 3]);
    if ((!isName(n1) && !keywordSchema) || ts[k + 2]?.text === '(') continue;
    let name = identName(n1);
    let next = k + 2;
    if (ts[next]?.text === '.' && isName(ts[next + 1])) {
      name = `${name}.${identName(ts[next + 1])}`;
      next += 2;
    }
    if (!name.includes('.') && ctes.has(name.toLowerCase())) continue;
    if (!tables.includes(name)) tables.push(name);
    if (lower(ts[next]) === 'as') next++;
    if (isName(ts[next])) aliases[identName(ts[next])] = name;
  }
  return { tables, aliases };
}

/** Dotted identifier chains in [from, to) that are not function names, relation names or aliases. */
function columnRefs(ts: readonly SqlToken[], from: number, to: number, relationNames: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (let k = from; k < to; k++) {
    const t = ts[k];
    if (!isName(t) || ts[k - 1]?.text === '.') continue;
    const prev = lower(ts[k - 1]);
    if (prev === 'from' || prev === 'join' || prev === 'as' || prev === 'with' || prev === 'recursive') continue;
    if (ts[k + 1]?.text === '(') continue;
    const parts = [identName(t)];
    let j = k + 1;
    while (ts[j]?.text === '.' && (isName(ts[j + 1]) || ts[j + 1]?.text === '*')) {
      parts.push(ts[j + 1].text === '*' ? '*' : identName(ts[j + 1]));
      j += 2;
    }
    if (parts.length === 1 && relationNames.has(parts[0].toLowerCase())) continue;
    // `FROM t x` — an alias right after a relation name
    if (isName(ts[k - 1])) continue;
    out.push(parts.join('.'));
  }
  return [...new Set(out)];
}

/** Best-effort select-list projections of the first SELECT at depth 0. */
function projectionsOf(sql: string, ts: readonly SqlToken[]): Projection[] {
  let depth = 0;
  let start = -1;
  for (let k = 0; k < ts.length; k++) {
    if (ts[k].text === '(') depth++;
    else if (ts[k].text === ')') depth--;
    else if (depth === 0 && lower(ts[k]) === 'select') {
      start = k + 1;
      break;
    }
  }
  if (start < 0) return [];
  if (lower(ts[start]) === 'distinct' || lower(ts[start]) === 'all') start++;
  const items: Array<[number, number]> = [];
  depth = 0;
  let itemStart = start;
  let k = start;
  for (; k < ts.length; k++) {
    const t = ts[k];
    if (t.text === '(') depth++;
    else if (t.text === ')') depth--;
    else if (depth === 0 && t.text === ',') {
      items.push([itemStart, k]);
      itemStart = k + 1;
    } else if (depth === 0 && t.kind === 'keyword' && SELECT_LIST_STOP.has(lower(t))) break;
  }
  if (k > itemStart) items.push([itemStart, k]);
  return items.map(([a, b]) => projectionOf(sql, ts, a, b));
}

function projectionOf(sql: string, ts: readonly SqlToken[], a: number, b: number): Projection {
  let end = b;
  let alias: string | null = null;
  if (b - a >= 3 && lower(ts[b - 2]) === 'as' && (isName(ts[b - 1]) || ts[b - 1].kind === 'constant')) {
    alias = identName(ts[b - 1]).replace(/^'|'$/g, '');
    end = b - 2;
  } else if (b - a >= 2 && isName(ts[b - 1]) && ts[b - 2].text !== '.' && ts[b - 2].kind !== 'operator') {
    alias = identName(ts[b - 1]);
    end = b - 1;
  }
  const refs: string[] = [];
  const aggs: string[] = [];
  let raw = false;
  // aggregate call ranges [open paren, close paren) unless followed by OVER (a window)
  const aggRanges: Array<[number, number]> = [];
  for (let k = a; k < end; k++) {
    if ((isName(ts[k]) || ts[k].kind === 'keyword') && ts[k + 1]?.text === '(' && isAggregateFunction(ts[k].text)) {
      const close = skipParens(ts, k + 1);
      if (lower(ts[close]) !== 'over') {
        aggRanges.push([k + 1, close]);
        aggs.push(ts[k].text.toLowerCase());
      }
    }
  }
  for (const ref of columnRefsWithIndex(ts, a, end)) {
    refs.push(ref.name);
    if (!aggRanges.some(([x, y]) => ref.index > x && ref.index < y)) raw = true;
  }
  if (ts.slice(a, end).some((t, idx) => t.text === '*' && (idx === 0 || ts[a + idx - 1].text === '.'))) {
    if (!refs.includes('*') && !ts.slice(a, end).some((t) => t.text === '.')) {
      refs.push('*');
      raw = true;
    }
  }
  const expression = end > a ? sql.slice(ts[a].start, ts[end - 1].end) : '';
  if (alias === null && end - a === 1 && isName(ts[a])) alias = identName(ts[a]);
  if (alias === null && end - a === 3 && ts[a + 1].text === '.' && isName(ts[a + 2])) alias = identName(ts[a + 2]);
  return {
    expression,
    alias,
    sourceColumns: [...new Set(refs)],
    aggregated: aggs.length > 0 && !raw,
    aggregateFunctions: [...new Set(aggs)],
  };
}

function columnRefsWithIndex(ts: readonly SqlToken[], a: number, b: number): Array<{ name: string; index: number }> {
  const out: Array<{ name: string; index: number }> = [];
  for (let k = a; k < b; k++) {
    const t = ts[k];
    if (!isName(t) || ts[k - 1]?.text === '.' || ts[k + 1]?.text === '(') continue;
    if (lower(ts[k - 1]) === 'as') continue;
    const parts = [identName(t)];
    let j = k + 1;
    while (ts[j]?.text === '.' && (isName(ts[j + 1]) || ts[j + 1]?.text === '*')) {
      parts.push(ts[j + 1].text === '*' ? '*' : identName(ts[j + 1]));
      j += 2;
    }
    out.push({ name: parts.join('.'), index: k });
  }
  return out;
}
