import { fingerprintTokens, normalizeTokens, type SqlToken } from './tokens';
import type { GuardAccepted, GuardReason, GuardRefused, GuardResult, Projection, StatementKind } from './types';
import { MAX_SQL_LENGTH } from './pg-guard';
import { mysqlVendor } from './mysql-driver';

/**
 * Layer 1 for MySQL and MariaDB, in three passes over the text, each able to refuse:
 *
 * 1. The raw text: executable comments (`/*! … *\/`, `/*!50001 … *\/`, MariaDB's `/*M! … *\/`) and optimizer hints
 *    (`/*+ … *\/`, which can SET_VAR) are refused wherever they appear — the server runs what a parser would skip
 *    (https://dev.mysql.com/doc/refman/8.0/en/comments.html, https://mariadb.com/kb/en/comment-syntax/).
 * 2. A tokenizer that follows MySQL's lexer (`#` and `-- ` comments, `--` without a space being two minuses,
 *    backslash escapes in strings, back-quoted identifiers, `@var`/`@@sysvar`): one statement only; no user or
 *    system variables; no INTO (OUTFILE, DUMPFILE, @var), PROCEDURE, HANDLER, or locking read (FOR UPDATE, FOR SHARE,
 *    LOCK IN SHARE MODE). The executor pins the session's sql_mode so strings and quotes lex the way this tokenizer
 *    reads them (no NO_BACKSLASH_ESCAPES, no ANSI_QUOTES).
 * 3. node-sql-parser's MySQL (then MariaDB) grammar: exactly one SELECT (optionally under EXPLAIN), every function
 *    called on an allow-list of built-ins, and the relations, aliases, columns and projections the PII gate reads.
 *    A statement the grammar cannot read is refused rather than passed on.
 */

/** Built-in functions a read-only analytics query may call (lower case). Anything else — stored functions included — is refused. */
const ALLOWED_FUNCTIONS = new Set(
  (
    // aggregates and windows
    'avg bit_and bit_or bit_xor count group_concat json_arrayagg json_objectagg max min std stddev stddev_pop stddev_samp sum var_pop var_samp variance ' +
    'cume_dist dense_rank first_value lag last_value lead nth_value ntile percent_rank rank row_number median percentile_cont percentile_disc ' +
    // control flow and comparison
    'if ifnull nullif coalesce greatest least isnull interval case cast convert ' +
    // numbers
    'abs acos asin atan atan2 ceil ceiling conv cos cot crc32 degrees div exp floor ln log log10 log2 mod pi pow power radians rand round sign sin sqrt tan truncate format ' +
    // strings
    'ascii bin bit_length char char_length character_length concat concat_ws elt export_set field find_in_set hex insert instr lcase left length locate lower lpad ltrim ' +
    'make_set mid oct octet_length ord position quote repeat replace reverse right rpad rtrim soundex space strcmp substr substring substring_index trim ucase unhex upper ' +
    'regexp_instr regexp_like regexp_replace regexp_substr to_base64 from_base64 weight_string char_length sformat natural_sort_key ' +
    'md5 sha sha1 sha2 ' +
    // dates and times
    'adddate addtime convert_tz curdate current_date current_time current_timestamp curtime date date_add date_format date_sub datediff day dayname dayofmonth ' +
    'dayofweek dayofyear extract from_days from_unixtime get_format hour last_day localtime localtimestamp makedate maketime microsecond minute month monthname now ' +
    'period_add period_diff quarter sec_to_time second str_to_date subdate subtime sysdate time time_format time_to_sec timediff timestamp timestampadd timestampdiff ' +
    'to_days to_seconds unix_timestamp utc_date utc_time utc_timestamp week weekday weekofyear year yearweek add_months ' +
    // JSON
    'json_array json_array_append json_array_insert json_contains json_contains_path json_depth json_extract json_insert json_keys json_length json_merge ' +
    'json_merge_patch json_merge_preserve json_object json_overlaps json_pretty json_quote json_remove json_replace json_search json_set json_storage_size ' +
    'json_table json_type json_unquote json_valid json_value member_of json_exists json_query json_compact json_detailed json_loose json_equals json_normalize ' +
    // misc pure functions
    'bin_to_uuid uuid_to_bin is_uuid inet_aton inet_ntoa inet6_aton inet6_ntoa is_ipv4 is_ipv6 charset collation coercibility database schema version ' +
    'values row exists not in any some all'
  ).split(/\s+/),
);

/** Functions with side effects or that stall the server; named so the refusal can say why. */
const DENIED_FUNCTIONS: Readonly<Record<string, string>> = {
  load_file: 'reads files on the database server',
  sleep: 'stalls a connection on purpose',
  benchmark: 'burns server CPU on purpose',
  get_lock: 'takes a named lock that outlives the statement',
  release_lock: 'manipulates named locks',
  release_all_locks: 'manipulates named locks',
  is_free_lock: 'probes named locks',
  is_used_lock: 'probes named locks',
  master_pos_wait: 'blocks on replication',
  source_pos_wait: 'blocks on replication',
  master_gtid_wait: 'blocks on replication',
  wait_for_executed_gtid_set: 'blocks on replication',
  wait_until_sql_thread_after_gtids: 'blocks on replication',
  last_insert_id: 'sets session state when given an argument',
  set_config: 'changes settings',
  sys_exec: 'runs operating-system commands',
  sys_eval: 'runs operating-system commands',
  uuid: 'is not deterministic',
  uuid_short: 'is not deterministic',
  connection_id: 'exposes session identity',
  current_user: 'exposes session identity',
  session_user: 'exposes session identity',
  system_user: 'exposes session identity',
  user: 'exposes session identity',
  found_rows: 'reads session state',
  row_count: 'reads session state',
  nextval: 'advances a sequence (a write)',
  setval: 'sets a sequence (a write)',
  lastval: 'reads session state',
  password: 'hashes credentials',
  encrypt: 'handles credentials',
  des_encrypt: 'handles credentials',
  des_decrypt: 'handles credentials',
  aes_encrypt: 'handles keys',
  aes_decrypt: 'handles keys',
  random_bytes: 'is not deterministic',
  column_create: 'is a dynamic-column constructor',
};

/** Keywords that make a statement not read-only wherever they appear as bare words. */
const FORBIDDEN_WORDS: Readonly<Record<string, string>> = {
  outfile: 'SELECT … INTO OUTFILE writes a file on the database server',
  dumpfile: 'SELECT … INTO DUMPFILE writes a file on the database server',
  into: 'SELECT … INTO writes to a file or a variable',
  procedure: 'SELECT … PROCEDURE runs a server procedure',
  handler: 'HANDLER reads bypass the optimizer and keep a cursor open in the session',
  lock: 'locking reads (LOCK IN SHARE MODE) take row locks',
  share: 'locking reads (FOR SHARE) take row locks',
};

const SELECT_LIST_STOP = new Set(['from', 'where', 'group', 'having', 'window', 'order', 'limit', 'union', 'intersect', 'except', 'into', 'for', 'lock']);

class TokenizeError extends Error {}

/**
 * What the server skips between tokens: ASCII spaces and controls only. U+00A0, U+2000–U+200A, U+3000 and the other
 * Unicode spaces are characters of a name to MySQL and MariaDB (`\s` in a JavaScript pattern would take them for
 * spaces, and `--` before one for a comment the server runs as SQL).
 */
const MYSQL_SPACE = /[ \t\n\r\x0b\x0c]/;
/** `--` starts a comment only before an ASCII space or control character (or at the end). */
const DASH_COMMENT_NEXT = /[\x00-\x20\x7f]/;

/**
 * The statement with every comment but executable ones and optimizer hints (`/*!`, `/*M!`, `/*+`, which the guard
 * refuses) written over with spaces, offsets kept: the parser that reads the statement for the guard and the
 * server that runs it then have no comment to disagree about, with the tokenizer here or with each other. A text the
 * tokenizer cannot read is returned as it is (the guard refuses it).
 */
export function blankMysqlComments(sql: string): string {
  let tokens: SqlToken[];
  try {
    tokens = tokenizeMysql(sql);
  } catch {
    return sql;
  }
  let out = '';
  let at = 0;
  for (const t of tokens) {
    if (t.kind !== 'comment' || /^\/\*(M?!|\+)/i.test(t.text)) continue;
    out += sql.slice(at, t.start) + t.text.replace(/[^\n]/g, ' ');
    at = t.end;
  }
  return at === 0 ? sql : out + sql.slice(at);
}

/** Tokenises MySQL text (https://dev.mysql.com/doc/refman/8.0/en/string-literals.html, comments.html, identifiers.html). */
export function tokenizeMysql(sql: string): SqlToken[] {
  const out: SqlToken[] = [];
  const n = sql.length;
  let i = 0;
  const push = (start: number, end: number, kind: SqlToken['kind']): void => {
    out.push({ start, end, text: sql.slice(start, end), kind });
  };
  const isIdPart = (c: string | undefined): boolean => !!c && (/[A-Za-z0-9_$]/.test(c) || c.charCodeAt(0) >= 0x80);
  while (i < n) {
    const c = sql[i]!;
    const d = sql[i + 1] ?? '';
    if (MYSQL_SPACE.test(c)) {
      i++;
    } else if (c === '#' || (c === '-' && d === '-' && (i + 2 >= n || DASH_COMMENT_NEXT.test(sql[i + 2]!)))) {
      const j = sql.indexOf('\n', i);
      const end = j < 0 ? n : j;
      push(i, end, 'comment');
      i = end;
    } else if (c === '/' && d === '*') {
      const j = sql.indexOf('*/', i + 2);
      if (j < 0) throw new TokenizeError('unterminated comment');
      push(i, j + 2, 'comment');
      i = j + 2;
    } else if (c === "'" || c === '"' || ((c === 'x' || c === 'X' || c === 'b' || c === 'B' || c === 'n' || c === 'N') && d === "'")) {
      const quote = c === "'" || c === '"' ? c : "'";
      let j = c === quote ? i + 1 : i + 2;
      for (;;) {
        if (j >= n) throw new TokenizeError('unterminated string literal');
        const ch = sql[j];
        if (ch === '\\') j += 2;
        else if (ch === quote) {
          if (sql[j + 1] === quote) j += 2;
          else break;
        } else j++;
      }
      push(i, j + 1, 'constant');
      i = j + 1;
    } else if (c === '`') {
      let j = i + 1;
      for (;;) {
        if (j >= n) throw new TokenizeError('unterminated quoted identifier');
        if (sql[j] === '`') {
          if (sql[j + 1] === '`') j += 2;
          else break;
        } else j++;
      }
      push(i, j + 1, 'identifier');
      i = j + 1;
    } else if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(d))) {
      const m = /^(0[xX][0-9A-Fa-f]+|0[bB][01]+|[0-9]*\.?[0-9]*([eE][+-]?[0-9]+)?)/.exec(sql.slice(i));
      let len = m && m[0].length > 0 ? m[0].length : 1;
      // `1abc` is an identifier in MySQL when letters follow digits.
      while (isIdPart(sql[i + len]) && !/[eE]/.test(sql[i + len] ?? '')) len++;
      push(i, i + len, 'constant');
      i += len;
    } else if (c === '?') {
      push(i, i + 1, 'parameter');
      i++;
    } else if (c === '@') {
      let j = i + 1;
      if (sql[j] === '@') j++;
      if (sql[j] === '`' || sql[j] === "'" || sql[j] === '"') {
        const qc = sql[j]!;
        const k = sql.indexOf(qc, j + 1);
        j = k < 0 ? n : k + 1;
      } else while (j < n && (isIdPart(sql[j]) || sql[j] === '.')) j++;
      push(i, j, 'parameter');
      i = j;
    } else if (isIdPart(c)) {
      let j = i + 1;
      while (j < n && isIdPart(sql[j])) j++;
      push(i, j, 'keyword');
      i = j;
    } else {
      const three = sql.slice(i, i + 3);
      const two = sql.slice(i, i + 2);
      const len = ['<=>', '->>'].includes(three) ? 3 : ['||', '&&', '<<', '>>', '<=', '>=', '!=', '<>', ':=', '->'].includes(two) ? 2 : 1;
      push(i, i + len, /[(),;.]/.test(c) && len === 1 ? 'punct' : 'operator');
      i += len;
    }
  }
  return out;
}

function refused(reason: GuardReason, message: string, detail: string | null): GuardRefused {
  return { ok: false, dialect: 'mysql', reason, message, detail };
}

const lower = (t: SqlToken | undefined): string => (t ? t.text.toLowerCase() : '');

type Node = Record<string, unknown>;
interface ParserLike {
  astify(sql: string, opt: object): unknown;
  tableList(sql: string, opt: object): string[];
}

let parsers: { mysql: ParserLike; mariadb: ParserLike } | undefined;
function sqlParsers(): { mysql: ParserLike; mariadb: ParserLike } {
  if (!parsers) {
    // The per-dialect builds are a fraction of the all-dialects bundle.
    const My = (mysqlVendor().sqlParserMysql() as { Parser: new () => ParserLike }).Parser;
    const Ma = (mysqlVendor().sqlParserMariadb() as { Parser: new () => ParserLike }).Parser;
    parsers = { mysql: new My(), mariadb: new Ma() };
  }
  return parsers;
}

/** The statement's AST (node-sql-parser, MySQL then MariaDB grammar), for the masker's own check. */
export function parseMysqlStatement(sql: string): { ast: Record<string, unknown>; tables: string[] } | { error: string } {
  return parse(sql);
}

function parse(sql: string): { ast: Node; tables: string[] } | { error: string } {
  let first = '';
  for (const database of ['mysql', 'mariadb'] as const) {
    const p = sqlParsers()[database];
    const opt = { database, parseOptions: { includeLocations: true } };
    try {
      const ast = p.astify(sql, opt);
      const list = Array.isArray(ast) ? ast : [ast];
      if (list.length !== 1) return { error: `found ${list.length} statements` };
      return { ast: list[0] as Node, tables: p.tableList(sql, opt) };
    } catch (e) {
      if (!first) first = (e as Error).message;
    }
  }
  return { error: first.replace(/^Expected [\s\S]*? but /, 'unexpected input: ').slice(0, 200) };
}

/**
 * A function's name as written, with the database before it when there is one (`shop.upper`): a qualified call is a
 * stored function even when its name is a built-in's, so it never matches the allow-list.
 */
function nameOf(fn: Node): string {
  const n = fn.name;
  if (typeof n === 'string') return n.toLowerCase();
  if (n && typeof n === 'object') {
    const parts = (n as { name?: Array<{ value?: unknown }> }).name;
    const schema = identText((n as { schema?: unknown }).schema);
    if (Array.isArray(parts)) return [...(schema ? [schema] : []), ...parts.map((p) => String(p.value ?? ''))].join('.').toLowerCase();
  }
  return '';
}

/** An identifier as node-sql-parser gives it: a string, or `{ value }` / `{ expr: { value } }` when quoted. */
export function identText(x: unknown): string {
  if (typeof x === 'string') return x;
  if (!x || typeof x !== 'object') return '';
  const o = x as { value?: unknown; expr?: unknown };
  if (typeof o.value === 'string') return o.value;
  return identText(o.expr);
}

function columnName(ref: Node): string {
  return identText(ref.column);
}

/** `table.column` or `column`, unquoted. */
function refText(ref: Node): string {
  const t = identText(ref.table);
  const db = identText(ref.db) || identText(ref.schema);
  return t ? `${db ? `${db}.` : ''}${t}.${columnName(ref)}` : columnName(ref);
}

/** Depth-first visit of every object node in the AST. */
export function visit(node: unknown, fn: (n: Node, inAggregate: boolean) => void, inAggregate = false): void {
  if (Array.isArray(node)) {
    for (const x of node) visit(x, fn, inAggregate);
    return;
  }
  if (!node || typeof node !== 'object') return;
  const n = node as Node;
  fn(n, inAggregate);
  const agg = inAggregate || (n.type === 'aggr_func' && !n.over);
  for (const [k, v] of Object.entries(n)) {
    if (k === 'loc') continue;
    visit(v, fn, agg);
  }
}

export function guardMysql(sql: string): GuardResult {
  if (sql.length > MAX_SQL_LENGTH) return refused('too_long', `argument 'sql' must be at most ${MAX_SQL_LENGTH} characters`, null);
  if (sql.includes('\0')) return refused('invalid_input', "argument 'sql' contains a NUL byte", null);
  const exec = /\/\*(M?!|\+)/i.exec(sql);
  if (exec) {
    return refused(
      'forbidden_clause',
      `argument 'sql' contains an executable comment or optimizer hint (${exec[0]}…*/), which MySQL runs as SQL; remove it`,
      exec[0],
    );
  }
  let tokens: SqlToken[];
  try {
    tokens = tokenizeMysql(sql);
  } catch (e) {
    const msg = e instanceof Error ? e.message : 'unreadable';
    return refused('parse_error', `argument 'sql' is not valid MySQL: ${msg}`, msg);
  }
  const code = tokens.filter((t) => t.kind !== 'comment');
  // Outside strings and back-quoted names, only ASCII: the server, the tokenizer here and the parser below then read
  // the same words and the same spaces (a Unicode space is a name's character to the server, a space to the parser).
  const foreign = code.find((t) => t.kind !== 'constant' && t.kind !== 'identifier' && /[^\x00-\x7f]/.test(t.text));
  if (foreign) {
    const at = foreign.text.match(/[^\x00-\x7f]/)![0]!;
    const cp = `U+${at.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
    return refused('parse_error', `argument 'sql' has the character ${cp} outside a string or a back-quoted name; write names with characters beyond ASCII in back quotes (\`name\`) and use plain spaces`, cp);
  }
  const statements: SqlToken[][] = [[]];
  for (const t of code) {
    if (t.text === ';') statements.push([]);
    else statements[statements.length - 1]!.push(t);
  }
  const nonEmpty = statements.filter((s) => s.length > 0);
  if (nonEmpty.length === 0) return refused('empty_statement', "argument 'sql' must contain one statement; it is empty", null);
  if (nonEmpty.length > 1) {
    return refused('multiple_statements', `argument 'sql' must contain exactly one statement; found ${nonEmpty.length} — send them one call at a time`, String(nonEmpty.length));
  }
  const ts = nonEmpty[0]!;

  for (let k = 0; k < ts.length; k++) {
    const t = ts[k]!;
    if (t.kind === 'parameter' && t.text.startsWith('@')) {
      return refused(
        'forbidden_clause',
        `argument 'sql' uses the variable ${t.text.slice(0, 40)}; user and system variables are not allowed (they carry state between statements)`,
        t.text.slice(0, 40),
      );
    }
    // `db.f(…)`, `` `db`.`f` (…) ``: MySQL has no qualified built-in, so this calls a stored function whatever its name.
    if (t.text === '.' && (ts[k + 1]?.kind === 'keyword' || ts[k + 1]?.kind === 'identifier') && ts[k + 2]?.text === '(' && (ts[k - 1]?.kind === 'keyword' || ts[k - 1]?.kind === 'identifier')) {
      const name = `${ts[k - 1]!.text}.${ts[k + 1]!.text}`.slice(0, 80);
      return refused('forbidden_function', `argument 'sql' calls ${name}(), a stored function (a name with its database before it is never a built-in); only built-in functions are allowed`, name);
    }
    if (t.kind !== 'keyword') continue;
    const w = t.text.toLowerCase();
    if (w === 'for' && ['update', 'share'].includes(lower(ts[k + 1]))) {
      return refused('forbidden_clause', `argument 'sql' is a locking read (FOR ${lower(ts[k + 1]).toUpperCase()}); remove the locking clause`, `FOR ${lower(ts[k + 1]).toUpperCase()}`);
    }
    if (w === 'lock' && lower(ts[k + 1]) === 'in') {
      return refused('forbidden_clause', `argument 'sql' is a locking read (LOCK IN SHARE MODE); remove the locking clause`, 'LOCK IN SHARE MODE');
    }
    const why = FORBIDDEN_WORDS[w];
    // `share`/`lock` are only clauses in the positions above; elsewhere they may be column names.
    if (why && w !== 'share' && w !== 'lock' && ts[k - 1]?.text !== '.' && ts[k + 1]?.text !== '(') {
      return refused(w === 'handler' ? 'not_read_only' : 'forbidden_clause', `argument 'sql' is refused: ${why}`, w.toUpperCase());
    }
  }

  let i = 0;
  let kind: StatementKind = 'select';
  if (['explain', 'describe', 'desc'].includes(lower(ts[0]))) {
    kind = 'explain';
    i = 1;
    while (['extended', 'partitions'].includes(lower(ts[i])) || (lower(ts[i]) === 'format' && ts[i + 1]?.text === '=')) i += lower(ts[i]) === 'format' ? 3 : 1;
    if (lower(ts[i]) === 'analyze') return refused('not_read_only', "argument 'sql' must not be EXPLAIN ANALYZE, which runs the statement; use EXPLAIN alone", 'EXPLAIN ANALYZE');
  }
  let head = i;
  while (ts[head]?.text === '(') head++;
  const lead = lower(ts[head]);
  if (lead !== 'select' && lead !== 'with') {
    const label = lead ? lead.toUpperCase() : 'nothing';
    return refused(
      'not_read_only',
      `argument 'sql' must be a single read-only statement (SELECT, WITH … SELECT or EXPLAIN); found ${kind === 'explain' ? 'EXPLAIN ' : ''}${label}`,
      label,
    );
  }

  const body = sql.slice(ts[i]!.start, ts[ts.length - 1]!.end);
  const parsed = parse(body);
  if ('error' in parsed) return refused('parse_error', `argument 'sql' could not be read as one MySQL SELECT: ${parsed.error}`, null);
  const ast = parsed.ast;
  if (ast.type !== 'select') {
    const label = String(ast.type ?? 'unknown').toUpperCase();
    return refused('not_read_only', `argument 'sql' must be a single read-only statement (SELECT, WITH … SELECT or EXPLAIN); found ${label}`, label);
  }

  const ctes = new Set<string>();
  for (const w of (ast.with as Node[] | null) ?? []) {
    const name = (w.name as { value?: unknown } | string | undefined) ?? '';
    ctes.add(String(typeof name === 'string' ? name : name.value).toLowerCase());
  }

  const functions: string[] = [];
  let problem: GuardRefused | null = null;
  const aliases: Record<string, string> = {};
  visit(ast, (n) => {
    if (problem) return;
    if (n.type === 'var') {
      problem = refused('forbidden_clause', `argument 'sql' uses a variable; user and system variables are not allowed (they carry state between statements)`, String(n.name ?? ''));
      return;
    }
    if (n.type === 'assign') {
      problem = refused('forbidden_clause', "argument 'sql' assigns a variable (:=), which persists in the session", ':=');
      return;
    }
    const into = n.into as { position?: unknown } | undefined;
    if (into && into.position) {
      problem = refused('forbidden_clause', "argument 'sql' is refused: SELECT … INTO writes to a file or a variable", 'INTO');
      return;
    }
    if (n.locking_read) {
      problem = refused('forbidden_clause', `argument 'sql' is a locking read (${String(n.locking_read)}); remove the locking clause`, String(n.locking_read));
      return;
    }
    if (n.type === 'function' || n.type === 'aggr_func') {
      const name = nameOf(n);
      if (!name) return;
      const denied = DENIED_FUNCTIONS[name];
      if (denied) {
        problem = refused('forbidden_function', `argument 'sql' calls ${name}(), which is not allowed in read-only queries: it ${denied}`, name);
        return;
      }
      if (!ALLOWED_FUNCTIONS.has(name)) {
        problem = refused('forbidden_function', `argument 'sql' calls ${name}(), which is not on the list of built-in functions allowed in read-only queries`, name);
        return;
      }
      if (!functions.includes(name)) functions.push(name);
    }
    for (const key of ['from', 'table']) {
      const from = n[key];
      if (!Array.isArray(from)) continue;
      for (const f of from as Node[]) {
        const table = identText(f?.table);
        if (!table) continue;
        const db = identText(f.db);
        const rel = db ? `${db}.${table}` : table;
        const as = identText(f.as);
        if (as) aliases[as] = rel;
      }
    }
  });
  if (problem) return problem;

  const tables: string[] = [];
  for (const entry of parsed.tables) {
    const [, db, table] = entry.split('::');
    if (!table) continue;
    if ((db === 'null' || !db) && ctes.has(table.toLowerCase())) continue;
    const rel = db && db !== 'null' ? `${db}.${table}` : table;
    if (!tables.includes(rel)) tables.push(rel);
  }
  for (const [alias, rel] of Object.entries(aliases)) if (!rel.includes('.') && ctes.has(rel.toLowerCase())) delete aliases[alias];

  const columns = new Set<string>();
  visit(ast, (n) => {
    if (n.type === 'column_ref') {
      columns.add(refText(n));
    }
  });
  const projections = projectionsOf(sql, ts.slice(i), ast);
  return {
    ok: true,
    dialect: 'mysql',
    statementKind: kind,
    normalized: normalizeTokens(sql, tokens),
    fingerprint: fingerprintTokens('mysql', tokens),
    tables,
    aliases,
    columns: [...columns],
    projections,
    functions,
  } satisfies GuardAccepted;
}

/** Projections of the top-level (left-most) SELECT: references and aggregates from the AST, text from the tokens. */
function projectionsOf(sql: string, ts: readonly SqlToken[], ast: Node): Projection[] {
  const items = (ast.columns as Node[] | undefined) ?? [];
  const texts = selectListTexts(sql, ts);
  return items.map((item, idx) => {
    const refs: string[] = [];
    const aggs: string[] = [];
    let raw = false;
    visit(item.expr, (n, inAgg) => {
      if (n.type === 'aggr_func' && !n.over) aggs.push(nameOf(n));
      if (n.type === 'column_ref') {
        refs.push(refText(n));
        if (!inAgg) raw = true;
      }
    });
    const expr = item.expr as Node | undefined;
    const as = identText(item.as);
    const alias = as ? as : expr?.type === 'column_ref' && columnName(expr) !== '*' ? columnName(expr) : null;
    return {
      expression: texts.length === items.length ? texts[idx]! : refs.join(', '),
      alias,
      sourceColumns: [...new Set(refs)],
      aggregated: aggs.length > 0 && !raw,
      aggregateFunctions: [...new Set(aggs.map((a) => a.toLowerCase()))],
    };
  });
}

/** Source text of each item of the first depth-0 select list. */
function selectListTexts(sql: string, ts: readonly SqlToken[]): string[] {
  let depth = 0;
  let start = -1;
  for (let k = 0; k < ts.length; k++) {
    if (ts[k]!.text === '(') depth++;
    else if (ts[k]!.text === ')') depth--;
    else if (depth === 0 && lower(ts[k]) === 'select') {
      start = k + 1;
      break;
    }
  }
  if (start < 0) return [];
  while (['distinct', 'all', 'distinctrow', 'high_priority', 'straight_join', 'sql_small_result', 'sql_big_result', 'sql_buffer_result', 'sql_no_cache', 'sql_calc_found_rows'].includes(lower(ts[start]))) start++;
  const out: string[] = [];
  let itemStart = start;
  depth = 0;
  let k = start;
  for (; k < ts.length; k++) {
    const t = ts[k]!;
    if (t.text === '(') depth++;
    else if (t.text === ')') {
      if (depth === 0) break;
      depth--;
    } else if (depth === 0 && t.text === ',') {
      out.push(sql.slice(ts[itemStart]!.start, ts[k - 1]!.end));
      itemStart = k + 1;
    } else if (depth === 0 && t.kind === 'keyword' && SELECT_LIST_STOP.has(lower(t))) break;
  }
  if (k > itemStart) out.push(sql.slice(ts[itemStart]!.start, ts[k - 1]!.end));
  return out.map((x) => x.replace(/\s+(?:as\s+)?(?:`(?:[^`]|``)+`|[A-Za-z_][A-Za-z0-9_$]*)$/i, (m) => (/^\s+as\s/i.test(m) ? '' : m)));
}

/**
 * Rewrites standard double-quoted identifiers (`"film"."title"`) into back-quoted ones, for SQL that SchemaBrain
 * writes itself in the standard form (the profiler). Single-quoted strings are left alone; only our own SQL, which
 * never uses double-quoted strings, is passed through here.
 */
export function ansiQuotesToBackticks(sql: string): string {
  let out = '';
  let last = 0;
  for (const t of tokenizeMysql(sql)) {
    if (t.kind !== 'constant' || !t.text.startsWith('"')) continue;
    const name = t.text.slice(1, -1).replace(/""/g, '"');
    out += sql.slice(last, t.start) + `\`${name.replace(/`/g, '``')}\``;
    last = t.end;
  }
  return out + sql.slice(last);
}
