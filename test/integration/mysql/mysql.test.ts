import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { Connection, RowDataPacket } from 'mysql2/promise';
import { EnvelopeSchema } from '../../../src/core/envelope';
import { createPolicy } from '../../../src/core/pii/policy';
import { createPiiGate } from '../../../src/server/pii-gate';
import { createIntrospector, parseSourceSpec } from '../../../src/core/sources';
import type { TableInfo } from '../../../src/core/catalog/model';
import { indexInto, startHarness, tempDir } from '../../support/server-harness';
import type { Harness } from '../../support/server-harness';
import { CHINOOK_DB, connectAdmin, loadChinook, loadSqliteSample, SAKILA_DB, sakilaSqlite, loadTypesFixture, MARIADB_URL, mariadbUnavailable, MYSQL8_URL, REPO_ROOT, TYPES_DB, urlFor } from './support/mariadb';

/**
 * MySQL/MariaDB end to end against the real server: index with the real introspector, then every tool through the
 * MCP client. MariaDB 10.11 runs here; a MySQL 8 server is used only when SCHEMABRAIN_TEST_MYSQL_URL names one.
 */

type Env = { status: string; data: Record<string, unknown> & { rows?: unknown[][] }; error: { kind: string; message: string } | null; degradation?: unknown };

describe('MySQL/MariaDB sources (real MariaDB)', function () {
  this.timeout(300_000);
  let h: Harness;
  let admin: Connection;
  let dir: string;
  let tables: Map<string, TableInfo>;

  const call = async (name: string, args: Record<string, unknown>): Promise<Env> => {
    const env = await h.call(name, args);
    assert.ok(EnvelopeSchema.safeParse(env).success, JSON.stringify(env).slice(0, 300));
    return env as unknown as Env;
  };
  const sql = async (text: string): Promise<unknown[][]> => {
    const [rows] = await admin.query<RowDataPacket[]>({ sql: text, rowsAsArray: true });
    return rows as unknown as unknown[][];
  };

  before(async function () {
    const why = await mariadbUnavailable();
    if (why) {
      console.warn(`  skipped: ${why}`);
      this.skip();
    }
    await loadChinook();
    await loadTypesFixture();
    admin = await connectAdmin();
    const r = await createIntrospector(parseSourceSpec(urlFor(MARIADB_URL, TYPES_DB))).introspect();
    tables = new Map(r.snapshot.tables.map((t) => [t.name, t]));
    dir = tempDir('sb-mysql-');
    const ws = path.join(dir, 'ws', '.schemabrain');
    fs.mkdirSync(ws, { recursive: true });
    // The Chinook metric definitions, pointed at the MySQL database instead of SQLite's `main`.
    for (const f of ['entities.yaml', 'joins.yaml', 'metrics.yaml']) {
      const text = fs.readFileSync(path.join(REPO_ROOT, 'test', 'fixtures', 'semantic', 'chinook', f), 'utf8');
      fs.writeFileSync(path.join(ws, f), text.replace(/\bmain\./g, `${CHINOOK_DB}.`));
    }
    const catalog = path.join(dir, 'catalog.sqlite');
    // Relations the drift test changes after the index.
    await admin.query(`CREATE TABLE ${TYPES_DB}.drift_plain (id INT PRIMARY KEY, label VARCHAR(20))`);
    await admin.query(`CREATE TABLE ${TYPES_DB}.drift_plain2 (id INT PRIMARY KEY, label VARCHAR(20))`);
    await admin.query(`CREATE VIEW ${TYPES_DB}.drift_view AS SELECT id, label FROM ${TYPES_DB}.drift_plain`);
    await admin.query(`CREATE VIEW ${TYPES_DB}.drift_outer AS SELECT id, label FROM ${TYPES_DB}.drift_view`);
    await indexInto(catalog, urlFor(MARIADB_URL, CHINOOK_DB), 'chinook');
    await indexInto(catalog, urlFor(MARIADB_URL, TYPES_DB), 'types');
    // contact details (e-mail) blocked on top of the floor, so masking has something to mask
    h = await startHarness({ catalogPath: catalog, deps: { workspaceDir: path.join(dir, 'ws'), pii: createPiiGate(createPolicy({ block: ['contact'] })) } });
  });
  after(async () => {
    await h?.close();
    await admin?.end();
  });

  describe('indexing', () => {
    it('reads full column types: unsigned, enum and set labels, collations, JSON, generated columns, defaults', () => {
      const a = tables.get('account')!;
      const col = (n: string) => a.columns.find((c) => c.name === n)!;
      assert.match(col('id').dataType, /^int(\(10\))? unsigned$/);
      assert.equal(col('id').isIdentity, true);
      assert.deepEqual(col('status').enumLabels, ['active', 'suspended', 'closed']);
      assert.deepEqual(col('flags').enumLabels, ['beta', 'staff', 'vip']);
      assert.match(col('score').dataType, /^decimal\(6,2\) unsigned$/);
      assert.match(col('handle').dataType, /COLLATE utf8mb4_bin$/);
      assert.equal(col('prefs').dataType, 'json');
      assert.equal(col('balance').isGenerated, true);
      assert.match(col('balance').defaultExpr ?? '', /GENERATED ALWAYS AS \(`balance_cents` \/ 100\) VIRTUAL/);
      assert.equal(col('status').defaultExpr, "'active'");
      assert.equal(col('phone').isNullable, true);
      assert.equal(col('email').isNullable, false);
    });

    it('reads comments, keys, composite and self-referencing foreign keys with their actions, checks and indexes', () => {
      const a = tables.get('account')!;
      assert.equal(a.comment, 'Customer accounts');
      assert.equal(a.columns.find((c) => c.name === 'id')!.comment, 'surrogate key');
      assert.deepEqual(a.primaryKey?.columns, ['id']);
      assert.deepEqual(a.uniqueConstraints.map((u) => [u.name, u.columns]), [['uq_account_email', ['email']]]);
      assert.deepEqual(a.checkConstraints.map((c) => c.name), ['ck_score'], 'the json_valid check behind the JSON column is not a business rule');
      const ix = new Map(a.indexes.map((i) => [i.name, i]));
      assert.deepEqual(ix.get('ix_handle_prefix')?.columns, ['handle(8)']);
      assert.equal(ix.get('ft_email')?.method, 'fulltext');
      const team = tables.get('team')!;
      assert.deepEqual(team.foreignKeys, [
        { name: 'fk_team_parent', columns: ['org_id', 'parent_team_id'], targetSchema: TYPES_DB, targetTable: 'team', targetColumns: ['org_id', 'team_id'], onDelete: 'CASCADE', onUpdate: 'RESTRICT' },
      ]);
      const m = tables.get('membership')!;
      assert.deepEqual(m.foreignKeys.map((f) => [f.name, f.columns, f.targetTable, f.onDelete]).sort(), [
        ['fk_membership_account', ['account_id'], 'account', 'CASCADE'],
        ['fk_membership_team', ['org_id', 'team_id'], 'team', 'RESTRICT'],
      ]);
    });

    it('folds partitions into their table and reads views with their definition', () => {
      const e = tables.get('event_log')!;
      assert.equal(e.kind, 'partitioned_table');
      assert.deepEqual(e.partitions, [`${TYPES_DB}.event_log#p2023`, `${TYPES_DB}.event_log#p2024`, `${TYPES_DB}.event_log#pmax`]);
      assert.ok(![...tables.keys()].some((n) => n.includes('#')));
      const v = tables.get('active_account')!;
      assert.equal(v.kind, 'view');
      assert.match(v.viewDefinition ?? '', /where .*status.* = 'active'/i);
      assert.equal(v.rowEstimate, null);
    });

    it('keeps the structure digest while only data changes, and changes it with DDL', async () => {
      const intro = () => createIntrospector(parseSourceSpec(urlFor(MARIADB_URL, TYPES_DB)));
      const d1 = await intro().structureDigest();
      await sql(`INSERT INTO ${TYPES_DB}.event_log VALUES (99, '2024-06-01', 'noise')`);
      assert.equal(await intro().structureDigest(), d1, 'an INSERT is not a structure change');
      await sql(`ALTER TABLE ${TYPES_DB}.event_log COMMENT = 'changed'`);
      assert.notEqual(await intro().structureDigest(), d1);
      await sql(`ALTER TABLE ${TYPES_DB}.event_log COMMENT = ''`);
      await sql(`DELETE FROM ${TYPES_DB}.event_log WHERE id = 99`);
    });

    it('refuses a wrong password with a typed error that does not echo it', async () => {
      const spec = parseSourceSpec(`mysql://root:s3cr3t-pw@127.0.0.1:3306/${TYPES_DB}`);
      assert.ok(!JSON.stringify(spec).includes('s3cr3t-pw'));
      assert.equal(spec.locator, `mysql://127.0.0.1:3306/${TYPES_DB}`);
      await assert.rejects(createIntrospector(spec).introspect(), (e: Error & { code?: string }) => {
        assert.equal(e.code, 'auth_failed');
        assert.ok(!e.message.includes('s3cr3t-pw'));
        return true;
      });
    });

    it('indexes Sakila built from the shared SQLite sample (keys, foreign keys, row estimates)', async function () {
      const file = sakilaSqlite();
      if (!file) {
        console.warn('  skipped: ../shared/data/sakila-sqlite/sakila.db is absent (set SCHEMABRAIN_SHARED_DATA)');
        this.skip();
      }
      await loadSqliteSample(file!, SAKILA_DB);
      const r = await createIntrospector(parseSourceSpec(urlFor(MARIADB_URL, SAKILA_DB))).introspect({ sampleRows: 10 });
      const film = r.snapshot.tables.find((t) => t.name === 'film')!;
      assert.deepEqual(film.primaryKey?.columns, ['film_id']);
      assert.ok(film.foreignKeys.some((f) => f.targetTable === 'language'));
      assert.ok((film.rowEstimate ?? 0) > 500, `row estimate ${film.rowEstimate}`);
      const [[n]] = await sql(`SELECT COUNT(*) FROM ${SAKILA_DB}.film`);
      assert.equal(Number(n), 1000);
      // Small tables are read whole for their labels; the PII sample stays at the rows asked for.
      const category = r.codeValues?.get(`${SAKILA_DB}.category`)?.get('name') ?? [];
      assert.equal(category.length, 16, category.join(', '));
      assert.ok(category.includes('Documentary'));
      assert.equal(r.codeValues?.get(`${SAKILA_DB}.film`), undefined, 'a table of 1,000 rows is no code list');
      assert.ok([...r.samples.values()].every((cols) => [...cols.values()].every((v) => v.length <= 10)));
    });

    it('MySQL 8 specifics (CHECK_CONSTRAINTS via TABLE_CONSTRAINTS, native JSON, functional indexes)', async function () {
      if (!MYSQL8_URL) {
        console.warn('  skipped: no MySQL 8 server (set SCHEMABRAIN_TEST_MYSQL_URL to run the MySQL-specific cases)');
        this.skip();
      }
      const db = await loadTypesFixture(MYSQL8_URL!);
      const r = await createIntrospector(parseSourceSpec(urlFor(MYSQL8_URL!, db))).introspect();
      const a = r.snapshot.tables.find((t) => t.name === 'account')!;
      assert.equal(a.columns.find((c) => c.name === 'prefs')!.dataType, 'json');
      assert.deepEqual(a.checkConstraints.map((c) => c.name), ['ck_score']);
    });
  });

  describe('tools through the MCP client', () => {
    it('list_indexed_schemas, find_relevant_tables, describe_table and describe_column answer for MySQL sources', async () => {
      const ls = await call('list_indexed_schemas', {});
      assert.equal(ls.status, 'success');
      assert.match(JSON.stringify(ls.data), /sb_mysql_chinook/);
      const f = await call('find_relevant_tables', { query: 'invoice lines sold tracks', source: 'chinook' });
      assert.equal(f.status, 'success');
      assert.match(JSON.stringify(f.data), /InvoiceLine/);
      const d = await call('describe_table', { qualified_name: `${TYPES_DB}.account`, source: 'types' });
      assert.equal(d.status, 'success', JSON.stringify(d).slice(0, 400));
      assert.match(JSON.stringify(d.data), /suspended/);
      const c = await call('describe_column', { qualified_name: `${TYPES_DB}.account.status`, source: 'types' });
      assert.equal(c.status, 'success', JSON.stringify(c).slice(0, 400));
    });

    it('suggest_joins finds the composite foreign key path', async () => {
      const s = await call('suggest_joins', { tables: [`${TYPES_DB}.membership`, `${TYPES_DB}.team`], source: 'types' });
      assert.equal(s.status, 'success', JSON.stringify(s).slice(0, 400));
      assert.match(JSON.stringify(s.data), /org_id/);
      assert.match(JSON.stringify(s.data), /team_id/);
    });

    it('run_query returns rows with backtick identifiers, caps rows (partial), and masks PII columns at the source', async () => {
      const r = await call('run_query', { source: 'chinook', sql: 'SELECT `GenreId`, COUNT(*) AS n FROM Track GROUP BY `GenreId` ORDER BY n DESC, `GenreId`' });
      assert.equal(r.status, 'success', JSON.stringify(r).slice(0, 400));
      const expected = await sql(`SELECT GenreId, COUNT(*) AS n FROM ${CHINOOK_DB}.Track GROUP BY GenreId ORDER BY n DESC, GenreId`);
      assert.deepEqual(r.data.rows!.map((x) => x.map(String)), expected.map((x) => x.map(String)));
      const capped = await call('run_query', { source: 'chinook', sql: 'SELECT TrackId FROM Track', max_rows: 5 });
      assert.equal(capped.status, 'partial');
      assert.equal(capped.data.rows!.length, 5);
      assert.equal(capped.data.truncated, true);
      // Customer.Email is PII: `*` is answered with it read as NULL at the source
      const star = await call('run_query', { source: 'chinook', sql: 'SELECT c.* FROM Customer c WHERE c.CustomerId = 1' });
      assert.ok(['degraded', 'success'].includes(star.status), JSON.stringify(star).slice(0, 400));
      const cols = (star.data.columns as Array<{ name: string }>).map((c) => c.name);
      const emailAt = cols.indexOf('Email');
      assert.ok(emailAt >= 0);
      assert.equal(star.data.rows![0]![emailAt], null);
      assert.ok(!JSON.stringify(star).includes('@'), 'no e-mail address leaves the server');
      const named = await call('run_query', { source: 'chinook', sql: 'SELECT Email FROM Customer' });
      assert.ok(!JSON.stringify(named).includes('@'), JSON.stringify(named).slice(0, 400));
      assert.ok(named.status === 'degraded' || named.error?.kind === 'pii_blocked', JSON.stringify(named).slice(0, 400));
      const sub = await call('run_query', { source: 'chinook', sql: 'SELECT x.e FROM (SELECT Email AS e FROM Customer) x LIMIT 3' });
      assert.ok(!JSON.stringify(sub).includes('@'), JSON.stringify(sub).slice(0, 400));
    });

    it('run_query refuses a WITH query named like a relation (MySQL reads the relation inside the WITH clause)', async () => {
      const shadows = [
        'WITH Customer AS (SELECT * FROM Customer) SELECT Email FROM Customer',
        'WITH Customer AS (SELECT * FROM Customer) SELECT REVERSE(Email) FROM Customer',
        'WITH a AS (SELECT * FROM Customer), Customer AS (SELECT 1 AS x) SELECT Email FROM a',
        'WITH x AS (SELECT 1 AS one), Customer AS (SELECT * FROM Customer) SELECT Email FROM Customer',
        "WITH Customer AS (SELECT CustomerId FROM Customer WHERE Email LIKE 'l%') SELECT CustomerId FROM Customer",
        'WITH customer AS (SELECT CustomerId, Email AS e FROM Customer) SELECT REVERSE(e) FROM customer',
        'WITH Track AS (SELECT * FROM Track) SELECT COUNT(*) FROM Track',
      ];
      for (const q of shadows) {
        const r = await call('run_query', { source: 'chinook', sql: q });
        assert.equal(r.status, 'refused', `${q}: ${JSON.stringify(r).slice(0, 300)}`);
        assert.ok(!JSON.stringify(r).includes('@') && !JSON.stringify(r).includes('moc.'), q);
      }
      // A relation created after the index (a table, a view over a masked table), named by a WITH query that reads it.
      await sql(`CREATE TABLE ${CHINOOK_DB}.LateSecret (id INT, ssn VARCHAR(20))`);
      await sql(`INSERT INTO ${CHINOOK_DB}.LateSecret VALUES (1, '111-22-3333')`);
      await sql(`CREATE VIEW ${CHINOOK_DB}.CustVw AS SELECT * FROM ${CHINOOK_DB}.Customer`);
      try {
        for (const q of [
          'WITH LateSecret AS (SELECT * FROM LateSecret) SELECT id, REPLACE(ssn, "-", "/") FROM LateSecret',
          'WITH CustVw AS (SELECT * FROM CustVw) SELECT REVERSE(Email) FROM CustVw',
          'WITH a AS (SELECT * FROM LateSecret), LateSecret AS (SELECT 1 AS x) SELECT * FROM a',
        ]) {
          const r = await call('run_query', { source: 'chinook', sql: q });
          assert.equal(r.status, 'refused', `${q}: ${JSON.stringify(r).slice(0, 300)}`);
          assert.ok(!/111.22.3333|@|moc\./.test(JSON.stringify(r)), q);
        }
        const recursive = await call('run_query', { source: 'chinook', sql: 'WITH RECURSIVE n AS (SELECT 1 AS i UNION ALL SELECT i + 1 FROM n WHERE i < 3) SELECT COUNT(*) FROM n' });
        assert.ok(['success', 'degraded'].includes(recursive.status), JSON.stringify(recursive).slice(0, 300));
      } finally {
        await sql(`DROP VIEW IF EXISTS ${CHINOOK_DB}.CustVw`);
        await sql(`DROP TABLE IF EXISTS ${CHINOOK_DB}.LateSecret`);
      }
      const fine = await call('run_query', { source: 'chinook', sql: 'WITH c AS (SELECT CustomerId FROM Customer) SELECT COUNT(*) AS n FROM c' });
      assert.ok(['success', 'degraded'].includes(fine.status), JSON.stringify(fine).slice(0, 300));
      assert.equal(Number(fine.data.rows![0]![0]), 59);
    });

    it('run_query refuses a relation changed since the index as schema_drift: a table now a view, a view redefined', async () => {
      await sql(`DROP TABLE ${TYPES_DB}.drift_plain2`);
      await sql(`CREATE VIEW ${TYPES_DB}.drift_plain2 AS SELECT 1 AS id, 'swapped' AS label`);
      await sql(`CREATE OR REPLACE VIEW ${TYPES_DB}.drift_view AS SELECT id, 'redefined' AS label FROM ${TYPES_DB}.drift_plain`);
      for (const q of ['SELECT * FROM drift_plain2', 'SELECT label FROM drift_view', 'SELECT label FROM drift_outer']) {
        const r = await call('run_query', { source: 'types', sql: q });
        assert.equal(r.error?.kind, 'schema_drift', `${q}: ${JSON.stringify(r).slice(0, 300)}`);
        assert.ok(!/swapped|redefined/.test(JSON.stringify(r)), q);
      }
      const ok = await call('run_query', { source: 'types', sql: 'SELECT COUNT(*) FROM drift_plain' });
      assert.ok(['success', 'degraded'].includes(ok.status), JSON.stringify(ok).slice(0, 300));
    });

    it('run_query reads the statement as the guard does whatever character set init_connect gives the session', async function () {
      // With a gbk client character set, the server takes the last byte of 中 and the backslash for one character and
      // ends the string there: the guard sees one literal, the server a second column, Email, and a comment.
      const user = 'sb_gbk_reader';
      const [[prior]] = (await admin.query('SELECT @@GLOBAL.init_connect AS v')) as unknown as [Array<{ v: string | null }>];
      await sql(`DROP USER IF EXISTS '${user}'@'%', '${user}'@'localhost'`);
      for (const host of ['%', 'localhost']) {
        await sql(`CREATE USER '${user}'@'${host}'`);
        await sql(`GRANT SELECT ON ${CHINOOK_DB}.* TO '${user}'@'${host}'`);
      }
      const base = new URL(urlFor(MARIADB_URL, CHINOOK_DB));
      base.username = user;
      base.password = '';
      const gbkDir = tempDir('sb-mysql-gbk-');
      const catalog = path.join(gbkDir, 'catalog.sqlite');
      let gbk: Harness | undefined;
      try {
        await indexInto(catalog, base.toString(), 'gbk');
        gbk = await startHarness({ catalogPath: catalog, deps: { pii: createPiiGate(createPolicy({ block: ['contact'] })) } });
        await sql("SET GLOBAL init_connect = 'SET NAMES gbk'");
        const check = await connectAdmin(base.toString());
        const [[cs]] = (await check.query('SELECT @@character_set_client AS c')) as unknown as [Array<{ c: string }>];
        await check.end();
        if (cs.c !== 'gbk') this.skip(); // init_connect not applied to this user (a server with it disabled)
        const res = await gbk.call('run_query', { source: 'gbk', sql: "SELECT '中\\' , Email FROM Customer -- '" });
        const text = JSON.stringify(res);
        assert.ok(!text.includes('@'), `no e-mail address: ${text.slice(0, 400)}`);
        assert.equal(res.status, 'success', text.slice(0, 400));
        const rows = (res as unknown as Env).data.rows!;
        assert.equal(rows.length, 1, 'one row: no relation read, as the guard parsed it');
        assert.equal(rows[0]![0], "中' , Email FROM Customer -- ");
      } finally {
        await admin.query('SET GLOBAL init_connect = ?', [prior?.v ?? '']);
        await gbk?.close();
        await sql(`DROP USER IF EXISTS '${user}'@'%', '${user}'@'localhost'`);
      }
    });

    it('run_query: no text hidden from the guard by a Unicode space, no stored function under a built-in name', async () => {
      const nb = '\u00a0';
      const hidden = `select 1--${nb} , (select group_concat(Email) from Customer) as leak\n from (select 1 as \`${nb}\`) d`;
      await sql(`CREATE FUNCTION ${CHINOOK_DB}.\`upper\`(x TEXT) RETURNS TEXT READS SQL DATA RETURN (SELECT GROUP_CONCAT(Email) FROM ${CHINOOK_DB}.Customer)`);
      // A name on the allow-list that MariaDB has no built-in for: called bare, the server runs the stored function.
      await sql(`CREATE FUNCTION ${CHINOOK_DB}.regexp_like(i INT) RETURNS TEXT READS SQL DATA RETURN (SELECT GROUP_CONCAT(Email) FROM ${CHINOOK_DB}.Customer)`);
      try {
        for (const q of [hidden, `select ${CHINOOK_DB}.upper('a')`, `select \`${CHINOOK_DB}\` . \`upper\` ('a') from Genre`, 'SELECT GenreId, REGEXP_LIKE(GenreId) AS x FROM Genre']) {
          const r = await call('run_query', { source: 'chinook', sql: q });
          assert.equal(r.status, 'refused', `${JSON.stringify(q)}: ${JSON.stringify(r).slice(0, 300)}`);
          assert.ok(!JSON.stringify(r).includes('@'), q);
        }
        // A comment the server reads as one is still a comment, and is not sent.
        const ok = await call('run_query', { source: 'chinook', sql: 'select count(*) -- how many\n from Genre # all of them' });
        assert.equal(ok.status, 'success', JSON.stringify(ok).slice(0, 300));
        assert.equal(Number(ok.data.rows![0]![0]), 25);
      } finally {
        await sql(`DROP FUNCTION IF EXISTS ${CHINOOK_DB}.\`upper\``);
        await sql(`DROP FUNCTION IF EXISTS ${CHINOOK_DB}.regexp_like`);
      }
    });

    it('run_query refuses MySQL escapes before they reach the server', async () => {
      for (const q of ["SELECT * FROM Track INTO OUTFILE '/tmp/sb_x'", 'SELECT /*!50000 SLEEP(3) */ 1', 'SELECT SLEEP(3)', 'SELECT @x := 1', 'HANDLER Track OPEN']) {
        const r = await call('run_query', { source: 'chinook', sql: q });
        assert.equal(r.status, 'refused', q);
        assert.equal(r.error?.kind, 'policy_blocked', q);
      }
    });

    it('profile_table samples a MySQL table with bounded reads', async () => {
      const p = await call('profile_table', { qualified_name: `${CHINOOK_DB}.Track`, source: 'chinook', sample_rows: 200 });
      assert.ok(['success', 'partial'].includes(p.status), JSON.stringify(p).slice(0, 600));
      assert.match(JSON.stringify(p.data), /Milliseconds/);
    });

    it('get_index_status and get_example_queries answer (performance_schema may be off)', async () => {
      const s = await call('get_index_status', { source: 'chinook' });
      assert.equal(s.status, 'success');
      assert.match(JSON.stringify(s.data), /mysql/);
      const e = await call('get_example_queries', { source: 'chinook', qualified_name: `${CHINOOK_DB}.Invoice` });
      assert.ok(['success', 'empty', 'degraded', 'error'].includes(e.status));
      if (e.status === 'error') assert.notEqual(e.error?.kind, 'internal_error', JSON.stringify(e));
    });

    it('get_metric equals hand-written SQL: fan-out-safe totals per genre and monthly buckets', async () => {
      const g = await call('get_metric', { name: 'invoice_total', group_by: ['genre.Name'], source: 'chinook', limit: 100 });
      assert.ok(['success', 'partial', 'degraded'].includes(g.status), JSON.stringify(g).slice(0, 600));
      const expected = await sql(`
        SELECT g.Name, SUM(i.Total) FROM ${CHINOOK_DB}.Invoice i
        JOIN (SELECT DISTINCT il.InvoiceId, t.GenreId FROM ${CHINOOK_DB}.InvoiceLine il JOIN ${CHINOOK_DB}.Track t ON t.TrackId = il.TrackId) x ON x.InvoiceId = i.InvoiceId
        JOIN ${CHINOOK_DB}.Genre g ON g.GenreId = x.GenreId GROUP BY g.Name`);
      const canon = (rows: unknown[][]) => rows.map((r) => `${String(r[0])}=${Number(r[1]).toFixed(2)}`).sort();
      assert.deepEqual(canon(g.data.rows!), canon(expected));
      const m = await call('get_metric', { name: 'invoice_total', time_grain: 'month', source: 'chinook', limit: 1000 });
      assert.ok(['success', 'partial', 'degraded'].includes(m.status), JSON.stringify(m).slice(0, 600));
      const monthly = await sql(`SELECT DATE_FORMAT(InvoiceDate, '%Y-%m-01'), SUM(Total) FROM ${CHINOOK_DB}.Invoice GROUP BY 1`);
      assert.deepEqual(canon(m.data.rows!), canon(monthly));
    });
  });
});
