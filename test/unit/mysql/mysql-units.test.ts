import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import { parseSourceSpec, redactSecrets, SourceSpecError } from '../../../src/core/sources/locator';
import { enumLabels } from '../../../src/core/sources/mysql/introspector';
import { guardMysql, ansiQuotesToBackticks, blankMysqlComments } from '../../../src/core/sql/mysql-guard';
import { maskMysql } from '../../../src/core/sql/mysql-mask';
import { pinnedSqlMode } from '../../../src/core/sql/mysql-exec';
import { bucketSql } from '../../../src/core/semantic/compile';
import type { RelationLookup } from '../../../src/core/sql';

/** MySQL pieces that need no server: URLs and secrets, the guard, the masker, the dialect helpers. */

describe('mysql:// and mariadb:// sources', () => {
  it('parses host, port, database and keeps the password out of every serialised form', () => {
    const s = parseSourceSpec('mysql://app:p%40ss-9@DB.example.com:3307/shop?ssl-mode=REQUIRED');
    assert.equal(s.engine, 'mysql');
    if (s.engine !== 'mysql') return;
    assert.equal(s.host, 'db.example.com');
    assert.equal(s.port, 3307);
    assert.equal(s.database, 'shop');
    assert.equal(s.user, 'app');
    assert.equal(s.password, 'p@ss-9');
    assert.equal(s.locator, 'mysql://db.example.com:3307/shop');
    for (const text of [JSON.stringify(s), inspect(s), s.id]) assert.ok(!text.includes('p@ss-9') && !text.includes('p%40ss-9'), text);
    assert.equal(redactSecrets('mysql://app:p%40ss-9@h/x'), 'mysql://app:***@h/x');
  });

  it('mariadb:// keeps its scheme; the port defaults to 3306; no database means every database', () => {
    const s = parseSourceSpec('mariadb://root@127.0.0.1');
    assert.ok(s.engine === 'mysql' && s.scheme === 'mariadb' && s.port === 3306 && s.database === '');
    assert.equal(s.locator, 'mariadb://127.0.0.1:3306/');
  });

  it('expands ${ENV} references and refuses unknown parameters and bad ssl modes', () => {
    const s = parseSourceSpec('mysql://app:${SB_MYSQL_PW}@h/db', { env: { SB_MYSQL_PW: 'from-env' } });
    assert.ok(s.engine === 'mysql' && s.password === 'from-env');
    assert.throws(() => parseSourceSpec('mysql://app:${NOPE_UNSET}@h/db', { env: {} }), (e: SourceSpecError) => e.code === 'missing_credential');
    assert.throws(() => parseSourceSpec('mysql://h/db?sslmod=x'), (e: SourceSpecError) => e.code === 'invalid_parameter');
    assert.throws(() => parseSourceSpec('mysql://h/db?ssl-mode=sometimes'), (e: SourceSpecError) => e.code === 'invalid_parameter');
    assert.throws(() => parseSourceSpec('mysql://h:99999/db'), (e: SourceSpecError) => e.code === 'invalid_port');
  });

  it('reads enum and set labels with quotes and backslashes', () => {
    assert.deepEqual(enumLabels("enum('a','it''s','b\\\\c','')"), ['a', "it's", 'b\\c', '']);
    assert.deepEqual(enumLabels("set('x','y')"), ['x', 'y']);
  });
});

describe('MySQL guard (layer 1)', () => {
  const refused = (sql: string): string => {
    const g = guardMysql(sql);
    assert.equal(g.ok, false, sql);
    return g.ok ? '' : g.reason;
  };

  it('refuses executable comments, hints, variables, INTO, locking reads, HANDLER and denied functions', () => {
    for (const sql of ['SELECT /*!50000 1 */', 'SELECT 1 /*M! , 2 */', 'SELECT /*+ SET_VAR(sql_mode=1) */ 1', "SELECT 'x' /*! , 1 */"]) assert.equal(refused(sql), 'forbidden_clause', sql);
    for (const sql of ['SELECT @a', 'SELECT @@datadir', "SELECT 1 INTO OUTFILE '/tmp/x'", 'SELECT 1 INTO @a', 'SELECT * FROM t FOR UPDATE', 'SELECT * FROM t LOCK IN SHARE MODE']) {
      assert.equal(refused(sql), 'forbidden_clause', sql);
    }
    for (const sql of ["SELECT LOAD_FILE('/etc/passwd')", 'SELECT SLEEP(1)', "SELECT BENCHMARK(10, MD5('a'))", "SELECT GET_LOCK('a', 1)", 'SELECT my_udf(1)']) assert.equal(refused(sql), 'forbidden_function', sql);
    for (const sql of ['HANDLER t OPEN', 'SET @a = 1', 'DELETE FROM t', 'EXPLAIN ANALYZE SELECT 1', 'SHOW TABLES', 'DO 1']) assert.ok(['not_read_only', 'forbidden_clause'].includes(refused(sql)), sql);
    assert.equal(refused('SELECT 1; SELECT 2'), 'multiple_statements');
  });

  it('lexes like MySQL: `--` needs a space, # is a comment, backslashes escape quotes', () => {
    assert.ok(guardMysql('SELECT 1--1').ok);
    assert.equal(refused('SELECT 1 # x\n; DROP TABLE t'), 'multiple_statements');
    const g = guardMysql("SELECT 'a\\' ; DROP TABLE t -- '");
    assert.ok(g.ok, 'the ; sits inside the string for a server without NO_BACKSLASH_ESCAPES (which the executor removes)');
    assert.equal(pinnedSqlMode('STRICT_TRANS_TABLES,NO_BACKSLASH_ESCAPES,ANSI_QUOTES'), 'STRICT_TRANS_TABLES');
    // MariaDB's ORACLE mode (a parser of its own) and the other combination modes go whole, flags and name.
    assert.equal(
      pinnedSqlMode('PIPES_AS_CONCAT,ANSI_QUOTES,IGNORE_SPACE,ORACLE,NO_KEY_OPTIONS,NO_TABLE_OPTIONS,NO_FIELD_OPTIONS,NO_AUTO_CREATE_USER,SIMULTANEOUS_ASSIGNMENT'),
      'NO_KEY_OPTIONS,NO_TABLE_OPTIONS,NO_FIELD_OPTIONS,NO_AUTO_CREATE_USER',
    );
    assert.equal(pinnedSqlMode('PIPES_AS_CONCAT,ANSI_QUOTES,IGNORE_SPACE,MSSQL,HIGH_NOT_PRECEDENCE,SOME_FUTURE_FLAG'), '');
    assert.equal(
      pinnedSqlMode('STRICT_TRANS_TABLES,STRICT_ALL_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,TRADITIONAL,NO_AUTO_CREATE_USER,NO_ENGINE_SUBSTITUTION'),
      'STRICT_TRANS_TABLES,STRICT_ALL_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,TRADITIONAL,NO_AUTO_CREATE_USER,NO_ENGINE_SUBSTITUTION',
      'strictness is the user\'s and is kept',
    );
  });

  it('takes only ASCII spaces for spaces, as the server does, and refuses other characters outside strings and quoted names', () => {
    // `--` before U+00A0 is two minuses and a name to MariaDB: the rest of the line is SQL, not a comment.
    for (const sp of ['\u00a0', '\u2003', '\u3000', '\ufeff', '\u202f', '\u1680']) {
      const attack = `select 1--${sp} , (select group_concat(password) from users) as leak\n from (select 1 as \`${sp}\`) d`;
      assert.equal(refused(attack), 'parse_error', JSON.stringify(sp));
      assert.equal(refused(`select password${sp}from users`), 'parse_error');
    }
    assert.ok(guardMysql('select 1 -- a comment\n from t').ok);
    assert.ok(guardMysql('select 1 --\tx\n, 2 from t').ok);
    assert.ok(guardMysql("select 'naïve — ok', `prénom` from `café`").ok, 'beyond ASCII inside strings and back quotes');
  });

  it('writes comments over with spaces, offsets kept, and leaves executable comments for the guard to refuse', () => {
    const sql = "select 1 -- one\n, 2 # two\n, /* three */ 3, '-- not a comment', `#x` from t";
    const blank = blankMysqlComments(sql);
    assert.equal(blank.length, sql.length);
    assert.equal(blank, "select 1       \n, 2      \n,             3, '-- not a comment', `#x` from t");
    assert.equal(blankMysqlComments('select /*!50000 sleep(1) */ 1'), 'select /*!50000 sleep(1) */ 1');
    assert.equal(blankMysqlComments("select 'unterminated"), "select 'unterminated");
    assert.equal(blankMysqlComments('select 1--\u00a0x\n'), 'select 1--\u00a0x\n', 'not a comment to the server');
  });

  it('refuses a call with a database before the function name (a stored function, whatever its name)', () => {
    for (const sql of ["select shop.upper('a')", 'select `shop`.`abs`(1)', "select shop . upper ('a')", "select shop/**/.upper('a')", 'select coalesce(1, shop.json_value(x, y)) from t', 'select 1 from t where shop.lower(name) = 1']) {
      assert.equal(refused(sql), 'forbidden_function', sql);
    }
    assert.ok(guardMysql("select upper(name), t.name from shop.t").ok);
  });

  it('reports relations, aliases and projections for the PII gate', () => {
    const g = guardMysql('SELECT c.`Email`, COUNT(*) AS n, MAX(c.Phone) FROM shop.`Customer` AS c GROUP BY c.Email');
    assert.ok(g.ok);
    if (!g.ok) return;
    assert.deepEqual(g.tables, ['shop.Customer']);
    assert.deepEqual(g.aliases, { c: 'shop.Customer' });
    assert.deepEqual(
      g.projections.map((p) => [p.sourceColumns, p.aggregated, p.aggregateFunctions]),
      [[['c.Email'], false, []], [[], true, ['count']], [['c.Phone'], true, ['max']]],
    );
  });

  it('rewrites standard quoted identifiers for MySQL without touching strings', () => {
    assert.equal(ansiQuotesToBackticks(`SELECT "a""b", 'x"y' FROM "s"."t"`), "SELECT `a\"b`, 'x\"y' FROM `s`.`t`");
  });
});

describe('MySQL masking at the source', () => {
  const resolve = (schema: string | null, table: string): RelationLookup => {
    if (table.toLowerCase() === 'customer' && (schema === null || schema === 'shop')) {
      return { kind: 'masked', schema: 'shop', table: 'customer', columns: [{ name: 'id', type: 'int', masked: false }, { name: 'email', type: 'varchar(60)', masked: true }] };
    }
    if (table === 'orders') return { kind: 'plain' };
    return { kind: 'unknown' };
  };

  it('replaces every reference with a derived table that reads NULL for blocked columns', () => {
    const m = maskMysql('SELECT c.*, o.id FROM customer c JOIN orders o ON o.cid = c.id WHERE c.id IN (SELECT id FROM shop.customer)', resolve);
    assert.ok(m.ok, JSON.stringify(m));
    if (!m.ok) return;
    assert.equal(m.sql, 'SELECT c.*, o.id FROM (SELECT `id`, NULL AS `email` FROM `shop`.`customer`) AS `c` JOIN orders o ON o.cid = c.id WHERE c.id IN (SELECT id FROM (SELECT `id`, NULL AS `email` FROM `shop`.`customer`) AS `customer`)');
    assert.deepEqual(m.maskedColumns, ['shop.customer.email']);
    assert.ok(guardMysql(m.sql).ok);
  });

  it('refuses what it cannot rewrite and relations it does not know', () => {
    const p = maskMysql('SELECT * FROM customer PARTITION (p0)', resolve);
    assert.ok(!p.ok);
    const u = maskMysql('SELECT * FROM secret_table', resolve);
    assert.ok(!u.ok && u.reason === 'unknown_relation');
    const q = maskMysql('SELECT shop.customer.email FROM shop.customer', resolve);
    assert.ok(!q.ok);
  });
});

describe('MySQL time buckets', () => {
  it('uses DATE, WEEKDAY and MAKEDATE instead of date_trunc', () => {
    assert.equal(bucketSql('mysql', 'timestamp', 'day', '`d`'), 'DATE(`d`)');
    assert.match(bucketSql('mysql', 'timestamp', 'week', '`d`'), /WEEKDAY\(`d`\)/);
    assert.match(bucketSql('mysql', 'date', 'quarter', '`d`'), /MAKEDATE\(YEAR\(`d`\), 1\)/);
    for (const g of ['day', 'week', 'month', 'quarter', 'year'] as const) assert.ok(guardMysql(`SELECT ${bucketSql('mysql', 'timestamp', g, '`d`')} FROM t`).ok, g);
  });
});

describe('MySQL masking: shapes the token scan must not miss', () => {
  const resolve = (schema: string | null, table: string): RelationLookup =>
    table.toLowerCase() === 'customer' && schema !== 'other'
      ? { kind: 'masked', schema: 'shop', table: 'customer', columns: [{ name: 'id', type: 'int', masked: false }, { name: 'email', type: 'varchar(60)', masked: true }] }
      : table === 'orders'
        ? { kind: 'plain' }
        : { kind: 'unknown' };
  for (const sql of [
    'SELECT c.email FROM (customer c JOIN orders o ON o.cid = c.id)',
    'SELECT x.email FROM orders o JOIN (customer x) ON x.id = o.cid',
    'SELECT a.email FROM customer a, (customer b JOIN orders o ON o.cid = b.id)',
    'SELECT email FROM orders, customer',
    'SELECT email FROM customer UNION SELECT email FROM customer',
    'WITH k AS (SELECT email FROM customer) SELECT * FROM k',
    'SELECT (SELECT MAX(email) FROM customer) AS m',
  ]) {
    it(`masks or refuses: ${sql}`, () => {
      const m = maskMysql(sql, resolve);
      if (!m.ok) return;
      // every reference to shop.customer now reads NULL for email
      const g = guardMysql(m.sql);
      assert.ok(g.ok, m.sql);
      const refs = (m.sql.match(/\bcustomer\b/gi) ?? []).length;
      const derived = (m.sql.match(/NULL AS `email` FROM `shop`.`customer`/g) ?? []).length;
      assert.equal(refs, derived + (m.sql.match(/AS `customer`/g) ?? []).length, m.sql);
    });
  }
});
