import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { Connection, RowDataPacket } from 'mysql2/promise';
import { loadSqlGuard, type SqlGuard } from '../../../src/core/sql';
import { mysqlConnectionOptions } from '../../../src/core/sql/mysql-driver';
import { executeReadOnlyMysql, runReadOnlyMysql, type MysqlExecTarget } from '../../../src/core/sql/mysql-exec';
import { parseSourceSpec, type MysqlSourceSpec } from '../../../src/core/sources';
import { CHINOOK_DB, checksumTables, connectAdmin, loadChinook, MARIADB_URL, mariadbUnavailable, urlFor } from './support/mariadb';

/**
 * MySQL-specific escapes through all three layers against the real server: every statement must be refused or fail,
 * no table may change (CHECKSUM TABLE before/after), and no file may appear where INTO OUTFILE/DUMPFILE would write
 * (this MariaDB has secure_file_priv unset, so the server could write anywhere its user can). Then a benign
 * analytics corpus that must pass with at most 1 % refusals.
 */

const MARK = `sb_mysql_attack_${process.pid}`;
const OUT_DIRS = ['/tmp', '/var/lib/mysql', `/var/lib/mysql/${CHINOOK_DB}`];

const ATTACKS: readonly string[] = [
  // files
  `SELECT * FROM Artist INTO OUTFILE '/tmp/${MARK}_1'`,
  `SELECT Name FROM Artist LIMIT 1 INTO DUMPFILE '/tmp/${MARK}_2'`,
  `SELECT * INTO OUTFILE '/tmp/${MARK}_3' FROM Artist`,
  `SELECT Name FROM Artist INTO OUTFILE '${MARK}_4'`,
  `SELECT LOAD_FILE('/etc/passwd')`,
  `SELECT load_file(0x2f6574632f706173737764)`,
  `(SELECT 1) UNION (SELECT LOAD_FILE('/etc/hostname'))`,
  `SELECT 1 FROM Artist WHERE 1 = 1 INTO OUTFILE '/tmp/${MARK}_5'`,
  // executable comments and hints
  `SELECT /*!50000 1 INTO OUTFILE '/tmp/${MARK}_6' */ 1`,
  `SELECT 1 /*! ; DROP TABLE Artist */`,
  `SELECT 1 /*M! , SLEEP(2) */`,
  `SELECT /*!99999 SLEEP(2) */ 1`,
  `SELECT /*+ SET_VAR(sql_mode='') */ 1`,
  `/*!40101 SET @x = 1 */ SELECT 1`,
  `SELECT 'a' /*!, (SELECT LOAD_FILE('/etc/passwd')) */`,
  // variables
  `SELECT @x := 1`,
  `SELECT @x := Name FROM Artist LIMIT 1`,
  `SELECT 1 INTO @x`,
  `SELECT Name INTO @n FROM Artist LIMIT 1`,
  `SELECT @@secure_file_priv`,
  `SELECT @@GLOBAL.datadir`,
  `SET @a = 1`,
  `SET SESSION sql_mode = 'NO_BACKSLASH_ESCAPES'`,
  `SET GLOBAL max_connections = 1`,
  `SET STATEMENT max_statement_time=100 FOR SELECT 1`,
  // stalls
  `SELECT SLEEP(5)`,
  `SELECT BENCHMARK(100000000, MD5('x'))`,
  `SELECT * FROM Artist WHERE SLEEP(1) = 0`,
  `SELECT (SELECT SLEEP(3))`,
  `SELECT GET_LOCK('sb', 10)`,
  `SELECT RELEASE_LOCK('sb')`,
  `SELECT IS_FREE_LOCK('sb')`,
  `SELECT MASTER_POS_WAIT('log', 4)`,
  // HANDLER, locking reads
  `HANDLER Artist OPEN`,
  `HANDLER Artist READ FIRST`,
  `SELECT * FROM Artist FOR UPDATE`,
  `SELECT * FROM Artist LOCK IN SHARE MODE`,
  `SELECT * FROM Artist FOR SHARE`,
  `SELECT * FROM Artist FOR UPDATE SKIP LOCKED`,
  `SELECT * FROM Artist WHERE ArtistId IN (SELECT ArtistId FROM Album FOR UPDATE)`,
  `LOCK TABLES Artist READ`,
  // multi statements, writes, DDL
  `SELECT 1; DROP TABLE Artist`,
  `SELECT 1; DELETE FROM Artist`,
  `SELECT 1;; UPDATE Artist SET Name = 'x'`,
  `INSERT INTO Artist (Name) VALUES ('x')`,
  `REPLACE INTO Artist VALUES (1, 'x')`,
  `UPDATE Artist SET Name = 'x' WHERE ArtistId = 1`,
  `DELETE FROM Artist WHERE ArtistId = 1`,
  `TRUNCATE TABLE Artist`,
  `DROP TABLE Artist`,
  `CREATE TABLE sb_evil (x INT)`,
  `CREATE TEMPORARY TABLE sb_evil AS SELECT * FROM Artist`,
  `ALTER TABLE Artist ADD COLUMN evil INT`,
  `RENAME TABLE Artist TO Artist2`,
  `GRANT ALL ON *.* TO 'x'@'%'`,
  `CREATE USER evil IDENTIFIED BY 'x'`,
  `LOAD DATA INFILE '/etc/passwd' INTO TABLE Artist`,
  `LOAD DATA LOCAL INFILE '/etc/passwd' INTO TABLE Artist`,
  `CALL mysql.some_proc()`,
  `DO SLEEP(2)`,
  `SHOW GRANTS`,
  `PREPARE s FROM 'DROP TABLE Artist'`,
  `EXECUTE s`,
  `FLUSH TABLES`,
  `KILL 1`,
  `INSTALL PLUGIN x SONAME 'x.so'`,
  `SELECT sys_exec('touch /tmp/${MARK}_7')`,
  `EXPLAIN ANALYZE SELECT * FROM Artist`,
  `ANALYZE SELECT * FROM Artist`,
  `WITH x AS (SELECT 1) DELETE FROM Artist`,
  `SELECT 1 UNION SELECT 2 INTO OUTFILE '/tmp/${MARK}_8'`,
  // string-lexing confusion (backslashes, quotes, comments)
  `SELECT 'a\\' , LOAD_FILE('/etc/passwd') -- '`,
  `SELECT "a\\" , SLEEP(2) -- "`,
  `SELECT 1 -- \n; DROP TABLE Artist`,
  `SELECT 1 # comment \n; DROP TABLE Artist`,
  `SELECT 1 /* ; */ ; DROP TABLE Artist`,
  `SELECT \`a\`\`; DROP TABLE Artist\` FROM Artist`,
  `SELECT N'x', _utf8mb4'x' ; DROP TABLE Artist`,
  // a space the server takes for part of a name (only ASCII spaces are spaces to MySQL/MariaDB), after `--` or alone
  `SELECT 1--\u00a0 , SLEEP(2)\n FROM (SELECT 1 AS \`\u00a0\`) d`,
  `SELECT 1--\u3000 , LOAD_FILE('/etc/passwd')\n FROM (SELECT 1 AS \`\u3000\`) d`,
  `SELECT 1--\u200b , SLEEP(2)`,
  `SELECT\u00a0SLEEP(2)`,
  `SELECT 1 --\u2003; DROP TABLE Artist`,
  // a function with a database before it is a stored one, whatever its name
  `SELECT ${CHINOOK_DB}.upper('a')`,
  'SELECT `mysql` . `abs` (1)',
  `SELECT mysql/**/.coalesce(1)`,
  // functions outside the allow-list
  `SELECT UUID()`,
  `SELECT CONNECTION_ID()`,
  `SELECT CURRENT_USER()`,
  `SELECT NEXTVAL(seq)`,
  `SELECT LAST_INSERT_ID(5)`,
  `SELECT COLUMN_CREATE('a', 1)`,
  `SELECT mysql.some_fn(1)`,
  // system schemas (allowlist is the tool's job; here the guard or the server answers)
  `SELECT * FROM mysql.user INTO OUTFILE '/tmp/${MARK}_9'`,
  `SELECT CONCAT(User, authentication_string) FROM mysql.user INTO DUMPFILE '/tmp/${MARK}_10'`,
];

describe('MySQL guarded SQL: attack corpus and benign analytics corpus (real MariaDB)', function () {
  this.timeout(300_000);
  let admin: Connection;
  let guard: SqlGuard;
  let target: MysqlExecTarget;

  before(async function () {
    const why = await mariadbUnavailable();
    if (why) {
      console.warn(`  skipped: ${why}`);
      this.skip();
    }
    await loadChinook();
    admin = await connectAdmin();
    guard = await loadSqlGuard();
    target = { options: mysqlConnectionOptions(parseSourceSpec(urlFor(MARIADB_URL, CHINOOK_DB)) as MysqlSourceSpec) };
  });
  after(async () => {
    await admin?.end();
  });

  const filesNow = (): string[] =>
    OUT_DIRS.flatMap((d) => {
      try {
        return fs.readdirSync(d).filter((f) => f.includes(MARK)).map((f) => path.join(d, f));
      } catch {
        return [];
      }
    });

  it(`refuses or fails all ${ATTACKS.length} attacks with 0 writes and 0 files written`, async () => {
    assert.ok(ATTACKS.length >= 80);
    const before = await checksumTables(admin, [CHINOOK_DB]);
    const accepted: string[] = [];
    for (const sql of ATTACKS) {
      const r = await runReadOnlyMysql(target, guard, sql, [], { timeoutMs: 3000, maxRows: 5 });
      // a statement that ran is only acceptable when it is a plain read that returned nothing dangerous
      if (r.ok) accepted.push(`${sql} → ${JSON.stringify(r.result.rows).slice(0, 80)}`);
    }
    const after = await checksumTables(admin, [CHINOOK_DB]);
    assert.deepEqual(filesNow(), [], 'no file written');
    assert.equal(after, before, 'no table changed');
    // the only accepted shapes are the lexing-confusion cases, which the server reads as strings or columns, never as calls
    for (const a of accepted) assert.ok(!/root:|sleep|\bx\b:/.test(a.split('→')[1] ?? ''), a);
    assert.ok(accepted.length <= 2, `accepted: ${accepted.join('\n')}`);
    const [locks] = await admin.query<RowDataPacket[]>(`SELECT IS_USED_LOCK('sb') AS l`);
    assert.equal(locks[0]?.l, null, 'no named lock left behind');
  });

  it('layer 2 alone (no parser) keeps writes out: READ ONLY transaction, one statement per call', async () => {
    const before = await checksumTables(admin, [CHINOOK_DB]);
    const meta = { statementKind: 'select' as const, fingerprint: 'x' };
    const w = await executeReadOnlyMysql(target, `UPDATE Artist SET Name = 'x' WHERE ArtistId = 1`, [], { timeoutMs: 3000 }, meta);
    assert.equal(w.ok, false);
    assert.equal(!w.ok && w.kind, 'read_only_violation');
    const multi = await executeReadOnlyMysql(target, `SELECT 1; DELETE FROM Artist`, [], { timeoutMs: 3000 }, meta);
    assert.equal(multi.ok, false, 'multi-statement strings are refused by the server');
    const slow = await executeReadOnlyMysql(target, `SELECT SLEEP(5)`, [], { timeoutMs: 500 }, meta);
    assert.ok(!slow.ok || Number(slow.result.rows[0]?.[0]) === 1, 'the server stops SLEEP at max_statement_time');
    assert.equal(await checksumTables(admin, [CHINOOK_DB]), before);
  });

  it('session state does not survive a call (fresh connection per statement)', async () => {
    const meta = { statementKind: 'select' as const, fingerprint: 'x' };
    await executeReadOnlyMysql(target, `SELECT GET_LOCK('sb_state', 0)`, [], { timeoutMs: 3000 }, meta);
    await new Promise((r) => setTimeout(r, 200));
    const [locks] = await admin.query<RowDataPacket[]>(`SELECT IS_USED_LOCK('sb_state') AS l`);
    assert.equal(locks[0]?.l, null, 'the named lock ended with the connection');
    const a = await executeReadOnlyMysql(target, `SELECT CONNECTION_ID()`, [], {}, meta);
    const b = await executeReadOnlyMysql(target, `SELECT CONNECTION_ID()`, [], {}, meta);
    assert.ok(a.ok && b.ok);
    assert.notEqual(String(a.result.rows[0]![0]), String(b.result.rows[0]![0]));
  });

  it('the client never offers local files to the server (LOAD DATA LOCAL)', async () => {
    const meta = { statementKind: 'select' as const, fingerprint: 'x' };
    const r = await executeReadOnlyMysql(target, `LOAD DATA LOCAL INFILE '/etc/hostname' INTO TABLE Artist`, [], { timeoutMs: 3000 }, meta);
    assert.equal(r.ok, false);
  });

  it('row and byte caps cut the result and say so', async () => {
    const rows = await runReadOnlyMysql(target, guard, 'SELECT TrackId, Name FROM Track', [], { maxRows: 7 });
    assert.ok(rows.ok);
    assert.equal(rows.result.rowCount, 7);
    assert.equal(rows.result.truncatedBy, 'rows');
    const bytes = await runReadOnlyMysql(target, guard, 'SELECT Name, Composer FROM Track', [], { maxRows: 10000, maxBytes: 2000 });
    assert.ok(bytes.ok);
    assert.equal(bytes.result.truncatedBy, 'bytes');
  });

  it('accepts the benign analytics corpus with at most 1 % refusals, and every accepted query runs', async () => {
    const corpus = JSON.parse(fs.readFileSync(path.join(__dirname, 'support', 'benign-chinook.json'), 'utf8')) as string[];
    assert.ok(corpus.length >= 60);
    const refused: string[] = [];
    const failed: string[] = [];
    for (const sql of corpus) {
      const g = guard.guard(sql, 'mysql');
      if (!g.ok) {
        refused.push(`${g.message} :: ${sql}`);
        continue;
      }
      const r = await runReadOnlyMysql(target, guard, sql, [], { timeoutMs: 10_000, maxRows: 50 });
      if (!r.ok) failed.push(`${r.kind} ${'message' in r ? r.message : ''} :: ${sql}`);
    }
    assert.ok(refused.length <= Math.floor(corpus.length * 0.01), `false refusals ${refused.length}/${corpus.length}:\n${refused.join('\n')}`);
    assert.deepEqual(failed, []);
  });
});
