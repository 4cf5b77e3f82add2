import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client as PgClient } from 'pg';
import { getTestPostgres, postgresServerAnswers, type TestPostgres } from '../../support/pg';
import { indexInto, startHarness, tempDir, type Harness } from '../../support/server-harness';

/**
 * Functions a statement runs without naming them. A database owner's operator, cast or domain CHECK runs a function
 * of theirs when a query writes `1 ~~~ 2`, `1::comp2` or `1::d_checked`; a partitioned or inheritance parent reads
 * its foreign partitions and children through their wrapper. Each function here leaves a mark outside the read-only
 * transaction (COPY … TO PROGRAM writes a file), so a statement that ran one is seen even though it was rolled back.
 * Every such statement is refused before it runs, the same statements without the user's objects are answered, and
 * indexing the database does not run a wrapper's program either.
 */

const DB = 'sb_sqlexec_unnamed';

type Env = { status: string; data?: { rows?: unknown[][] } | null; error?: { kind: string; message: string } | null };

describe('run_query refuses functions a statement would run without naming them (PostgreSQL)', function () {
  this.timeout(300_000);
  let pg: TestPostgres | undefined;
  let h: Harness | undefined;
  let marks: string;
  let fdw = false;

  before(async function () {
    if (!(await postgresServerAnswers())) this.skip();
    pg = await getTestPostgres();
    await pg.dropDatabase(DB);
    await pg.ensureDatabase(DB);
    const url = pg.urlFor(DB);
    // Written by the database server (another OS user): a fresh directory anyone may write to.
    marks = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-unnamed-'));
    fs.chmodSync(marks, 0o777);
    const mark = (name: string): string => `COPY (SELECT 1) TO PROGRAM 'touch ${path.join(marks, name)}'`;
    const c = new PgClient({ connectionString: url });
    await c.connect();
    try {
      await c.query(`
        CREATE TABLE t (id int PRIMARY KEY, label text);
        INSERT INTO t SELECT g, 'row ' || g FROM generate_series(1, 20) g;
        CREATE FUNCTION op_mark(int, int) RETURNS bool LANGUAGE plpgsql VOLATILE AS $$ BEGIN EXECUTE $m$${mark('operator')}$m$; RETURN true; END $$;
        CREATE OPERATOR ~~~ (LEFTARG = int, RIGHTARG = int, FUNCTION = op_mark);
        CREATE TYPE comp2 AS (a int);
        CREATE FUNCTION cast_mark(int) RETURNS comp2 LANGUAGE plpgsql VOLATILE AS $$ BEGIN EXECUTE $m$${mark('cast')}$m$; RETURN ROW($1)::comp2; END $$;
        CREATE CAST (int AS comp2) WITH FUNCTION cast_mark(int);
        CREATE FUNCTION check_mark(int) RETURNS bool LANGUAGE plpgsql VOLATILE AS $$ BEGIN EXECUTE $m$${mark('domain')}$m$; RETURN true; END $$;
        CREATE DOMAIN d_checked AS int CHECK (check_mark(VALUE));
        -- A type whose default btree operator class compares with a function of the owner's: sorting a row, an array or
        -- a domain that holds one calls it, with no operator written.
        CREATE TYPE mt AS (v int);
        CREATE FUNCTION mt_cmp(mt, mt) RETURNS int LANGUAGE plpgsql VOLATILE AS $$ BEGIN EXECUTE $m$${mark('opclass')}$m$; RETURN btint4cmp(($1).v, ($2).v); END $$;
        CREATE FUNCTION mt_lt(mt, mt) RETURNS bool LANGUAGE sql AS 'SELECT ($1).v < ($2).v';
        CREATE FUNCTION mt_le(mt, mt) RETURNS bool LANGUAGE sql AS 'SELECT ($1).v <= ($2).v';
        CREATE FUNCTION mt_eq(mt, mt) RETURNS bool LANGUAGE sql AS 'SELECT ($1).v = ($2).v';
        CREATE FUNCTION mt_ge(mt, mt) RETURNS bool LANGUAGE sql AS 'SELECT ($1).v >= ($2).v';
        CREATE FUNCTION mt_gt(mt, mt) RETURNS bool LANGUAGE sql AS 'SELECT ($1).v > ($2).v';
        CREATE OPERATOR ~<~ (LEFTARG = mt, RIGHTARG = mt, FUNCTION = mt_lt);
        CREATE OPERATOR ~<=~ (LEFTARG = mt, RIGHTARG = mt, FUNCTION = mt_le);
        CREATE OPERATOR ~=~ (LEFTARG = mt, RIGHTARG = mt, FUNCTION = mt_eq);
        CREATE OPERATOR ~>=~ (LEFTARG = mt, RIGHTARG = mt, FUNCTION = mt_ge);
        CREATE OPERATOR ~>~ (LEFTARG = mt, RIGHTARG = mt, FUNCTION = mt_gt);
        CREATE OPERATOR CLASS mt_ops DEFAULT FOR TYPE mt USING btree AS
          OPERATOR 1 ~<~, OPERATOR 2 ~<=~, OPERATOR 3 ~=~, OPERATOR 4 ~>=~, OPERATOR 5 ~>~, FUNCTION 1 mt_cmp(mt, mt);
        CREATE TABLE dom_rows (d d_checked);
        INSERT INTO dom_rows VALUES (1);
        CREATE TYPE dom_pair AS (k int, d d_checked);
        CREATE TABLE dom_wrap (w dom_pair);
        CREATE TYPE d_range AS RANGE (subtype = d_checked);
        CREATE VIEW v_dom AS SELECT 5::d_checked AS x;
        CREATE TYPE wrap AS (m mt);
        CREATE TABLE tw (id int, w wrap, a mt[]);
        INSERT INTO tw SELECT g, ROW(ROW(g)::mt)::wrap, ARRAY[ROW(g)::mt] FROM generate_series(1, 5) g;
      `);
      // Inserting into dom_rows ran the domain's CHECK here, as the owner: that mark is not the agent's.
      for (const f of fs.readdirSync(marks)) fs.rmSync(path.join(marks, f));
      try {
        await c.query(`
          CREATE EXTENSION IF NOT EXISTS file_fdw;
          CREATE SERVER files FOREIGN DATA WRAPPER file_fdw;
          CREATE TABLE parted (a text) PARTITION BY LIST (a);
          CREATE FOREIGN TABLE parted_ft PARTITION OF parted FOR VALUES IN ('1') SERVER files OPTIONS (program 'touch ${path.join(marks, 'partition')}; echo 1');
          CREATE TABLE inh_parent (a text);
          CREATE FOREIGN TABLE inh_child () INHERITS (inh_parent) SERVER files OPTIONS (program 'touch ${path.join(marks, 'child')}; echo 1');
        `);
        fdw = true;
      } catch {
        // file_fdw is a contrib module; without it the partition cases are skipped below
      }
    } finally {
      await c.end();
    }
    const catalogPath = path.join(tempDir('sb-unnamed-'), 'catalog.sqlite');
    await indexInto(catalogPath, url, 'unnamed');
    h = await startHarness({ catalogPath });
  });

  after(async () => {
    await h?.close();
    if (marks) fs.rmSync(marks, { recursive: true, force: true });
    if (pg) {
      await pg.dropDatabase(DB);
      await pg.stop();
    }
  });

  const q = async (sql: string): Promise<Env> => (await h!.client.callTool({ name: 'run_query', arguments: { sql } })).structuredContent as Env;
  const marked = (): string[] => fs.readdirSync(marks).sort();

  it('indexing ran no wrapper program (a parent with foreign partitions or children is not sampled)', function () {
    if (!fdw) this.skip();
    assert.deepEqual(marked(), []);
  });

  it('refuses a user operator, a user cast and a domain CHECK before they run', async () => {
    const cases: Array<[string, RegExp]> = [
      ['SELECT 1 ~~~ 2', /operator ~~~.*public\.op_mark/],
      ['SELECT id FROM t WHERE id ~~~ 1', /operator ~~~/],
      ['SELECT label FROM t ORDER BY id OPERATOR(public.~~~) 3', /operator ~~~/],
      ['SELECT 1::comp2', /cast to comp2.*public\.cast_mark/],
      ['SELECT CAST(id AS comp2) FROM t', /cast to comp2/],
      ['SELECT 1::d_checked', /domain d_checked.*public\.check_mark/],
      ["SELECT '7'::public.d_checked", /domain d_checked/],
      ['SELECT id FROM tw ORDER BY w', /comparisons of the type mt.*public\.mt_cmp/],
      ['SELECT DISTINCT a FROM tw', /comparisons of the type mt/],
    ];
    for (const [sql, why] of cases) {
      const env = await q(sql);
      assert.equal(env.status, 'refused', `${sql}: ${JSON.stringify(env).slice(0, 300)}`);
      assert.match(env.error!.message, why, sql);
    }
    assert.deepEqual(marked(), [], 'a refused statement ran a function');
  });

  it('refuses a domain CHECK inside a type the statement names: a row type, a composite, a column definition list', async () => {
    const cases = [
      `SELECT (json_populate_record(null::dom_rows, '{"d":11}')).d`,
      `SELECT * FROM json_populate_record(null::dom_rows, '{"d":12}')`,
      `SELECT * FROM jsonb_to_record('{"d":13}') AS x(d d_checked)`,
      'SELECT (ROW(14)::dom_rows).d',
      `SELECT * FROM json_to_recordset('[{"d":15}]') AS x(d d_checked)`,
      `SELECT * FROM jsonb_populate_recordset(null::dom_rows, '[{"d":16}]')`,
      `SELECT (jsonb_populate_record(null::dom_pair, '{"k":1,"d":17}')).k`,
      `SELECT * FROM jsonb_to_record('{"p":{"k":1,"d":18}}') AS x(p dom_pair)`,
      'SELECT ARRAY[ROW(1, 19)]::dom_pair[]',
    ];
    for (const sql of cases) {
      const env = await q(sql);
      assert.equal(env.status, 'refused', `${sql}: ${JSON.stringify(env).slice(0, 300)}`);
      assert.match(env.error!.message, /domain d_checked|check_mark/, sql);
    }
    assert.deepEqual(marked(), [], 'a refused statement ran a function');
    // With no type named: a row read from a table is rebuilt from JSON or text, a range over the domain, a view's cast.
    for (const sql of [
      `SELECT jsonb_populate_record(x, '{"d":5}') FROM dom_rows x`,
      `SELECT jsonb_populate_record((SELECT x FROM dom_rows x LIMIT 1), '{"d":5}')`,
      `SELECT jsonb_populate_recordset(x, '[{"d":5}]') FROM dom_rows x`,
      `SELECT jsonb_populate_record(t.w, '{"k":1,"d":5}') FROM dom_wrap t`,
      "SELECT '[1,5)'::d_range",
      'SELECT * FROM v_dom',
    ]) {
      const env = await q(sql);
      assert.equal(env.status, 'refused', `${sql}: ${JSON.stringify(env).slice(0, 300)}`);
      assert.match(env.error!.message, /domain d_checked|check_mark/, sql);
    }
    assert.deepEqual(marked(), [], 'a refused statement ran a function');
    // The same shapes over built-in types are answered.
    const fine = await q(`SELECT * FROM jsonb_to_record('{"d":13}') AS x(d int)`);
    assert.ok(['success', 'degraded'].includes(fine.status), JSON.stringify(fine).slice(0, 300));
  });

  it('refuses reading a parent whose partitions or children are foreign tables', async function () {
    if (!fdw) this.skip();
    for (const sql of ['SELECT * FROM parted', 'SELECT count(*) FROM inh_parent', 'WITH x AS (SELECT a FROM parted) SELECT * FROM x']) {
      const env = await q(sql);
      assert.equal(env.status, 'refused', `${sql}: ${JSON.stringify(env).slice(0, 300)}`);
      assert.match(env.error!.message, /outside the database/);
    }
    assert.deepEqual(marked(), []);
  });

  it('answers the same shapes with built-in operators, casts and types', async () => {
    for (const sql of ['SELECT 1 + 2', 'SELECT id FROM t WHERE id BETWEEN 2 AND 4 ORDER BY id', "SELECT '7'::int, id::text FROM t WHERE label LIKE 'row 1%' ORDER BY id", 'SELECT DISTINCT label FROM t WHERE id IN (1, 2)']) {
      const env = await q(sql);
      assert.equal(env.status, 'success', `${sql}: ${JSON.stringify(env).slice(0, 300)}`);
    }
    assert.deepEqual(marked(), []);
  });

  it('the marks are real: the same statements do leave one when run directly', async () => {
    // Proof that the check would have caught a real effect: outside run_query the operator writes its mark.
    const c = new PgClient({ connectionString: pg!.urlFor(DB) });
    await c.connect();
    try {
      await c.query('BEGIN TRANSACTION READ ONLY');
      await c.query('SELECT 1 ~~~ 2');
      await c.query('ROLLBACK');
    } finally {
      await c.end();
    }
    assert.deepEqual(marked(), ['operator']);
    fs.rmSync(path.join(marks, 'operator'));
  });
});
