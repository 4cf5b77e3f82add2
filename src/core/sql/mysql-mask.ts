import { guardMysql, identText, parseMysqlStatement, tokenizeMysql, visit } from './mysql-guard';
import type { MaskOutcome, ResolveRelation } from './pg-mask';
import type { SqlToken } from './tokens';

/**
 * Masking at the source for MySQL/MariaDB, the same contract as `maskPostgres`: every reference to a relation with
 * blocked columns is replaced in the text by a derived table with the same column names and order and NULL for
 * each blocked column:
 *
 *   FROM customer c  →  FROM (SELECT `id`, NULL AS `email` FROM `shop`.`customer`) AS c
 *
 * node-sql-parser reports no positions for table references, so they are found with the guard's tokenizer (names
 * after FROM, JOIN and the commas of a FROM list, at any parenthesis depth) and the result is then checked with the
 * parser: every reference to a masked relation in the rewritten statement must be the single FROM item of one of
 * the derived tables written here. Anything else — a reference the scan missed, a PARTITION clause, a
 * `db.table.column` reference — is refused rather than run unmasked.
 */

const q = (id: string): string => `\`${id.replace(/`/g, '``')}\``;
const lower = (t: SqlToken | undefined): string => (t ? t.text.toLowerCase() : '');
const unquote = (t: SqlToken): string => (t.text.startsWith('`') ? t.text.slice(1, -1).replace(/``/g, '`') : t.text);
const isName = (t: SqlToken | undefined): boolean => !!t && (t.kind === 'identifier' || t.kind === 'keyword');

/** Words that end a FROM list item or cannot be an alias. */
const NOT_ALIAS = new Set(
  'where join inner left right cross natural straight_join on using group order limit having union window for lock into partition use ignore force except intersect full outer select from with as'.split(' '),
);
const FROM_END = new Set(['where', 'group', 'having', 'order', 'limit', 'union', 'window', 'except', 'intersect', 'select', 'on', 'using', 'into', 'for', 'lock']);

interface Ref {
  readonly start: number;
  readonly end: number;
  readonly schema: string | null;
  readonly table: string;
  readonly alias: string | null;
}

function scan(ts: readonly SqlToken[]): Ref[] | 'partition' {
  const out: Ref[] = [];
  const inFrom: boolean[] = [false];
  let depth = 0;
  for (let k = 0; k < ts.length; k++) {
    const t = ts[k]!;
    const w = lower(t);
    if (t.text === '(') {
      // `FROM (a JOIN b ON …)`: a parenthesised join is still a FROM list; `FROM (SELECT …)` is not
      const prev = lower(ts[k - 1]);
      const opensJoin = (prev === 'from' || prev === 'join' || (ts[k - 1]?.text === ',' && inFrom[depth])) && !['select', 'with', '('].includes(lower(ts[k + 1]));
      depth++;
      inFrom[depth] = opensJoin;
      if (!opensJoin) continue;
    } else if (t.text === ')') {
      depth = Math.max(0, depth - 1);
      continue;
    }
    let starts = t.text === '(';
    if (starts) {
      // the first item of a parenthesised join
    } else if (t.kind === 'keyword' && (w === 'from' || w === 'join' || w === 'straight_join')) {
      inFrom[depth] = true;
      starts = true;
    } else if (t.kind === 'keyword' && FROM_END.has(w)) {
      inFrom[depth] = false;
      continue;
    } else if (t.text === ',' && inFrom[depth]) starts = true;
    if (!starts) continue;
    const n1 = ts[k + 1];
    if (!isName(n1) || ts[k + 2]?.text === '(' || (n1!.kind === 'keyword' && NOT_ALIAS.has(lower(n1)) && lower(n1) !== 'from')) continue;
    let schema: string | null = null;
    let table = unquote(n1!);
    let end = k + 1;
    if (ts[k + 2]?.text === '.' && isName(ts[k + 3])) {
      schema = table;
      table = unquote(ts[k + 3]!);
      end = k + 3;
    }
    let j = end + 1;
    if (lower(ts[j]) === 'partition') return 'partition';
    let alias: string | null = null;
    let aliasEnd = end;
    if (lower(ts[j]) === 'as' && isName(ts[j + 1])) {
      alias = unquote(ts[j + 1]!);
      aliasEnd = j + 1;
    } else if (isName(ts[j]) && !(ts[j]!.kind === 'keyword' && NOT_ALIAS.has(lower(ts[j])))) {
      alias = unquote(ts[j]!);
      aliasEnd = j;
    }
    j = aliasEnd;
    out.push({ start: ts[k + 1]!.start, end: ts[aliasEnd]!.end, schema, table, alias });
  }
  return out;
}

/** The WITH queries of a statement that opens with WITH: each one's name and the text span of its body. */
function withBodies(ts: readonly SqlToken[]): { recursive: boolean; ctes: Array<{ name: string; start: number; end: number }> } {
  const ctes: Array<{ name: string; start: number; end: number }> = [];
  if (lower(ts[0]) !== 'with') return { recursive: false, ctes };
  let k = 1;
  const recursive = lower(ts[k]) === 'recursive';
  if (recursive) k++;
  const close = (open: number): number => {
    let depth = 0;
    for (let j = open; j < ts.length; j++) {
      if (ts[j]!.text === '(') depth++;
      else if (ts[j]!.text === ')' && --depth === 0) return j;
    }
    return ts.length - 1;
  };
  while (k < ts.length && isName(ts[k])) {
    const name = unquote(ts[k]!).toLowerCase();
    k++;
    if (ts[k]?.text === '(') k = close(k) + 1; // its column list
    if (lower(ts[k]) !== 'as' || ts[k + 1]?.text !== '(') break;
    const open = k + 1;
    const end = close(open);
    ctes.push({ name, start: ts[open]!.start, end: ts[end]!.end });
    k = end + 1;
    if (ts[k]?.text !== ',') break;
    k++;
  }
  return { recursive, ctes };
}

export function maskMysql(sql: string, resolve: ResolveRelation): MaskOutcome {
  const tokens = tokenizeMysql(sql).filter((t) => t.kind !== 'comment');
  const refs = scan(tokens);
  if (refs === 'partition') {
    const g = guardMysql(sql);
    // fail closed: a statement that cannot be read, or that reads any relation needing masking, is refused
    const any =
      !g.ok ||
      g.tables.some((t) => {
        const [s, tb] = t.includes('.') ? t.split('.') : [null, t];
        return resolve(s ?? null, tb!).kind !== 'plain';
      });
    if (any) return { ok: false, reason: 'refused', relation: 'PARTITION', message: 'a PARTITION clause on a relation with blocked columns cannot be masked; leave it out' };
    return { ok: true, sql, maskedColumns: [] };
  }
  const edits: Array<{ start: number; end: number; text: string; exec: string }> = [];
  const masked = new Map<string, { schema: string; table: string; columns: readonly { name: string; masked: boolean }[] }>();
  const maskedColumns = new Set<string>();
  // CTE names are not relations (a CTE may shadow a table of the same name).
  const parsedIn = parseMysqlStatement(sql);
  const ctes = new Set<string>();
  if (!('error' in parsedIn)) {
    visit(parsedIn.ast, (n) => {
      if (!Array.isArray(n.with)) return;
      for (const w of n.with as Array<{ name?: unknown }>) ctes.add(identText(w.name).toLowerCase());
    });
  }
  // MySQL and MariaDB resolve a WITH query's name only after it: inside its own body (unless RECURSIVE) and in the
  // WITH queries before it, the same name reads the relation. `WITH users AS (SELECT * FROM users) …` reads the table.
  // Which reference means which is not decided here: a WITH name that is also a relation's name is refused.
  // Names are compared without case (how the server compares them depends on its lower_case_table_names), both as
  // the WITH clause writes them and as every relation reference of the statement does.
  const written = [...ctes, ...refs.filter((r) => r.schema === null).map((r) => r.table), ...('error' in parsedIn ? [] : parsedIn.tables).map((t) => t.split('::')[2] ?? '')];
  for (const name of written) {
    if (!name || !ctes.has(name.toLowerCase())) continue;
    if (resolve(null, name).kind !== 'unknown' || resolve(null, name.toLowerCase()).kind !== 'unknown') {
      return { ok: false, reason: 'refused', relation: name, message: `the WITH query name ${name} is also the name of a relation, which MySQL reads inside the WITH clause; give the WITH query another name` };
    }
  }
  // Inside a WITH query's own body (unless RECURSIVE) and inside the bodies before it, its name reads the relation of
  // that name, whatever that relation is (indexed or not, a table or a view): such a reference is refused.
  const scope = withBodies(tokens);
  for (const r of refs) {
    if (r.schema !== null) continue;
    const at = scope.ctes.findIndex((c) => r.start > c.start && r.start < c.end);
    if (at < 0) continue;
    const named = scope.ctes.findIndex((c) => c.name === r.table.toLowerCase());
    if (named > at || (named === at && !scope.recursive)) {
      return { ok: false, reason: 'refused', relation: r.table, message: `the WITH query ${r.table} is read inside the WITH clause before it is defined, where MySQL reads the relation of that name instead; give the WITH query another name` };
    }
  }
  for (const r of refs) {
    if (r.schema === null && ctes.has(r.table.toLowerCase())) continue;
    const written = r.schema ? `${r.schema}.${r.table}` : r.table;
    const found = resolve(r.schema, r.table);
    if (found.kind === 'plain') continue;
    if (found.kind === 'unknown') return { ok: false, reason: 'unknown_relation', relation: written, message: `relation ${written} is not in the index` };
    if (found.kind === 'refused') return { ok: false, reason: 'refused', relation: written, message: found.message };
    const cols = found.columns.map((c) => {
      if (!c.masked) return q(c.name);
      maskedColumns.add(`${found.schema}.${found.table}.${c.name}`);
      return `NULL AS ${q(c.name)}`;
    });
    const from = `${q(found.schema)}.${q(found.table)}`;
    // An index over a blocked column hands rows out in the order of its values (a covering index scan for
    // `SELECT id`): the derived table never reads through one.
    const hint = found.ignoreIndexes && found.ignoreIndexes.length > 0 ? ` IGNORE INDEX (${found.ignoreIndexes.map(q).join(', ')})` : '';
    edits.push({ start: r.start, end: r.end, text: `(SELECT ${cols.join(', ')} FROM ${from}) AS ${q(r.alias ?? r.table)}`, exec: `(SELECT ${cols.join(', ')} FROM ${from}${hint}) AS ${q(r.alias ?? r.table)}` });
    masked.set(`${found.schema}.${found.table}`.toLowerCase(), found);
  }
  // Relations the scan did not see (the guard's parser lists every relation read) are resolved too: one that needs
  // masking but was not rewritten makes the check below fail.
  const before = guardMysql(sql);
  if (before.ok) {
    for (const t of before.tables) {
      const [s, tb] = t.includes('.') ? [t.slice(0, t.indexOf('.')), t.slice(t.indexOf('.') + 1)] : [null, t];
      const found = resolve(s, tb);
      if (found.kind === 'unknown') return { ok: false, reason: 'unknown_relation', relation: t, message: `relation ${t} is not in the index` };
      if (found.kind === 'refused') return { ok: false, reason: 'refused', relation: t, message: found.message };
      if (found.kind === 'masked' && !masked.has(`${found.schema}.${found.table}`.toLowerCase())) {
        return { ok: false, reason: 'refused', relation: t, message: `relation ${t} holds blocked columns and could not be masked in this statement` };
      }
    }
    for (const c of before.columns) {
      const parts = c.split('.');
      if (parts.length >= 3 && masked.has(`${parts[0]}.${parts[1]}`.toLowerCase())) {
        return { ok: false, reason: 'refused', relation: `${parts[0]}.${parts[1]}`, message: 'schema-qualified column references (db.table.column) to a relation with blocked columns cannot be masked; use the table name or an alias' };
      }
    }
  }
  if (edits.length === 0) return { ok: true, sql, maskedColumns: [] };
  edits.sort((a, b) => b.start - a.start);
  let out = sql;
  let exec = sql;
  let last = Infinity;
  for (const e of edits) {
    if (e.end > last) return { ok: false, reason: 'refused', relation: sql.slice(e.start, e.end), message: 'the statement could not be masked safely' };
    out = out.slice(0, e.start) + e.text + out.slice(e.end);
    exec = exec.slice(0, e.start) + e.exec + exec.slice(e.end);
    last = e.start;
  }
  // Check with the parser: every reference to a masked relation in the rewritten statement is the single FROM item
  // of a SELECT shaped exactly like the derived tables written above (kept columns by name, NULL AS each blocked one).
  const parsed = parseMysqlStatement(out);
  if ('error' in parsed) return { ok: false, reason: 'refused', relation: 'statement', message: 'the statement could not be masked safely' };
  let unmasked: string | null = null;
  visit(parsed.ast, (n) => {
    const from = n.from;
    if (unmasked || !Array.isArray(from)) return;
    for (const f of from as Array<Record<string, unknown>>) {
      const table = identText(f?.table);
      if (!table) continue;
      const db = identText(f.db);
      const found = [...masked.values()].find((m) => m.table.toLowerCase() === table.toLowerCase() && (!db || db.toLowerCase() === m.schema.toLowerCase()));
      if (!found) continue;
      const cols = (n.columns as Array<{ expr?: Record<string, unknown>; as?: unknown }> | undefined) ?? [];
      const shaped =
        from.length === 1 &&
        db.toLowerCase() === found.schema.toLowerCase() &&
        cols.length === found.columns.length &&
        found.columns.every((c, i) => {
          const item = cols[i]!;
          if (c.masked) return item.expr?.type === 'null' && identText(item.as) === c.name;
          return item.expr?.type === 'column_ref' && identText(item.expr.column) === c.name && !identText(item.as);
        });
      if (!shaped) unmasked = table;
    }
  });
  if (unmasked) return { ok: false, reason: 'refused', relation: unmasked, message: `relation ${String(unmasked)} holds blocked columns and could not be masked in this statement` };
  // And the token view agrees: every remaining reference is the lone FROM item of a derived table written above.
  const after = tokenizeMysql(out).filter((t) => t.kind !== 'comment');
  const refsAfter = scan(after);
  if (refsAfter === 'partition') return { ok: false, reason: 'refused', relation: 'PARTITION', message: 'the statement could not be masked safely' };
  for (const r of refsAfter) {
    const key = `${r.schema ?? ''}.${r.table}`.toLowerCase();
    const hit = [...masked.keys()].some((m) => m === key || (r.schema === null && m.endsWith(`.${r.table.toLowerCase()}`)));
    if (!hit) continue;
    const openIdx = after.findIndex((t) => t.start === r.start);
    const ok = openIdx >= 2 && lower(after[openIdx - 1]) === 'from' && r.schema !== null && r.alias === null && after[openIdx + 3]?.text === ')';
    if (!ok) return { ok: false, reason: 'refused', relation: r.table, message: `relation ${r.table} holds blocked columns and could not be masked in this statement` };
  }
  return { ok: true, sql: out, maskedColumns: [...maskedColumns].sort(), ...(exec !== out ? { execSql: exec } : {}) };
}
