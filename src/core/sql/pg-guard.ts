import { pgParser } from './pg-parser';
import { isAggregateFunction, isAllowedPostgresFromFunction, isDeniedPostgresFunction } from './function-policy';
import { byteToCharOffsets, fingerprintTokens, normalizeTokens, type SqlToken } from './tokens';
import { hasNul, inputShapeProblem } from './input-limits';
import type { GuardAccepted, GuardReason, GuardRefused, GuardResult, Projection, StatementKind } from './types';

/**
 * Layer 1 for PostgreSQL: the real PostgreSQL parser (libpg_query, PG 18 grammar, WASM) and an allow-list over
 * the whole parse tree. The caller must have awaited `loadModule()` from libpg-query (see `loadSqlGuard`).
 *
 * Accepted: exactly one SelectStmt (SELECT, WITH … SELECT, VALUES, TABLE, set operations) or an ExplainStmt
 * without ANALYZE whose query is one. Refused anywhere in the tree: any other statement node (data-modifying CTEs),
 * SELECT INTO, FOR UPDATE/SHARE, denied functions, and FROM-clause functions outside the allow-list.
 * Node shapes: https://github.com/pganalyze/libpg_query/blob/17-latest/protobuf/pg_query.proto
 */

export const MAX_SQL_LENGTH = 100_000;

type JsonObject = { readonly [k: string]: unknown };

const ANALYZE_OPTIONS = new Set(['analyze', 'analyse']);

const SELECT_LIST_STOP = new Set([
  'from',
  'into',
  'where',
  'group',
  'having',
  'window',
  'order',
  'limit',
  'offset',
  'union',
  'intersect',
  'except',
  'fetch',
  'for',
]);

class Refusal extends Error {
  constructor(
    readonly reason: GuardReason,
    readonly detail: string | null,
    message: string,
  ) {
    super(message);
  }
}

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A typed node is `{ TypeName: { ...fields } }` with one PascalCase key. */
function asTyped(v: unknown): [string, JsonObject] | null {
  if (!isObject(v)) return null;
  const keys = Object.keys(v);
  if (keys.length !== 1 || !/^[A-Z]/.test(keys[0])) return null;
  const body = v[keys[0]];
  return isObject(body) ? [keys[0], body] : null;
}

function stringList(v: unknown): string[] {
  if (!Array.isArray(v)) return [];
  const out: string[] = [];
  for (const item of v) {
    const t = asTyped(item);
    if (t && t[0] === 'String' && typeof t[1].sval === 'string') out.push(t[1].sval);
    else if (t && t[0] === 'A_Star') out.push('*');
  }
  return out;
}

function statementLabel(nodeType: string): string {
  const special: Record<string, string> = {
    TransactionStmt: 'transaction control',
    VariableSetStmt: 'SET',
    VariableShowStmt: 'SHOW',
    CreateTableAsStmt: 'CREATE TABLE AS',
    CopyStmt: 'COPY',
    DoStmt: 'DO',
    CallStmt: 'CALL',
    ExecuteStmt: 'EXECUTE',
    PrepareStmt: 'PREPARE',
    ListenStmt: 'LISTEN',
    NotifyStmt: 'NOTIFY',
    LockStmt: 'LOCK',
    MergeStmt: 'MERGE',
  };
  if (special[nodeType]) return special[nodeType];
  return nodeType
    .replace(/Stmt$/, '')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toUpperCase();
}

function refused(reason: GuardReason, message: string, detail: string | null): GuardRefused {
  return { ok: false, dialect: 'postgres', reason, message, detail };
}

interface FuncInfo {
  readonly name: string;
  readonly isAggregate: boolean;
}

function funcInfo(body: JsonObject): FuncInfo {
  const name = stringList(body.funcname).join('.').toLowerCase();
  const windowed = body.over !== undefined;
  const aggShape = body.agg_star === true || body.agg_distinct === true || body.agg_within_group === true || body.agg_filter !== undefined;
  return { name, isAggregate: !windowed && (aggShape || isAggregateFunction(name)) };
}

/** Walks the whole tree once, enforcing the allow-list and collecting what the PII and allow-list layers need. */
class TreeWalker {
  readonly functions = new Set<string>();
  readonly relations: Array<{ name: string; alias: string | null; qualified: boolean; bare: string }> = [];
  readonly columns = new Set<string>();
  readonly cteNames = new Set<string>();
  readonly operators = new Set<string>();
  readonly castTypes = new Set<string>();

  /** A type name node (`{TypeName: {names}}` or its bare body): its last name, as the live check reads it. */
  private addType(node: JsonObject): void {
    const typed = asTyped(node);
    const names = typed && typed[0] === 'TypeName' ? stringList(typed[1].names) : stringList(node.names);
    const t = names[names.length - 1];
    if (t) this.castTypes.add(t.toLowerCase());
  }

  /** Iterative: a deep tree (nested ARRAY[…], thousands of UNION arms) cannot overflow the JS stack here. */
  visit(root: unknown): void {
    const stack: unknown[] = [root];
    while (stack.length > 0) {
      const v = stack.pop();
      if (Array.isArray(v)) {
        for (let i = v.length - 1; i >= 0; i--) stack.push(v[i]);
        continue;
      }
      if (!isObject(v)) continue;
      const typed = asTyped(v);
      if (typed) {
        this.visitTyped(typed[0], typed[1]);
        this.pushFields(typed[1], stack);
      } else this.pushFields(v, stack);
    }
  }

  private pushFields(body: JsonObject, stack: unknown[]): void {
    const entries = Object.entries(body);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [k, val] = entries[i];
      if (k === 'intoClause' && val) {
        throw new Refusal('forbidden_clause', 'INTO', "argument 'sql' must not use SELECT … INTO (it creates a table); select the rows instead");
      }
      // Every type the statement names (a cast, ROW(…)::t, a column definition list `AS x(d t)`): building or
      // checking a value of it may run its input function or its domain's CHECK, inside it at any depth.
      if (k === 'typeName' && isObject(val)) this.addType(val);
      if (k === 'lockingClause' && Array.isArray(val) && val.length > 0) {
        throw new Refusal('forbidden_clause', 'FOR UPDATE/SHARE', "argument 'sql' must not use FOR UPDATE / FOR SHARE locking clauses; remove the locking clause");
      }
      stack.push(val);
    }
  }

  private visitTyped(type: string, body: JsonObject): void {
    if (type.endsWith('Stmt') && type !== 'SelectStmt') {
      throw new Refusal(
        'not_read_only',
        statementLabel(type),
        `argument 'sql' must contain only read-only queries; found ${statementLabel(type)} inside the statement`,
      );
    }
    switch (type) {
      case 'FuncCall': {
        const f = funcInfo(body);
        this.checkScalar(f.name, body.args);
        this.functions.add(f.name);
        break;
      }
      case 'RangeFunction':
        this.checkRangeFunction(body);
        break;
      case 'RangeVar': {
        const rel = [body.catalogname, body.schemaname, body.relname].filter((s): s is string => typeof s === 'string');
        const alias = isObject(body.alias) && typeof body.alias.aliasname === 'string' ? body.alias.aliasname : null;
        this.relations.push({ name: rel.join('.'), alias, qualified: rel.length > 1, bare: String(body.relname ?? '') });
        break;
      }
      case 'ColumnRef':
        this.columns.add(stringList(body.fields).join('.'));
        break;
      case 'CommonTableExpr':
        if (typeof body.ctename === 'string') this.cteNames.add(body.ctename);
        break;
      case 'A_Expr': {
        const name = stringList(body.name);
        const op = name[name.length - 1];
        if (op) this.operators.add(op.toLowerCase());
        break;
      }
      case 'TypeCast':
        if (isObject(body.typeName)) this.addType(body.typeName);
        break;
      case 'TypeName':
        this.addType({ TypeName: body });
        break;
      default:
        break;
    }
  }

  private checkScalar(name: string, args?: unknown): void {
    if (isDeniedPostgresFunction(name, args)) {
      throw new Refusal(
        'forbidden_function',
        name,
        `argument 'sql' calls ${name}(), which is not allowed in read-only queries (file, network, session, sequence or admin side effects)`,
      );
    }
  }

  private checkRangeFunction(body: JsonObject): void {
    const lists = Array.isArray(body.functions) ? body.functions : [];
    for (const entry of lists) {
      const list = asTyped(entry);
      const items = list && list[0] === 'List' && Array.isArray(list[1].items) ? list[1].items : [];
      for (const item of items) {
        const call = asTyped(item);
        if (!call || call[0] !== 'FuncCall') continue;
        const name = funcInfo(call[1]).name;
        this.checkScalar(name);
        if (!isAllowedPostgresFromFunction(name)) {
          throw new Refusal(
            'forbidden_function',
            name,
            `argument 'sql' uses ${name}() as a table in FROM; system table functions there are limited to well-known set-returning ones (generate_series, unnest, json_each, …)`,
          );
        }
      }
    }
  }
}

/** Column references and aggregate use inside one select-list expression. */
function analyseProjection(val: unknown): { refs: string[]; raw: boolean; aggs: string[] } {
  const refs: string[] = [];
  const aggs: string[] = [];
  let raw = false;
  const walk = (v: unknown, inAgg: boolean): void => {
    if (Array.isArray(v)) {
      for (const x of v) walk(x, inAgg);
      return;
    }
    if (!isObject(v)) return;
    const typed = asTyped(v);
    if (!typed) {
      for (const x of Object.values(v)) walk(x, inAgg);
      return;
    }
    const [type, body] = typed;
    if (type === 'ColumnRef') {
      refs.push(stringList(body.fields).join('.'));
      if (!inAgg) raw = true;
      return;
    }
    if (type === 'FuncCall') {
      const f = funcInfo(body);
      if (f.isAggregate) aggs.push(f.name.slice(f.name.lastIndexOf('.') + 1));
      for (const x of Object.values(body)) walk(x, inAgg || f.isAggregate);
      return;
    }
    for (const x of Object.values(body)) walk(x, inAgg);
  };
  walk(val, false);
  return { refs: [...new Set(refs)], raw, aggs: [...new Set(aggs)] };
}

export function pgTokens(sql: string): SqlToken[] {
  const toChar = byteToCharOffsets(sql);
  return pgParser().scanSync(sql).tokens.map((t) => {
    const start = toChar(t.start);
    const end = toChar(t.end);
    let kind: SqlToken['kind'];
    if (t.tokenName === 'SQL_COMMENT' || t.tokenName === 'C_COMMENT') kind = 'comment';
    else if (/^(SCONST|USCONST|ICONST|FCONST|BCONST|XCONST)$/.test(t.tokenName)) kind = 'constant';
    else if (t.tokenName === 'PARAM') kind = 'parameter';
    else if (t.keywordKind > 0) kind = 'keyword';
    else if (t.tokenName === 'IDENT' || t.tokenName === 'UIDENT' || /^(U&)?"/i.test(t.text)) kind = 'identifier';
    else if (t.tokenName.startsWith('ASCII_')) kind = 'punct';
    else kind = 'operator';
    return { start, end, text: sql.slice(start, end), kind };
  });
}

function projectionsOf(select: JsonObject, sql: string, tokens: readonly SqlToken[], toChar: (b: number) => number): Projection[] {
  let s = select;
  while (s.op && s.op !== 'SETOP_NONE' && isObject(s.larg)) s = s.larg;
  if (!Array.isArray(s.targetList)) return [];
  const out: Projection[] = [];
  for (const t of s.targetList) {
    const typed = asTyped(t);
    if (!typed || typed[0] !== 'ResTarget') continue;
    const body = typed[1];
    const a = analyseProjection(body.val);
    const valTyped = asTyped(body.val);
    const bareColumn = valTyped && valTyped[0] === 'ColumnRef' ? stringList(valTyped[1].fields).slice(-1)[0] : undefined;
    const alias = typeof body.name === 'string' ? body.name : bareColumn && bareColumn !== '*' ? bareColumn : null;
    const loc = typeof body.location === 'number' ? toChar(body.location) : -1;
    out.push({
      expression: loc >= 0 ? expressionAt(sql, tokens, loc, typeof body.name === 'string' ? body.name : null) : a.refs.join(', ') || '*',
      alias,
      sourceColumns: a.refs,
      aggregated: a.aggs.length > 0 && !a.raw,
      aggregateFunctions: a.aggs,
    });
  }
  return out;
}

/** The source text of one select-list item: tokens from `start` to the next top-level `,` / clause keyword / `)`. */
function expressionAt(sql: string, tokens: readonly SqlToken[], start: number, alias: string | null): string {
  const first = tokens.findIndex((t) => t.start === start);
  if (first < 0) return '';
  const taken: SqlToken[] = [];
  let depth = 0;
  for (let i = first; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.kind === 'comment') continue;
    const lower = t.text.toLowerCase();
    if (t.text === '(' || t.text === '[') depth++;
    else if (t.text === ')' || t.text === ']') {
      if (depth === 0) break;
      depth--;
    } else if (depth === 0 && (t.text === ',' || t.text === ';' || (t.kind === 'keyword' && SELECT_LIST_STOP.has(lower)))) break;
    else if (depth === 0 && alias !== null && t.kind === 'keyword' && lower === 'as') break;
    taken.push(t);
  }
  // `expr alias` without AS: the last token is the alias
  const last = taken[taken.length - 1];
  if (alias !== null && taken.length > 1 && last && last.text.replace(/^"|"$/g, '') === alias) taken.pop();
  return taken.length > 0 ? sql.slice(start, taken[taken.length - 1].end) : '';
}

/** Guards one PostgreSQL statement. Never throws for bad input; returns a refusal instead. */
export function guardPostgres(sql: string): GuardResult {
  if (sql.length > MAX_SQL_LENGTH) {
    return refused('too_long', `argument 'sql' must be at most ${MAX_SQL_LENGTH} characters`, null);
  }
  if (hasNul(sql)) return refused('invalid_input', "argument 'sql' must not contain NUL bytes (\\u0000)", 'NUL');
  let scanned: SqlToken[];
  try {
    scanned = pgTokens(sql);
  } catch {
    return refused('parse_error', "argument 'sql' could not be tokenised", null);
  }
  const shape = inputShapeProblem(scanned);
  if (shape) return refused('invalid_input', shape, null);
  let parsed: { stmts?: unknown[] };
  try {
    parsed = pgParser().parseSync(sql) as { stmts?: unknown[] };
  } catch (e) {
    if (e instanceof RangeError) throw e; // out of stack: the guard's caller answers it as input too deep to check
    const msg = pgParser().hasSqlDetails(e) && e.sqlDetails ? e.sqlDetails.message : e instanceof Error ? e.message : 'unparseable';
    return refused('parse_error', `argument 'sql' is not valid PostgreSQL: ${msg}`, msg);
  }
  const stmts = (parsed.stmts ?? []).map((s) => (isObject(s) ? s.stmt : undefined)).filter((s) => s !== undefined);
  if (stmts.length === 0) return refused('empty_statement', "argument 'sql' must contain one statement; it is empty", null);
  if (stmts.length > 1) {
    return refused(
      'multiple_statements',
      `argument 'sql' must contain exactly one statement; found ${stmts.length} — send them one call at a time`,
      String(stmts.length),
    );
  }
  const top = asTyped(stmts[0]);
  if (!top) return refused('parse_error', "argument 'sql' could not be read as a statement", null);

  const tokens = scanned;

  let kind: StatementKind;
  let select: JsonObject;
  const [type, body] = top;
  if (type === 'SelectStmt') {
    select = body;
    const first = tokens.find((t) => t.kind !== 'comment');
    if (Array.isArray(body.valuesLists) && body.valuesLists.length > 0) kind = 'values';
    else if (first && first.text.toLowerCase() === 'table') kind = 'table';
    else kind = 'select';
  } else if (type === 'ExplainStmt') {
    const options = Array.isArray(body.options) ? body.options : [];
    for (const o of options) {
      const d = asTyped(o);
      if (d && d[0] === 'DefElem' && typeof d[1].defname === 'string' && ANALYZE_OPTIONS.has(d[1].defname.toLowerCase())) {
        return refused(
          'forbidden_clause',
          "argument 'sql' must not use EXPLAIN ANALYZE (it executes the statement); use plain EXPLAIN for the plan",
          'EXPLAIN ANALYZE',
        );
      }
    }
    const inner = asTyped(body.query);
    if (!inner || inner[0] !== 'SelectStmt') {
      const label = inner ? statementLabel(inner[0]) : 'unknown';
      return refused('not_read_only', `argument 'sql' may EXPLAIN only a read-only query; found EXPLAIN ${label}`, label);
    }
    kind = 'explain';
    select = inner[1];
  } else {
    const label = statementLabel(type);
    return refused(
      'not_read_only',
      `argument 'sql' must be a single read-only statement (SELECT, WITH … SELECT, VALUES, TABLE or EXPLAIN); found ${label}`,
      label,
    );
  }

  const walker = new TreeWalker();
  try {
    walker.visit(type === 'ExplainStmt' ? body.query : stmts[0]);
  } catch (e) {
    if (e instanceof Refusal) return refused(e.reason, e.message, e.detail);
    throw e;
  }

  const tables: string[] = [];
  const aliases: Record<string, string> = {};
  for (const r of walker.relations) {
    if (!r.qualified && walker.cteNames.has(r.bare)) continue;
    if (!tables.includes(r.name)) tables.push(r.name);
    if (r.alias) aliases[r.alias] = r.name;
  }
  const toChar = byteToCharOffsets(sql);
  const accepted: GuardAccepted = {
    ok: true,
    dialect: 'postgres',
    statementKind: kind,
    normalized: normalizeTokens(sql, tokens),
    fingerprint: fingerprintTokens('postgres', tokens),
    tables,
    aliases,
    columns: [...walker.columns],
    projections: projectionsOf(select, sql, tokens, toChar),
    functions: [...walker.functions],
    operators: [...walker.operators],
    castTypes: [...walker.castTypes],
  };
  return accepted;
}
