import { pgParser } from './pg-parser';
import { pgTokens } from './pg-guard';
import { byteToCharOffsets, type SqlToken } from './tokens';

/**
 * Masking at the source for PostgreSQL: every reference to a relation that holds blocked columns — anywhere in the
 * statement (FROM, JOIN, CTE bodies, subqueries, LATERAL, set-operation arms, EXISTS, scalar subqueries, `TABLE t`)
 * — is replaced in the SQL text by a derived relation that keeps the relation's column names and order but reads a
 * typed NULL for each blocked column:
 *
 *   `FROM staff s`  →  `FROM (SELECT "id", "name", NULL::text AS "password" FROM "public"."staff") s`
 *
 * Whole-row references (`s`, `s::text`, `row_to_json(s)`, `(s).password`), renames in derived tables, CTE column
 * lists, FROM alias lists, predicates, ORDER BY and error messages then only ever see NULL: nothing downstream of
 * the relation reference can reach the stored value, whatever the query's shape.
 *
 * The rewrite is positional: RangeVar locations from the real parser (libpg_query) locate the relation names in
 * the original text, so the rest of the statement is sent exactly as written (no deparser round trip). The
 * rewritten text is guarded again by the executor.
 */

export interface MaskColumn {
  readonly name: string;
  /** `format_type` spelling from the catalog (`character varying(255)`), used for the typed NULL. */
  readonly type: string;
  readonly masked: boolean;
}

/** What a relation reference resolves to. */
export type RelationLookup =
  | { readonly kind: 'plain' }
  | {
      readonly kind: 'masked';
      readonly schema: string;
      readonly table: string;
      readonly columns: readonly MaskColumn[];
      /**
       * The indexes over a blocked column: the table must not be read through one, whose order is the values'
       * (MySQL: an `IGNORE INDEX` hint; PostgreSQL: no index scans for the statement, see `avoidIndexOrder`).
       */
      readonly ignoreIndexes?: readonly string[];
      /**
       * The table's rows lie in an order of a blocked column's values (partitioned by one, or CLUSTERed on an index
       * over one): its derived relation hands them out in a random order instead.
       */
      readonly shuffle?: boolean;
    }
  | { readonly kind: 'refused'; readonly message: string }
  | { readonly kind: 'unknown' };

/** Resolves a relation as the parser saw it (identifiers already case-folded / unquoted). */
export type ResolveRelation = (schema: string | null, table: string) => RelationLookup;

export type MaskOutcome =
  | {
      readonly ok: true;
      /** The rewritten statement, as the guard checks it. */
      readonly sql: string;
      readonly maskedColumns: readonly string[];
      /**
       * MySQL: the statement to run, `sql` with index hints of its own derived tables (`IGNORE INDEX (…)`, which the
       * guard's parser does not read); absent when there are none.
       */
      readonly execSql?: string;
      /** PostgreSQL: a masked relation has an index over a blocked column, so the statement runs without index scans. */
      readonly avoidIndexOrder?: boolean;
    }
  | { readonly ok: false; readonly reason: 'unknown_relation' | 'refused' | 'filters_blocked'; readonly relation: string; readonly message: string; readonly column?: string };

type JsonObject = { readonly [k: string]: unknown };

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function asTyped(v: unknown): [string, JsonObject] | null {
  if (!isObject(v)) return null;
  const keys = Object.keys(v);
  if (keys.length !== 1 || !/^[A-Z]/.test(keys[0])) return null;
  const body = v[keys[0]];
  return isObject(body) ? [keys[0], body] : null;
}

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

// format_type output: words, dots, quoted parts, a typmod, array brackets. Anything else falls back to text.
const SAFE_TYPE = /^(?:[A-Za-z_][\w$]*|"[^"]+")(?:\s*\.\s*(?:[A-Za-z_][\w$]*|"[^"]+"))?(?: [A-Za-z_][\w$]*)*(?:\(\d+(?:,\s*\d+)?\))?(?: [A-Za-z_][\w$]*)*(?:\[\])*$/;

function typedNull(type: string): string {
  return SAFE_TYPE.test(type.trim()) ? `NULL::${type.trim()}` : 'NULL::text';
}

const TEXT_TYPE = /^(?:text|character varying|varchar|character|char|bpchar|citext|name)\b/i;
const NUMBER_TYPE = /^(?:smallint|integer|bigint|int[248]?|numeric|decimal|real|double precision|float[48]?)\b/i;

/**
 * The masked read of a blocked column: NULL stays NULL and any stored value becomes the type's empty value ('' or
 * 0 or false), so `IS [NOT] NULL` counts stay right while no value, length, prefix or order survives. Types without
 * an obvious empty value read NULL outright.
 */
export function maskedExpression(column: string, type: string): string {
  const t = type.trim();
  const empty = TEXT_TYPE.test(t) ? "''" : NUMBER_TYPE.test(t) ? '0' : /^boolean\b/i.test(t) ? 'false' : null;
  if (empty === null || !SAFE_TYPE.test(t)) return typedNull(type);
  return `CAST(CASE WHEN ${quoteIdent(column)} IS NULL THEN NULL ELSE ${empty} END AS ${t})`;
}

interface Frame {
  readonly node: unknown;
  /** CTE names visible here (a reference to one of these without a schema is not a table). */
  readonly ctes: ReadonlySet<string>;
  /** Inside WHERE, JOIN … ON, GROUP BY, HAVING, ORDER BY, or a window's PARTITION/ORDER: the value decides rows. */
  readonly deciding: boolean;
}

/** SelectStmt / JoinExpr fields whose expressions decide which rows come back or in what order. */
const DECIDING_FIELDS = new Set(['whereClause', 'havingClause', 'sortClause', 'groupClause', 'quals', 'distinctClause', 'limitCount', 'limitOffset']);

interface RangeRef {
  readonly schema: string | null;
  readonly table: string;
  readonly hasAlias: boolean;
  /** The alias, or the table name when there is none: how a whole-row reference names the relation. */
  readonly refName: string;
  /** `FROM t AS u(a, b, …)`: columns renamed, so any of them may be read under another name. */
  readonly renamesColumns: boolean;
  readonly location: number;
}

/** Names the statement's column references use, to tell which masked columns a statement could reach. */
interface Reach {
  readonly names: Set<string>;
  /** Locations of relations expanded by a `*` / `alias.*` of the SELECT whose FROM lists them. */
  readonly starred: Set<number>;
}

/** Marks the relations a SELECT's `*` / `q.*` expands (its own FROM list, through joins, not into subqueries). */
function markStarred(body: JsonObject, starred: Set<number>): void {
  const quals = new Set<string>();
  for (const t of Array.isArray(body.targetList) ? body.targetList : []) {
    const rt = asTyped(t);
    const val = rt && rt[0] === 'ResTarget' ? asTyped(rt[1].val) : null;
    if (!val || val[0] !== 'ColumnRef' || !Array.isArray(val[1].fields)) continue;
    const f = val[1].fields.map((x) => asTyped(x));
    const last = f[f.length - 1];
    if (!last || last[0] !== 'A_Star') continue;
    const q = f.length >= 2 ? f[f.length - 2] : null;
    quals.add(q && q[0] === 'String' && typeof q[1].sval === 'string' ? q[1].sval : '');
  }
  if (quals.size === 0) return;
  const pending: unknown[] = [...(Array.isArray(body.fromClause) ? body.fromClause : [])];
  while (pending.length > 0) {
    const n = asTyped(pending.pop());
    if (!n) continue;
    if (n[0] === 'JoinExpr') pending.push(n[1].larg, n[1].rarg);
    else if (n[0] === 'RangeVar' && typeof n[1].location === 'number') {
      const alias = isObject(n[1].alias) && typeof n[1].alias.aliasname === 'string' ? n[1].alias.aliasname : String(n[1].relname ?? '');
      if (quals.has('') || quals.has(alias)) starred.add(n[1].location);
    }
  }
}

interface QualifiedColumnRef {
  readonly fields: readonly string[];
  readonly location: number;
}

function withNames(base: ReadonlySet<string>, names: readonly string[]): ReadonlySet<string> {
  if (names.length === 0) return base;
  const s = new Set(base);
  for (const n of names) s.add(n);
  return s;
}

/** Iterative walk (no recursion: input depth is bounded by the guard, but a stack-free walk cannot overflow). */
function collect(root: unknown): { ranges: RangeRef[]; columnRefs: QualifiedColumnRef[]; reach: Reach; deciding: Set<string>; nullTested: Set<string> } {
  const ranges: RangeRef[] = [];
  const columnRefs: QualifiedColumnRef[] = [];
  const reach: Reach = { names: new Set(), starred: new Set() };
  const deciding = new Set<string>();
  const nullTested = new Set<string>();
  const stack: Frame[] = [{ node: root, ctes: new Set(), deciding: false }];
  while (stack.length > 0) {
    const { node, ctes, deciding: dec } = stack.pop()!;
    if (Array.isArray(node)) {
      for (const item of node) stack.push({ node: item, ctes, deciding: dec });
      continue;
    }
    if (!isObject(node)) continue;
    const typed = asTyped(node);
    if (!typed) {
      for (const [k, v] of Object.entries(node)) stack.push({ node: v, ctes, deciding: dec || DECIDING_FIELDS.has(k) });
      continue;
    }
    const [type, body] = typed;
    if (type === 'RangeVar') {
      const schema = typeof body.schemaname === 'string' ? body.schemaname : null;
      const table = typeof body.relname === 'string' ? body.relname : '';
      const location = typeof body.location === 'number' ? body.location : -1;
      if (schema === null && ctes.has(table)) continue;
      const alias = isObject(body.alias) ? body.alias : null;
      const refName = alias && typeof alias.aliasname === 'string' ? alias.aliasname : table;
      ranges.push({ schema, table, hasAlias: alias !== null, refName, renamesColumns: !!alias && Array.isArray(alias.colnames) && alias.colnames.length > 0, location });
      continue;
    }
    if (type === 'ColumnRef') {
      const fields = Array.isArray(body.fields) ? body.fields : [];
      const names = fields.map((f) => {
        const t = asTyped(f);
        return t && t[0] === 'String' && typeof t[1].sval === 'string' ? t[1].sval : t && t[0] === 'A_Star' ? '*' : '';
      });
      if (names.length >= 3 && typeof body.location === 'number') columnRefs.push({ fields: names, location: body.location });
      // a column is the last field; a one-field reference may also be a whole row (`u`, `(u).x`, `row_to_json(u)`)
      if (names.length > 0) reach.names.add(names[names.length - 1]!.toLowerCase());
      if (dec && names.length > 0) deciding.add(names[names.length - 1]!.toLowerCase());
      continue;
    }
    if (type === 'SelectStmt') markStarred(body, reach.starred);
    if (type === 'SelectStmt' && isObject(body.withClause)) {
      const w = asTyped(body.withClause);
      const wb = w ? w[1] : (body.withClause as JsonObject);
      const list = Array.isArray(wb.ctes) ? wb.ctes : [];
      const names: string[] = [];
      const cteBodies: unknown[] = [];
      for (const c of list) {
        const t = asTyped(c);
        if (t && t[0] === 'CommonTableExpr') {
          names.push(typeof t[1].ctename === 'string' ? t[1].ctename : '');
          cteBodies.push(t[1].ctequery);
        }
      }
      const recursive = wb.recursive === true;
      // WITH RECURSIVE: every CTE sees all; otherwise CTE i sees only the ones before it (a same-named table otherwise)
      cteBodies.forEach((q, i) => stack.push({ node: q, ctes: withNames(ctes, recursive ? names : names.slice(0, i)), deciding: false }));
      const inner = withNames(ctes, names);
      for (const [k, v] of Object.entries(body)) if (k !== 'withClause') stack.push({ node: v, ctes: inner, deciding: DECIDING_FIELDS.has(k) });
      continue;
    }
    if (type === 'SelectStmt' || type === 'RangeSubselect' || type === 'SubLink') {
      // a subquery's own select list is not deciding, even inside an outer WHERE; its WHERE is
      for (const [k, v] of Object.entries(body)) stack.push({ node: v, ctes, deciding: DECIDING_FIELDS.has(k) || (type === 'SubLink' && k === 'testexpr' && dec) });
      continue;
    }
    if (type === 'NullTest') {
      // `col IS [NOT] NULL` reads only null-ness, which the mask keeps: not deciding on the value
      const arg = asTyped(body.arg);
      if (arg && arg[0] === 'ColumnRef') {
        const f = Array.isArray(arg[1].fields) ? arg[1].fields : [];
        const last = asTyped(f[f.length - 1]);
        if (last && last[0] === 'String' && typeof last[1].sval === 'string') nullTested.add(last[1].sval.toLowerCase());
        stack.push({ node: body.arg, ctes, deciding: false });
        continue;
      }
    }
    if (type === 'WindowDef') {
      for (const [k, v] of Object.entries(body)) stack.push({ node: v, ctes, deciding: dec || k === 'partitionClause' || k === 'orderClause' });
      continue;
    }
    for (const [k, v] of Object.entries(body)) stack.push({ node: v, ctes, deciding: dec || DECIDING_FIELDS.has(k) });
  }
  return { ranges, columnRefs, reach, deciding, nullTested };
}

interface Edit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

function tokenAt(tokens: readonly SqlToken[], charStart: number): number {
  let lo = 0;
  let hi = tokens.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (tokens[mid].start === charStart) return mid;
    if (tokens[mid].start < charStart) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** The index of the last token of a dotted name starting at token i. */
function nameEnd(tokens: readonly SqlToken[], i: number): number {
  let j = i;
  while (tokens[j + 1]?.text === '.' && tokens[j + 2] && tokens[j + 2].kind !== 'punct') j += 2;
  return j;
}

function prevCode(tokens: readonly SqlToken[], i: number): number {
  let j = i - 1;
  while (j >= 0 && tokens[j].kind === 'comment') j--;
  return j;
}

function nextCode(tokens: readonly SqlToken[], i: number): number {
  let j = i + 1;
  while (j < tokens.length && tokens[j].kind === 'comment') j++;
  return j;
}

/**
 * Rewrites `sql` (already accepted by the guard) so that relations with blocked columns are read through masking
 * derived relations. Relations the catalog does not know are refused (fail closed: a relation created after
 * indexing could hold anything); so are relations the resolver refuses outright.
 */
export function maskPostgres(sql: string, resolve: ResolveRelation): MaskOutcome {
  const parsed = pgParser().parseSync(sql) as { stmts?: unknown[] };
  const { ranges, columnRefs, reach, deciding, nullTested } = collect(parsed.stmts ?? []);
  if (ranges.length === 0) return { ok: true, sql, maskedColumns: [] };
  const toChar = byteToCharOffsets(sql);
  const tokens = pgTokens(sql);
  const edits: Edit[] = [];
  const maskedColumns = new Set<string>();
  let avoidIndexOrder = false;
  const maskedRelations = new Map<string, { schema: string; table: string }>();
  for (const r of ranges) {
    const written = r.schema ? `${r.schema}.${r.table}` : r.table;
    const found = resolve(r.schema, r.table);
    if (found.kind === 'plain') continue;
    if (found.kind === 'unknown') {
      return { ok: false, reason: 'unknown_relation', relation: written, message: `relation ${written} is not in the index` };
    }
    if (found.kind === 'refused') return { ok: false, reason: 'refused', relation: written, message: found.message };
    // a blocked column named in WHERE / ON / GROUP BY / HAVING / ORDER BY / a window: the masked answer would be
    // computed on NULLs (silently wrong for honest use, constant for an oracle) — refuse and say so instead
    const decidingHit = found.columns.find((c) => c.masked && deciding.has(c.name.toLowerCase()));
    if (decidingHit) {
      return {
        ok: false,
        reason: 'filters_blocked',
        relation: written,
        column: `${found.schema}.${found.table}.${decidingHit.name}`,
        message: `the statement filters, joins, groups or orders by the PII-blocked column ${found.schema}.${found.table}.${decidingHit.name}; blocked columns read NULL to agent SQL, so leave it out of WHERE/ON/GROUP BY/HAVING/ORDER BY`,
      };
    }
    const i = r.location >= 0 ? tokenAt(tokens, toChar(r.location)) : -1;
    if (i < 0) {
      // no position to rewrite at: refuse rather than run the statement unmasked
      return { ok: false, reason: 'refused', relation: written, message: `relation ${written} holds blocked columns and could not be masked in this statement` };
    }
    let start = tokens[i].start;
    let end = tokens[nameEnd(tokens, i)].end;
    let only = false;
    let tableCommand = false;
    const p = prevCode(tokens, i);
    if (p >= 0 && tokens[p].kind === 'keyword' && tokens[p].text.toLowerCase() === 'only') {
      only = true;
      start = tokens[p].start;
    } else if (p >= 0 && tokens[p].kind === 'keyword' && tokens[p].text.toLowerCase() === 'table') {
      tableCommand = true;
      start = tokens[p].start;
    }
    const n = nextCode(tokens, nameEnd(tokens, i));
    if (tokens[n]?.text === '*') end = tokens[n].end;
    // masked columns this statement can reach: named, under `*`, through a whole-row reference or an alias list
    const reachesAll = reach.starred.has(r.location) || r.renamesColumns || reach.names.has(r.refName.toLowerCase());
    // (reach.names holds one-field references too, so a whole-row reference by alias or table name counts here)
    const cols = found.columns.map((c) => {
      if (!c.masked) return quoteIdent(c.name);
      if (reachesAll || reach.names.has(c.name.toLowerCase())) maskedColumns.add(`${found.schema}.${found.table}.${c.name}`);
      // typed NULL: every comparison, function and order on it is NULL/constant; only a statement that tests the
      // column for NULL gets the null-preserving form, so its IS [NOT] NULL counts are right
      const expr = nullTested.has(c.name.toLowerCase()) ? maskedExpression(c.name, c.type) : typedNull(c.type);
      return `${expr} AS ${quoteIdent(c.name)}`;
    });
    const derived = `(SELECT ${cols.join(', ')} FROM ${only ? 'ONLY ' : ''}${quoteIdent(found.schema)}.${quoteIdent(found.table)}${found.shuffle ? ' ORDER BY pg_catalog.random()' : ''})`;
    const aliasText = r.hasAlias ? '' : ` AS ${quoteIdent(r.table)}`;
    edits.push({ start, end, text: tableCommand ? `SELECT * FROM ${derived}${aliasText}` : `${derived}${aliasText}` });
    maskedRelations.set(`${found.schema}.${found.table}`, found);
    if (found.ignoreIndexes && found.ignoreIndexes.length > 0) avoidIndexOrder = true;
  }
  // `schema.table.column` references: the derived relation is named by the table alone
  for (const c of columnRefs) {
    const [a, b] = c.fields.length >= 4 ? [c.fields[1], c.fields[2]] : [c.fields[0], c.fields[1]];
    if (!maskedRelations.has(`${a}.${b}`)) continue;
    const i = tokenAt(tokens, toChar(c.location));
    if (i < 0) continue;
    const drop = c.fields.length >= 4 ? 4 : 2; // name . (name .) before the table
    const tableTok = tokens[i + drop];
    if (!tableTok) continue;
    edits.push({ start: tokens[i].start, end: tableTok.start, text: '' });
  }
  if (edits.length === 0) return { ok: true, sql, maskedColumns: [] };
  edits.sort((x, y) => y.start - x.start);
  let out = sql;
  let lastStart = Infinity;
  for (const e of edits) {
    if (e.end > lastStart) {
      // distinct references never overlap; if they ever did, running the statement half-masked is not an option
      return { ok: false, reason: 'refused', relation: sql.slice(e.start, e.end), message: 'the statement could not be masked safely' };
    }
    out = out.slice(0, e.start) + e.text + out.slice(e.end);
    lastStart = e.start;
  }
  return { ok: true, sql: out, maskedColumns: [...maskedColumns].sort(), ...(avoidIndexOrder ? { avoidIndexOrder } : {}) };
}
