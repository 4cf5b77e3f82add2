import assert from 'node:assert/strict';
import { Client } from 'pg';
import { loadSqlGuard, type SqlGuard } from '../../../src/core/sql/guard';
import { runReadOnlyPostgres } from '../../../src/core/sql/pg-exec';
import { SourcePool, type SourcePoolOptions } from '../../../src/core/sql/pg-pool';
import { createFunctionPolicy } from '../../../src/core/sql/function-policy';
import { toToolError } from '../../../src/core/sql/errors';
import type { QueryOutcome, QueryResult } from '../../../src/core/sql/types';
import type { Database } from 'sql.js';
import { loadSqlJs } from '../../../src/core/catalog/sqljs';
import { runReadOnlySqlite } from '../../../src/core/sql/sqlite-exec';
import { getTestPostgres, postgresServerAnswers, type TestPostgres } from '../../support/pg';

/**
 * Execution safety against a real PostgreSQL server: the function/view allow-list, session reset between pooled
 * calls, the per-source queue and the per-message byte limit. Objects a DBA left behind (functions with session
 * effects, views over them, a shadowing user function) are created in a database of its own.
 */

const DB = 'sb_sqlexec_safety';

const SETUP = `
DROP SCHEMA IF EXISTS app CASCADE;
CREATE SCHEMA app;
CREATE TABLE app.t (id int PRIMARY KEY, s varchar(20));
INSERT INTO app.t VALUES (1, 'a'), (2, 'b'), (3, 'c');
CREATE OR REPLACE FUNCTION app.grab_lock() RETURNS int LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_advisory_lock(4242777); RETURN 1; END $$;
CREATE OR REPLACE FUNCTION app.state_leak() RETURNS int LANGUAGE plpgsql AS $$
BEGIN
  PERFORM setseed(0.25);
  PERFORM set_config('work_mem', '77MB', false);
  PERFORM pg_advisory_lock(4242778);
  RETURN 1;
END $$;
CREATE OR REPLACE FUNCTION public.upper(varchar) RETURNS text LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_advisory_lock(4242779); RETURN 'shadowed'; END $$;
CREATE VIEW app.v_lock AS SELECT app.grab_lock() AS x;
CREATE VIEW app.v_nested AS SELECT x FROM app.v_lock;
CREATE VIEW app.v_file AS SELECT pg_read_file('PG_VERSION') AS content;
CREATE VIEW app.v_ok AS SELECT id, pg_catalog.upper(s::text) AS s, length(s) AS n FROM app.t;
CREATE MATERIALIZED VIEW app.mv_settings AS SELECT name FROM pg_show_all_settings() LIMIT 1;
`;

function ok(o: QueryOutcome): QueryResult {
  assert.ok(o.ok, o.ok ? '' : o.kind === 'refused' ? o.guard.message : `${o.kind}: ${o.message}`);
  return o.result;
}

function refused(o: QueryOutcome, fragment?: RegExp): void {
  assert.equal(o.ok, false, 'expected a refusal, got rows');
  if (o.ok) return;
  assert.equal(o.kind, 'refused', o.kind === 'refused' ? '' : `${o.kind}: ${o.message}`);
  if (o.kind === 'refused' && fragment) assert.match(o.guard.message, fragment);
  assert.equal(toToolError(o).kind, 'policy_blocked');
}

describe('execution safety (real PostgreSQL)', function () {
  let pg: TestPostgres;
  let guard: SqlGuard;
  let admin: Client;
  const pools: SourcePool[] = [];

  function pool(opts: SourcePoolOptions = {}, maxConnections = 1, maxMessageBytes?: number): SourcePool {
    const u = new URL(pg.urlFor(DB));
    const p = new SourcePool({ host: u.hostname, port: Number(u.port || 5432), user: decodeURIComponent(u.username), database: DB, maxConnections, maxMessageBytes }, opts);
    pools.push(p);
    return p;
  }

  async function advisoryLocks(): Promise<number> {
    const r = await admin.query(`SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = $1)`, [DB]);
    return r.rows[0].n as number;
  }

  before(async function () {
    if (!(await postgresServerAnswers())) this.skip();
    pg = await getTestPostgres();
    if (pg.kind !== 'server') this.skip();
    await pg.ensureDatabase(DB);
    admin = new Client({ connectionString: pg.urlFor(DB) });
    await admin.connect();
    await admin.query(SETUP);
    guard = await loadSqlGuard();
  });

  after(async function () {
    for (const p of pools) await p.end().catch(() => undefined);
    await admin?.end().catch(() => undefined);
    await pg?.stop();
  });

  describe('functions by allow-list', function () {
    const builtins: Array<[string, string]> = [
      ['setseed', 'SELECT setseed(0.5)'],
      ['qualified setseed', 'SELECT pg_catalog.setseed(0.5)'],
      ['quoted schema', 'SELECT "pg_catalog"."setseed"(0.5)'],
      ['unicode escape', 'SELECT U&"\\0073etseed"(0.5)'],
      ['brin_summarize_new_values', "SELECT brin_summarize_new_values('app.t'::regclass)"],
      ['brin_desummarize_range', "SELECT brin_desummarize_range('app.t'::regclass, 0)"],
      ['gin_clean_pending_list', "SELECT gin_clean_pending_list('app.t'::regclass)"],
      ['pg_nextoid', "SELECT pg_nextoid('pg_class'::regclass, 'oid', 'pg_class_oid_index'::regclass)"],
      ['pg_stat_get_activity', 'SELECT (pg_stat_get_activity(NULL)).query'],
      ['pg_stat_get_backend_activity', 'SELECT pg_stat_get_backend_activity(1)'],
      ['pg_hba_file_rules', 'SELECT * FROM pg_hba_file_rules()'],
      ['pg_show_all_settings', 'SELECT * FROM pg_show_all_settings()'],
      ['pg_show_all_file_settings', 'SELECT * FROM pg_show_all_file_settings()'],
      ['pg_config', 'SELECT * FROM pg_config()'],
      ['pg_control_system', 'SELECT * FROM pg_control_system()'],
      ['current_setting', "SELECT current_setting('hba_file')"],
      ['pg_get_functiondef', "SELECT pg_get_functiondef('app.grab_lock'::regproc)"],
      ['pg_get_viewdef', "SELECT pg_get_viewdef('app.v_ok'::regclass)"],
      ['pg_database_size', 'SELECT pg_database_size(current_database())'],
      ['query_to_xml', "SELECT query_to_xml('select 1', true, true, '')"],
      ['nextval', "SELECT nextval('app.s')"],
      ['txid_current', 'SELECT txid_current()'],
      ['pg_advisory_lock', 'SELECT pg_advisory_lock(1)'],
      ['pg_terminate_backend', 'SELECT pg_terminate_backend(1)'],
      ['lo_export', "SELECT lo_export(1, '/tmp/x')"],
      ['pg_read_file', "SELECT pg_read_file('PG_VERSION')"],
      ['inet_server_addr', 'SELECT inet_server_addr()'],
      ['current_setting of a path', "SELECT current_setting('data_directory')"],
      ['pg_notify', "SELECT pg_notify('c', 'x')"],
      ['in a subquery', 'SELECT id FROM app.t WHERE id IN (SELECT setseed(0.1)::int)'],
      ['unknown built-in', "SELECT pg_catalog.has_table_privilege('app.t', 'select')"],
    ];
    for (const [label, sql] of builtins) {
      it(`refuses ${label}`, async function () {
        refused(await runReadOnlyPostgres(pool(), guard, sql));
      });
    }

    it('answers ordinary analytics built-ins, including function-style casts', async function () {
      const r = ok(
        await runReadOnlyPostgres(
          pool(),
          guard,
          "SELECT count(*), max(length(s)), string_agg(lower(s), ',' ORDER BY id), date_trunc('day', now()) IS NOT NULL, int4('7'), to_char(1.5, '9D9'), jsonb_build_object('a', 1) ->> 'a', row_number() OVER () FROM app.t GROUP BY id ORDER BY id LIMIT 1",
        ),
      );
      assert.equal(r.rowCount, 1);
    });

    it('reads formatting settings with current_setting, and nothing about the server', async function () {
      const r = ok(await runReadOnlyPostgres(pool(), guard, "SELECT current_setting('TimeZone') IS NOT NULL, current_setting('server_version_num')::int > 0"));
      assert.deepEqual(r.rows, [[true, true]]);
      refused(await runReadOnlyPostgres(pool(), guard, "SELECT current_setting('hba' || '_file')"));
      refused(await runReadOnlyPostgres(pool(), guard, 'SELECT * FROM app.t WHERE current_setting(s) IS NULL'));
    });

    it('refuses user-defined functions however they are called', async function () {
      const p = pool();
      refused(await runReadOnlyPostgres(p, guard, 'SELECT app.grab_lock()'), /app\.grab_lock\(\), a user-defined function/);
      refused(await runReadOnlyPostgres(p, guard, 'SELECT * FROM app.grab_lock()'));
      refused(await runReadOnlyPostgres(p, guard, 'SELECT "app"."grab_lock"()'));
      refused(await runReadOnlyPostgres(p, guard, 'SELECT grab_lock()'));
      assert.equal(await advisoryLocks(), 0);
    });

    it('refuses a built-in name that a user function shadows, unless qualified with pg_catalog', async function () {
      // the attack is real: an exact-type overload in public wins over pg_catalog.upper(text)
      const direct = await admin.query("SELECT upper('x'::varchar) AS u, pg_advisory_unlock_all()");
      assert.equal(direct.rows[0].u, 'shadowed');
      const p = pool();
      refused(await runReadOnlyPostgres(p, guard, "SELECT upper('x'::varchar)"), /public\.upper.*pg_catalog\.upper/);
      const r = ok(await runReadOnlyPostgres(p, guard, "SELECT pg_catalog.upper('x'::varchar)"));
      assert.deepEqual(r.rows, [['X']]);
      assert.equal(await advisoryLocks(), 0);
    });

    it('runs a user function the operator allowed by name', async function () {
      const p = pool({ policy: createFunctionPolicy({ functions: ['app.grab_lock'] }) });
      const r = ok(await runReadOnlyPostgres(p, guard, 'SELECT app.grab_lock()'));
      assert.deepEqual(r.rows, [[1]]);
      // ...and the session lock it took did not outlive the call
      assert.equal(await advisoryLocks(), 0);
    });
  });

  describe('views by what they call', function () {
    it('refuses a view over a user function, directly and through another view', async function () {
      const p = pool();
      refused(await runReadOnlyPostgres(p, guard, 'SELECT * FROM app.v_lock'), /app\.v_lock.*app\.grab_lock/);
      refused(await runReadOnlyPostgres(p, guard, 'SELECT x FROM app.v_nested'), /app\.v_nested/);
      refused(await runReadOnlyPostgres(p, guard, 'SELECT count(*) FROM app.t JOIN app.v_nested ON true'));
      assert.equal(await advisoryLocks(), 0);
    });

    it('refuses views over server-introspection built-ins (pg_read_file, pg_show_all_settings)', async function () {
      const p = pool();
      refused(await runReadOnlyPostgres(p, guard, 'SELECT * FROM app.v_file'), /pg_read_file/);
      refused(await runReadOnlyPostgres(p, guard, 'SELECT * FROM app.mv_settings'), /materialized view/);
    });

    it('answers a view that uses only allowed functions', async function () {
      const r = ok(await runReadOnlyPostgres(pool(), guard, 'SELECT * FROM app.v_ok ORDER BY id'));
      assert.deepEqual(r.rows[0], [1, 'A', 1]);
    });

    it('answers a view the operator allowed by name', async function () {
      const p = pool({ policy: createFunctionPolicy({ views: ['app.v_file'] }) });
      ok(await runReadOnlyPostgres(p, guard, 'SELECT * FROM app.v_file'));
    });
  });

  describe('SQLite functions by allow-list', function () {
    let db: Database;
    before(async function () {
      const SQL = await loadSqlJs();
      db = new SQL.Database();
      db.run('CREATE TABLE t (id INTEGER PRIMARY KEY, s TEXT); INSERT INTO t VALUES (1, \'a\'), (2, \'b\');');
    });
    after(() => db?.close());
    for (const sql of [
      "SELECT load_extension('x')",
      'SELECT * FROM pragma_database_list',
      'SELECT * FROM main.pragma_database_list()',
      'SELECT * FROM pragma_compile_options',
      "SELECT sqlite_compileoption_used('ENABLE_FTS5')",
      "SELECT readfile('/etc/passwd')",
      "SELECT fts3_tokenizer('simple')",
      'SELECT my_udf(1)',
    ]) {
      it(`refuses ${sql}`, function () {
        refused(runReadOnlySqlite(db, guard, sql));
      });
    }
    it('answers core, JSON, window functions, schema pragmas and CTE column lists', function () {
      const r = ok(
        runReadOnlySqlite(
          db,
          guard,
          "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 3) SELECT count(*), max(x), json_array(1, 2), (SELECT count(*) FROM pragma_table_info('t')), row_number() OVER () FROM c",
        ),
      );
      assert.deepEqual(r.rows[0], [3, 3, '[1,2]', 2, 1]);
    });
  });

  describe('no session state survives a call', function () {
    it('resets seed, settings and advisory locks before a pooled connection is reused', async function () {
      // One connection, so the second call gets the session the first one changed.
      const p = pool({ policy: createFunctionPolicy({ functions: ['app.state_leak'] }) }, 1);
      ok(await runReadOnlyPostgres(p, guard, 'SELECT app.state_leak()'));
      assert.equal(await advisoryLocks(), 0, 'the session advisory lock was released');
      const after = ok(await runReadOnlyPostgres(p, guard, 'SELECT random(), random(), random()'));
      // The sequence random() gives right after setseed(0.25), computed on a separate session:
      const seeded = await admin.query('SELECT setseed(0.25), random() AS a, random() AS b, random() AS c');
      await admin.query(`SELECT setseed(${Math.random()})`);
      const expected = [seeded.rows[0].a, seeded.rows[0].b, seeded.rows[0].c];
      assert.notDeepEqual(after.rows[0]!.slice(0, 3), expected, 'random() continued the seeded sequence');
      const wm = ok(await runReadOnlyPostgres(p, guard, "SELECT setting FROM pg_settings WHERE name = 'work_mem'", [], {}, { checkObjects: false }));
      assert.notEqual(wm.rows[0]![0], String(77 * 1024), 'work_mem set by the previous call survived');
    });
  });

  describe('per-source queue', function () {
    const SLOW = 'SELECT count(*) FROM generate_series(1, 400000000)';

    it('keeps a slot for short queries while long ones run', async function () {
      const p = pool({ reservedSlots: 1, shortQueryMs: 1000, maxWaitMs: 200 }, 3);
      const caps = { timeoutMs: 4000 };
      const slow = [runReadOnlyPostgres(p, guard, SLOW, [], caps), runReadOnlyPostgres(p, guard, SLOW, [], caps)];
      await new Promise((r) => setTimeout(r, 300));
      const started = performance.now();
      const quick = await runReadOnlyPostgres(p, guard, 'SELECT count(*) FROM app.t', [], caps);
      const quickMs = performance.now() - started;
      ok(quick);
      assert.ok(quickMs < 1000, `a short query waited ${Math.round(quickMs)} ms behind long ones`);
      const done = await Promise.all(slow);
      for (const d of done) assert.ok(!d.ok && d.kind === 'timeout', 'the long queries stop at their own cap');
    });

    it('answers busy (retryable) when every slot is taken and the queue is full', async function () {
      const p = pool({ reservedSlots: 0, maxWaiting: 0 }, 1);
      const slow = runReadOnlyPostgres(p, guard, SLOW, [], { timeoutMs: 2000 });
      await new Promise((r) => setTimeout(r, 200));
      const busy = await runReadOnlyPostgres(p, guard, 'SELECT 1', [], { timeoutMs: 2000 });
      assert.ok(!busy.ok && busy.kind === 'busy', JSON.stringify(busy));
      const e = toToolError(busy as Extract<QueryOutcome, { ok: false }>);
      assert.equal(e.kind, 'unreachable');
      assert.match(e.message, /retry/);
      await slow;
      ok(await runReadOnlyPostgres(p, guard, 'SELECT 1', [], { timeoutMs: 2000 }));
    });

    it('a waiting caller gets the slot a finished query frees', async function () {
      const p = pool({ reservedSlots: 0, maxWaiting: 4, maxWaitMs: 5000 }, 1);
      const first = runReadOnlyPostgres(p, guard, 'SELECT count(*) FROM generate_series(1, 2000000)', [], { timeoutMs: 4000 });
      const second = runReadOnlyPostgres(p, guard, 'SELECT 2', [], { timeoutMs: 4000 });
      ok(await first);
      assert.deepEqual(ok(await second).rows, [[2]]);
      assert.deepEqual(p.stats, { running: 0, waiting: 0 });
    });
  });

  describe('one value cannot take the process down', function () {
    it('closes the connection on a row over the per-message limit and answers the next call', async function () {
      const p = pool({}, 1, 1024 * 1024);
      const big = await runReadOnlyPostgres(p, guard, "SELECT repeat('x', 5000000) AS big");
      assert.ok(!big.ok && big.kind === 'too_large', JSON.stringify(big).slice(0, 300));
      assert.equal(toToolError(big as Extract<QueryOutcome, { ok: false }>).kind, 'cost_cap_exceeded');
      const agg = await runReadOnlyPostgres(p, guard, "SELECT string_agg(repeat('y', 1000), '') FROM generate_series(1, 3000)");
      assert.ok(!agg.ok && agg.kind === 'too_large');
      assert.deepEqual(ok(await runReadOnlyPostgres(p, guard, 'SELECT 41 + 1')).rows, [[42]]);
    });

    it('stops reading rows once together they pass the byte cap, however many a batch asked for', async function () {
      // 400 rows of 2 MB each: under the message limit one by one, 800 MB together. The answer's cap is 5 MB, so the
      // connection is closed after about twice that on the wire; the rows that fit are answered, cut by bytes.
      const p = pool({}, 1, 8 * 1024 * 1024);
      const rss0 = process.memoryUsage().rss;
      const cut = ok(await runReadOnlyPostgres(p, guard, "SELECT g, repeat('x', 2000000) AS big FROM generate_series(1, 400) g", [], { maxBytes: 5_000_000, maxRows: 1000, timeoutMs: 15_000 }));
      assert.equal(cut.truncatedBy, 'bytes');
      assert.deepEqual(cut.rows.map((r) => r[0]), [1, 2]);
      assert.deepEqual(cut.columns.map((c) => c.name), ['g', 'big']);
      assert.ok(process.memoryUsage().rss - rss0 < 200 * 1024 * 1024, `RSS grew by ${Math.round((process.memoryUsage().rss - rss0) / 1048576)} MiB`);
      // Small rows are not cut on the wire: the row cap ends them as before.
      const small = ok(await runReadOnlyPostgres(p, guard, 'SELECT g FROM generate_series(1, 5000) g', [], { maxBytes: 5_000_000, maxRows: 1000 }));
      assert.equal(small.rows.length, 1000);
      assert.equal(small.truncatedBy, 'rows');
      assert.deepEqual(ok(await runReadOnlyPostgres(p, guard, 'SELECT 41 + 1')).rows, [[42]]);
    });
  });
});
