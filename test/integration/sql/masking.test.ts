import assert from 'node:assert/strict';
import path from 'node:path';
import { Client as PgClient } from 'pg';
import { getTestPostgres, postgresServerAnswers, type TestPostgres } from '../../support/pg';
import { indexInto, startHarness, tempDir, type Harness } from '../../support/server-harness';

/**
 * Masking at the source on a real PostgreSQL database, through the MCP tool path: every query shape that returned
 * raw blocked values before (whole-row references, casts, JSON, renames in derived tables and CTEs, FROM alias
 * lists, set-operation arms, VALUES subqueries, LATERAL, error text) now reads NULL; oracles on blocked columns give
 * the same answer for a true and a false guess; free text holding card numbers is tagged and masked in every tool;
 * over-deep input and NUL bytes are invalid_argument; honest shapes (a recursive CTE over a table with a blocked
 * column) are answered; catalog reads are refused with the catalog tool that answers them.
 */

const DB = 'sb_sqlpii_mask';
const PASSWORD = 'XfFADh!q9Lw2zP';
const API_KEY = 'sk_live_4eC39HqLyjWDarjtT1zdp7dc';
const CARD = '4539578763621486';
const MEMO_CARD = '5105105105105100';
const CANARIES = [PASSWORD, API_KEY, CARD, MEMO_CARD, '4716461583322103', 'Pw2!other-secret'];

type Env = {
  status: string;
  degradation_reason?: string | null;
  data?: { rows?: unknown[][]; masked_columns?: string[] } | null;
  error?: { kind: string; message: string; recovery?: { suggested_tool?: string; suggested_args?: Record<string, unknown> } } | null;
};

describe('run_query masks blocked columns at the source (PostgreSQL)', function () {
  this.timeout(300_000);
  let pg: TestPostgres | undefined;
  let h: Harness | undefined;
  let catalogPath = '';

  before(async function () {
    if (!(await postgresServerAnswers())) this.skip();
    pg = await getTestPostgres();
    await pg.dropDatabase(DB);
    await pg.ensureDatabase(DB);
    const url = pg.urlFor(DB);
    const c = new PgClient({ connectionString: url });
    await c.connect();
    await c.query(`
      CREATE TABLE staff (id int PRIMARY KEY, name text NOT NULL, manager_id int, password text, api_key text);
      INSERT INTO staff VALUES (1, 'Alice', NULL, '${PASSWORD}', '${API_KEY}'), (2, 'Bob', 1, 'Pw2!other-secret', NULL), (3, 'Cleo', 1, NULL, NULL);
      CREATE TABLE payment (id int PRIMARY KEY, staff_id int REFERENCES staff(id), card_number text, amount numeric);
      INSERT INTO payment VALUES (1, 1, '${CARD}', 10.5), (2, 2, '4716461583322103', 20);
      CREATE TABLE ticket (id int PRIMARY KEY, memo text);
      INSERT INTO ticket SELECT g, CASE WHEN g % 2 = 0 THEN 'customer paid with card ${MEMO_CARD} exp 04/29' ELSE 'printer on floor ' || g || ' is jammed' END FROM generate_series(1, 40) g;
      CREATE VIEW staff_login AS SELECT id, password AS login_secret FROM staff;
      CREATE VIEW staff_vip AS SELECT id, name FROM staff WHERE replace(api_key, '_', '') = 'sklive4eC39HqLy';
      CREATE INDEX staff_key_lower ON staff (lower(api_key)) WHERE password IS NOT NULL;
      ALTER TABLE payment ADD CONSTRAINT card_not_test CHECK (card_number <> '4111111111111111');
      CREATE TABLE citizen (id int, ssn text, bio text);
      INSERT INTO citizen SELECT g, lpad(((g * 7919) % 1000)::text, 3, '0') || '-11-' || lpad((g % 10000)::text, 4, '0'), repeat('x', 1500) FROM generate_series(1, 3000) g;
      CREATE INDEX citizen_ssn ON citizen (ssn) INCLUDE (id);
      CREATE TYPE login_pair AS (login text, password text);
      CREATE TABLE holder (id int PRIMARY KEY, c login_pair, arr login_pair[]);
      INSERT INTO holder VALUES (1, ROW('u1', 'CompSecret-77')::login_pair, ARRAY[ROW('u2', 'ArrSecret-88')::login_pair]);
      CREATE TABLE member (id int PRIMARY KEY, name text, password text,
        pw_tail text GENERATED ALWAYS AS (right(password, 6)) STORED,
        finder tsvector GENERATED ALWAYS AS (to_tsvector('simple', coalesce(name, '') || ' ' || coalesce(password, ''))) STORED);
      INSERT INTO member (id, name, password) SELECT g, 'member ' || g, 'Zq9' || g || 'tailW7kxQ' FROM generate_series(1, 30) g;
      CREATE TABLE staff_snapshot (id int, s staff, history staff[]);
      INSERT INTO staff_snapshot SELECT id, s, ARRAY[s] FROM staff s;
      CREATE VIEW staff_blob AS SELECT id, s::text AS blob FROM staff s;
      CREATE VIEW staff_rows AS SELECT s FROM staff s;
      CREATE VIEW staff_json AS SELECT id, row_to_json(s.*) AS j FROM staff s;
      CREATE TYPE staff_wrap AS (s staff);
      CREATE TABLE staff_nested (id int, w staff_wrap);
      INSERT INTO staff_nested SELECT id, ROW(s)::staff_wrap FROM staff s;
      CREATE DOMAIN staff_dom AS staff;
      CREATE TABLE staff_dommed (id int, d staff_dom);
      INSERT INTO staff_dommed SELECT id, s::staff_dom FROM staff s;
      CREATE DOMAIN staff_arr AS staff[];
      CREATE TABLE staff_arrs (id int, arr staff_arr);
      INSERT INTO staff_arrs SELECT id, ARRAY[s]::staff_arr FROM staff s;
      CREATE VIEW staff_nested_v AS SELECT w FROM staff_nested;
      CREATE TABLE swap_t (id int, name text, ssn text);
      INSERT INTO swap_t VALUES (1, 'Ann', '123-45-6789');
      CREATE TABLE drift_plain (id int, note text);
      INSERT INTO drift_plain VALUES (1, 'plain');
      CREATE VIEW drift_v AS SELECT id, name FROM staff;
      CREATE VIEW drift_inner AS SELECT id, name FROM staff;
      CREATE VIEW drift_outer AS SELECT * FROM drift_inner;
      CREATE TABLE staff_docs (id int, doc jsonb, words text[], terms tsvector);
      INSERT INTO staff_docs SELECT id, to_jsonb(s), ARRAY[name, api_key], to_tsvector('simple', coalesce(api_key, '')) FROM staff s WHERE api_key IS NOT NULL;
      INSERT INTO staff_docs SELECT id + 100, to_jsonb(s), ARRAY[name, api_key], to_tsvector('simple', coalesce(api_key, '')) FROM staff s WHERE api_key IS NOT NULL;
      CREATE TABLE vault (id int, owner text, ssn text) PARTITION BY LIST (ssn);
      CREATE TABLE vault_a PARTITION OF vault FOR VALUES IN ('111-22-3333');
      CREATE TABLE vault_b PARTITION OF vault DEFAULT;
      INSERT INTO vault SELECT g, 'owner ' || g, CASE WHEN g % 2 = 0 THEN '111-22-3333' ELSE '444-55-6666' END FROM generate_series(1, 24) g;
      CREATE TABLE payroll (id int, card_number text);
      INSERT INTO payroll SELECT g, '4' || lpad(((g * 7919) % 997)::text, 15, '0') FROM generate_series(1, 40) g;
      CREATE INDEX payroll_card ON payroll (card_number);
      CLUSTER payroll USING payroll_card;
      CREATE VIEW v_pub2 AS SELECT id, password AS label FROM staff;
      CREATE MATERIALIZED VIEW mv_stale AS SELECT * FROM v_pub2;
      CREATE OR REPLACE VIEW v_pub2 AS SELECT id, 'safe'::text AS label FROM staff;
      CREATE MATERIALIZED VIEW mv_ids AS SELECT id, manager_id FROM staff;
      CREATE TYPE cred2 AS (login text, password text);
      CREATE DOMAIN credd AS cred2;
      CREATE TABLE wrap_dom (id int, v credd);
      INSERT INTO wrap_dom VALUES (1, ROW('alice', '${PASSWORD}'));
      CREATE TYPE credr AS RANGE (subtype = cred2);
      CREATE TABLE wrap_rng (id int, v credr);
      INSERT INTO wrap_rng VALUES (1, credr(ROW('alice', '${PASSWORD}')::cred2, ROW('zz', 'zz')::cred2));
      CREATE DOMAIN credarr AS cred2[];
      CREATE TABLE wrap_arr (id int, v credarr);
      INSERT INTO wrap_arr VALUES (1, ARRAY[ROW('alice', '${PASSWORD}')::cred2]);
      CREATE TABLE notes (id int, body text);
      INSERT INTO notes SELECT g, 'ordinary note ' || g FROM generate_series(1, 50) g;
      CREATE TABLE staff_logins () INHERITS (notes);
      COMMENT ON COLUMN staff_logins.body IS 'user password (plaintext)';
      INSERT INTO staff_logins VALUES (999, '${PASSWORD}');
      CREATE TABLE events (id int, body text) PARTITION BY LIST (id);
      CREATE TABLE events_pub PARTITION OF events FOR VALUES IN (1);
      CREATE TABLE events_sec PARTITION OF events FOR VALUES IN (2);
      COMMENT ON COLUMN events_sec.body IS 'user password (plaintext)';
      INSERT INTO events VALUES (1, 'hello'), (2, '${PASSWORD}');
      CREATE TABLE late_parent (id int, msg text);
      INSERT INTO late_parent VALUES (1, 'hello');
      CREATE TABLE late_pt (id int, msg text) PARTITION BY LIST (id);
      CREATE TABLE late_pt_a PARTITION OF late_pt FOR VALUES IN (1);
      INSERT INTO late_pt VALUES (1, 'hello');
      CREATE TABLE shadowed (id int, label text);
      INSERT INTO shadowed VALUES (1, 'innocuous');
      ANALYZE;
    `);
    await c.query('VACUUM ANALYZE citizen');
    await c.end();
    const dir = tempDir('sb-mask-');
    catalogPath = path.join(dir, 'catalog.sqlite');
    await indexInto(catalogPath, url, 'maskdb');
    h = await startHarness({ catalogPath });
  });

  after(async () => {
    await h?.close();
    if (pg) {
      await pg.dropDatabase(DB);
      await pg.stop();
    }
  });

  const q = async (sql: string): Promise<{ env: Env; text: string }> => {
    const res = await h!.client.callTool({ name: 'run_query', arguments: { sql } });
    return { env: res.structuredContent as Env, text: JSON.stringify(res) };
  };
  const noCanary = (text: string, what: string): void => {
    for (const c of CANARIES) assert.ok(!text.includes(c), `${what} leaked ${c}`);
  };

  const SHAPES = [
    'SELECT s FROM staff s',
    'SELECT s::text FROM staff s',
    'SELECT row_to_json(s) FROM staff s',
    'SELECT to_jsonb(s) FROM staff s',
    'SELECT json_agg(s) FROM staff s',
    'SELECT (s).password FROM staff s',
    'SELECT staff FROM staff',
    'SELECT * FROM staff',
    'TABLE staff',
    'SELECT * FROM ONLY public.staff',
    'SELECT x FROM (SELECT password AS x FROM staff) d',
    'WITH c(x) AS (SELECT api_key FROM staff) SELECT x FROM c',
    'WITH staff AS (SELECT * FROM staff) SELECT * FROM staff',
    'SELECT d FROM staff AS u(a, b, c, d, e)',
    'SELECT name FROM staff UNION ALL SELECT password FROM staff',
    'SELECT 1 INTERSECT SELECT 1 UNION SELECT count(*) FROM staff EXCEPT SELECT length(api_key) FROM staff',
    'VALUES ((SELECT card_number FROM payment LIMIT 1))',
    'SELECT p.amount, l.k FROM payment p, LATERAL (SELECT s.api_key AS k FROM staff s WHERE s.id = p.staff_id) l',
    'SELECT (SELECT string_agg(card_number, \',\') FROM payment)',
    'SELECT EXISTS (SELECT 1 FROM payment) AS e, (SELECT max(password) FROM staff) AS m',
    'SELECT public.staff.password FROM public.staff',
    'SELECT api_key::uuid FROM staff',
    'SELECT memo FROM ticket',
    'SELECT lower(memo) FROM ticket WHERE id = 2',
  ];

  it('never returns a blocked value, whatever the query shape', async () => {
    for (const sql of SHAPES) {
      const { env, text } = await q(sql);
      noCanary(text, sql);
      assert.ok(['degraded', 'refused', 'success', 'empty', 'partial'].includes(env.status), `${sql}: ${text.slice(0, 300)}`);
    }
  });

  it('answers whole-row and star shapes with the blocked columns masked and named (degraded pii_masked)', async () => {
    for (const sql of ['SELECT row_to_json(s) FROM staff s', 'SELECT * FROM staff', 'TABLE staff', 'SELECT d FROM staff AS u(a, b, c, d, e)']) {
      const { env } = await q(sql);
      assert.equal(env.status, 'degraded', sql);
      assert.equal(env.degradation_reason, 'pii_masked');
      assert.ok(env.data?.masked_columns?.includes('public.staff.password'), `${sql}: ${JSON.stringify(env.data?.masked_columns)}`);
    }
    const star = await q('SELECT * FROM staff ORDER BY id');
    assert.deepEqual(star.env.data?.rows?.map((r) => [r[0], r[1], r[3], r[4]]), [
      [1, 'Alice', null, null],
      [2, 'Bob', null, null],
      [3, 'Cleo', null, null],
    ]);
  });

  it('gives the same answer to a true and a false guess at a blocked value', async () => {
    const pairs: Array<[string, string]> = [
      ["SELECT count(*) FROM staff WHERE password LIKE 'XfF%'", "SELECT count(*) FROM staff WHERE password LIKE 'Qqq%'"],
      [`SELECT count(*) FROM staff WHERE api_key = '${API_KEY}'`, "SELECT count(*) FROM staff WHERE api_key = 'sk_live_nope'"],
      ['SELECT id FROM staff ORDER BY password LIMIT 1', 'SELECT id FROM staff ORDER BY password DESC LIMIT 1'],
      ["SELECT (SELECT password FROM staff WHERE id = 1) LIKE 'XfF%'", "SELECT (SELECT password FROM staff WHERE id = 1) LIKE 'Qqq%'"],
      ['SELECT ascii(substr(x, 1, 1)) > 80 FROM (SELECT password AS x FROM staff WHERE id = 1) d', 'SELECT ascii(substr(x, 1, 1)) > 90 FROM (SELECT password AS x FROM staff WHERE id = 1) d'],
      ["SELECT 1 / (CASE WHEN x ~ '^XfF' THEN 0 ELSE 1 END) FROM (SELECT password AS x FROM staff WHERE id = 1) d", "SELECT 1 / (CASE WHEN x ~ '^Qqq' THEN 0 ELSE 1 END) FROM (SELECT password AS x FROM staff WHERE id = 1) d"],
      // Errors the statement raises on its own terms are answered as invalid_argument: a guess must not choose between
      // that answer and a row, whether the error is a cast (22P02) or a subquery with more than one row (21000).
      ["SELECT (CASE WHEN x ~ '^XfF' THEN 'a' ELSE '1' END)::int FROM (SELECT password AS x FROM staff WHERE id = 1) d", "SELECT (CASE WHEN x ~ '^Qqq' THEN 'a' ELSE '1' END)::int FROM (SELECT password AS x FROM staff WHERE id = 1) d"],
      [
        "SELECT (SELECT 1 FROM (SELECT api_key AS k FROM staff WHERE id = 1) d WHERE k LIKE 'sk_live%' UNION ALL SELECT 1)",
        "SELECT (SELECT 1 FROM (SELECT api_key AS k FROM staff WHERE id = 1) d WHERE k LIKE 'sk_nope%' UNION ALL SELECT 1)",
      ],
    ];
    for (const [t, f] of pairs) {
      const a = (await q(t)).env;
      const b = (await q(f)).env;
      const view = (e: Env): string => JSON.stringify({ status: e.status, rows: e.data?.rows ?? null, kind: e.error?.kind ?? null });
      assert.equal(view(a), view(b), `${t}  vs  ${f}`);
    }
  });

  it('refuses filters and orderings on a blocked column with pii_blocked, and answers IS NULL counts', async () => {
    const { env } = await q("SELECT id FROM staff WHERE password LIKE 'X%'");
    assert.equal(env.status, 'refused');
    assert.equal(env.error?.kind, 'pii_blocked');
    assert.match(env.error!.message, /public\.staff\.password/);
    const nulls = await q('SELECT count(*) FROM staff WHERE password IS NULL');
    assert.deepEqual(nulls.env.data?.rows, [['1']]);
  });

  it('answers a recursive CTE over a table with a blocked column that never exposes it', async () => {
    const { env } = await q('WITH RECURSIVE org AS (SELECT id, name, manager_id FROM staff WHERE manager_id IS NULL UNION ALL SELECT s.id, s.name, s.manager_id FROM staff s JOIN org ON s.manager_id = org.id) SELECT * FROM org ORDER BY id');
    assert.equal(env.status, 'success', JSON.stringify(env).slice(0, 300));
    assert.equal(env.data?.rows?.length, 3);
  });

  it('refuses a view that reads a blocked column under another name', async () => {
    const { env, text } = await q('SELECT * FROM staff_login');
    noCanary(text, 'staff_login');
    assert.equal(env.status, 'refused');
    assert.equal(env.error?.kind, 'pii_blocked');
  });

  it('keeps values out of database error messages', async () => {
    const { env } = await q('SELECT name::int FROM staff');
    assert.equal(env.status, 'error');
    assert.equal(env.error?.kind, 'invalid_argument', 'a bad cast is the query\'s fault, not a bug');
    assert.match(env.error!.message, /integer/);
    assert.doesNotMatch(env.error!.message, /Alice|Bob|Cleo/);
    // The same on a blocked column: the error kind changed, its text still carries no value.
    for (const sql of ['SELECT api_key::numeric FROM staff WHERE id = 1', 'SELECT card_number::int FROM payment']) noCanary((await q(sql)).text, sql);
  });

  it('refuses NUL bytes and over-deep or over-wide input as invalid_argument', async () => {
    const cases = [
      'SELECT 1\u0000; DROP TABLE staff',
      `SELECT ${'ARRAY['.repeat(3000)}1${']'.repeat(3000)}`,
      Array.from({ length: 5000 }, (_, i) => `SELECT ${i}`).join(' UNION ALL '),
      `SELECT ${Array(20000).fill('1').join('+')}`, // deeper than the reader's stack
      `SELECT ${'array['.repeat(200)}1${']'.repeat(200)}`, // the server's limit of array dimensions
      `SELECT '${'['.repeat(20000)}${']'.repeat(20000)}'::jsonb`, // the server's stack depth limit
    ];
    for (const sql of cases) {
      const { env, text } = await q(sql);
      assert.equal(env.error?.kind, 'invalid_argument', text.slice(0, 300));
      assert.doesNotMatch(text, /this is a bug/);
    }
  });

  it('refuses catalog reads with the catalog tool and arguments that answer them', async () => {
    const { env } = await q("SELECT column_name FROM information_schema.columns WHERE table_name = 'payment'");
    assert.equal(env.status, 'refused');
    assert.equal(env.error?.recovery?.suggested_tool, 'describe_table');
    assert.equal(env.error?.recovery?.suggested_args?.qualified_name, 'public.payment');
  });

  it('masks a generated column computed from a blocked one, in queries and in the catalog\'s statistics', async () => {
    // pw_tail (the password's last six characters) and finder (a tsvector of name and password) are computed from
    // the blocked password: they hold it under other names.
    const secret = /W7kxQ|tailw7kxq/i;
    for (const sql of ['SELECT pw_tail, finder FROM member', 'SELECT * FROM member', 'SELECT m FROM member m', "SELECT count(*) FROM member WHERE finder @@ to_tsquery('simple', 'zq91tailw7kxq')"]) {
      const { env, text } = await q(sql);
      assert.doesNotMatch(text, secret, sql);
      if (env.status === 'degraded') assert.ok(env.data?.masked_columns?.includes('public.member.pw_tail'), `${sql}: ${JSON.stringify(env.data?.masked_columns)}`);
      else assert.equal(env.error?.kind, 'pii_blocked', `${sql}: ${text.slice(0, 300)}`);
    }
    const described = await h!.client.callTool({ name: 'describe_table', arguments: { qualified_name: 'public.member', response_format: 'detailed' } });
    // The password and both columns computed from it are tagged as credentials (so their names are redacted too).
    const data = (described.structuredContent as { data: { redacted_columns: number; columns: Array<{ name: string; type: string; pii_categories?: string[] }> } }).data;
    assert.equal(data.redacted_columns, 3, JSON.stringify(data.columns));
    assert.deepEqual(data.columns.filter((c) => c.pii_categories?.includes('credential')).map((c) => c.type), ['text', 'text', 'tsvector']);
    for (const [tool, args] of [['describe_column', { qualified_name: 'public.member.pw_tail' }], ['profile_table', { qualified_name: 'public.member', response_format: 'detailed' }]] as const) {
      const text = JSON.stringify(await h!.client.callTool({ name: tool, arguments: args }));
      assert.doesNotMatch(text, secret, tool);
    }
  });

  it('never hands rows out in the order of an index over a blocked column', async () => {
    // The planner reads `SELECT id` from the narrow covering index on ssn: in SSN order, unless told not to.
    const c = new PgClient({ connectionString: pg!.urlFor(DB) });
    await c.connect();
    const direct = (await c.query({ text: 'SELECT id FROM (SELECT id, NULL::text AS ssn, bio FROM public.citizen) c LIMIT 5', rowMode: 'array' })).rows.map((r: unknown[]) => r[0]);
    await c.end();
    assert.notDeepEqual(direct, [1, 2, 3, 4, 5], 'the masked shape alone follows the index (what the test guards against)');
    const { env } = await q('SELECT id FROM citizen LIMIT 5');
    assert.deepEqual(env.data?.rows?.map((r) => r[0]), [1, 2, 3, 4, 5], JSON.stringify(env).slice(0, 300));
  });

  it('treats a column of a composite type (or an array of one) as holding what its fields hold', async () => {
    for (const sql of ['SELECT (c).password, (arr[1]).password FROM holder', 'SELECT * FROM holder', 'SELECT h::text FROM holder h', 'SELECT c FROM holder']) {
      const { env, text } = await q(sql);
      assert.doesNotMatch(text, /CompSecret|ArrSecret/, `${sql}: ${text.slice(0, 300)}`);
      assert.ok(['degraded', 'refused'].includes(env.status), `${sql}: ${text.slice(0, 300)}`);
    }
    const described = (await h!.client.callTool({ name: 'describe_table', arguments: { qualified_name: 'public.holder' } })).structuredContent as { data: { redacted_columns?: number } };
    assert.equal(described.data.redacted_columns, 2);
  });

  it('reads a table as holding what the tables that inherit from it hold', async () => {
    for (const sql of ['SELECT * FROM notes WHERE id = 999', 'SELECT body FROM notes', 'SELECT * FROM staff_logins']) {
      const { env, text } = await q(sql);
      noCanary(text, sql);
      assert.ok(['degraded', 'refused'].includes(env.status), `${sql}: ${text.slice(0, 300)}`);
    }
    const parted = await q('SELECT * FROM events');
    noCanary(parted.text, 'events');
    assert.equal(parted.env.status, 'degraded', `a partition's column comment classifies its parent's column: ${parted.text.slice(0, 300)}`);
    const only = await q('SELECT count(*) FROM ONLY notes');
    assert.equal(only.env.status, 'success', only.text.slice(0, 300));
  });

  it('treats a column holding a composite through a domain, a range or a domain over an array as holding its fields', async () => {
    for (const sql of ['SELECT * FROM wrap_dom', 'SELECT (v).password FROM wrap_dom', 'SELECT * FROM wrap_rng', 'SELECT * FROM wrap_arr']) {
      const { env, text } = await q(sql);
      noCanary(text, sql);
      assert.ok(['degraded', 'refused', 'error'].includes(env.status), `${sql}: ${text.slice(0, 300)}`);
    }
  });

  it("treats a column of a table's row type, and a view of whole rows, as holding the table's columns", async () => {
    const shapes = [
      'SELECT (s).password, (history[1]).api_key FROM staff_snapshot',
      'SELECT reverse((s).password), reverse((s).api_key) FROM staff_snapshot',
      'SELECT s, history FROM staff_snapshot',
      'SELECT reverse(s::text) FROM staff_snapshot',
      'SELECT reverse(blob) FROM staff_blob',
      'SELECT * FROM staff_blob',
      'SELECT reverse((s).api_key) FROM staff_rows',
      'SELECT reverse(j::text) FROM staff_json',
      // Nested deeper: a composite with a field of the row type, a domain over it, a domain over an array of it.
      'SELECT reverse(((w).s).password), reverse(((w).s).api_key) FROM staff_nested',
      'SELECT * FROM staff_nested',
      'SELECT reverse((d).api_key) FROM staff_dommed',
      'SELECT reverse((arr[1]).password) FROM staff_arrs',
      'SELECT reverse(to_json(w)::text) FROM staff_nested_v',
      "SELECT id FROM staff_nested WHERE ((w).s).password LIKE 'XfF%'",
    ];
    const reversed = CANARIES.map((c) => [...c].reverse().join(''));
    for (const sql of shapes) {
      const { env, text } = await q(sql);
      noCanary(text, sql);
      for (const r of reversed) assert.ok(!text.includes(r), `${sql} leaked ${r} reversed`);
      assert.ok(['degraded', 'refused'].includes(env.status), `${sql}: ${text.slice(0, 300)}`);
    }
  });

  it('hands out rows of a table partitioned by a blocked column, or CLUSTERed on one, in no order of its values', async () => {
    for (const sql of ['SELECT array_agg(id) FROM vault', 'SELECT array_agg(id) FROM payroll']) {
      const orders = new Set<string>();
      for (let k = 0; k < 5; k++) {
        const { env, text } = await q(sql);
        assert.ok(['success', 'degraded'].includes(env.status), `${sql}: ${text.slice(0, 300)}`);
        orders.add(JSON.stringify(env.data?.rows));
      }
      assert.ok(orders.size > 1, `${sql}: the same order every time, ${[...orders][0]}`);
    }
    const described = JSON.stringify(await h!.call('describe_table', { qualified_name: 'public.vault', response_format: 'detailed' }));
    assert.ok(!/vault_a|vault_b/.test(described), `partition names of a table partitioned by a blocked column: ${described.slice(0, 300)}`);
    assert.match(described, /"partition_count":2/);
    const plain = await q('SELECT array_agg(id ORDER BY id) FROM vault');
    assert.equal(JSON.stringify(plain.env.data?.rows), JSON.stringify([[Array.from({ length: 24 }, (_, i) => i + 1)]]));
  });

  it('never answers the rows a materialized view kept from an earlier definition of a view it reads', async () => {
    const { env, text } = await q('SELECT * FROM mv_stale');
    noCanary(text, 'mv_stale');
    assert.ok(['degraded', 'refused'].includes(env.status), text.slice(0, 300));
    const plain = await q('SELECT count(*) FROM mv_ids WHERE manager_id = 1');
    assert.equal(plain.env.status, 'success', 'a materialized view over tables only is read as it is');
    assert.deepEqual(plain.env.data?.rows, [['2']]);
  });

  it('refuses a table whose columns changed since the index (renamed, added) as schema drift', async () => {
    const c = new PgClient({ connectionString: pg!.urlFor(DB) });
    await c.connect();
    try {
      // A child table or a partition attached since the index: its columns were never classified.
      await c.query(`CREATE TABLE late_child () INHERITS (late_parent); INSERT INTO late_child VALUES (2, '${PASSWORD}')`);
      await c.query(`CREATE TABLE late_pt_b PARTITION OF late_pt FOR VALUES IN (2); INSERT INTO late_pt VALUES (2, '${PASSWORD}')`);
      await c.query('ALTER TABLE swap_t RENAME COLUMN ssn TO tmp; ALTER TABLE swap_t RENAME COLUMN name TO ssn; ALTER TABLE swap_t RENAME COLUMN tmp TO name');
      await c.query("ALTER TABLE drift_plain ADD COLUMN api_password text; UPDATE drift_plain SET api_password = 'Zq-added-secret-9'");
      // A view redefined with the same column names reads another column under a plain name.
      await c.query('CREATE OR REPLACE VIEW drift_v AS SELECT id, password AS name FROM staff');
      // The same under a view that did not change: its text names the inner view only.
      await c.query('CREATE OR REPLACE VIEW drift_inner AS SELECT id, password AS name FROM staff');
    } finally {
      await c.end();
    }
    for (const sql of ["SELECT replace(name, '-', '/') FROM swap_t", 'SELECT * FROM swap_t', 'SELECT * FROM drift_plain', 'SELECT id FROM drift_plain', 'SELECT * FROM drift_v', 'SELECT * FROM drift_outer', 'SELECT name FROM drift_outer WHERE id = 1', 'SELECT * FROM late_parent', 'SELECT msg FROM late_pt']) {
      const { env, text } = await q(sql);
      assert.doesNotMatch(text, /123.45.6789|Zq-added-secret-9/, sql);
      noCanary(text, sql);
      assert.equal(env.status, 'error', `${sql}: ${text.slice(0, 300)}`);
      assert.equal(env.error?.kind, 'schema_drift', sql);
      assert.match(env.error!.message, /re-index/);
    }
  });

  it('tags jsonb, array and tsvector columns by the secrets their sampled values hold, and masks them', async () => {
    const { env, text } = await q('SELECT doc, words, terms FROM staff_docs');
    noCanary(text, 'staff_docs');
    assert.equal(env.status, 'degraded', text.slice(0, 300));
    const masked = (env.data as unknown as { masked_columns?: string[] }).masked_columns ?? [];
    for (const c of ['doc', 'words']) assert.ok(masked.some((m) => m.endsWith(`.${c}`)), `${c} masked: ${JSON.stringify(masked)}`);
  });

  it("resolves an unqualified name as the checks do: a schema named after the role cannot put a relation first", async () => {
    const c = new PgClient({ connectionString: pg!.urlFor(DB) });
    await c.connect();
    try {
      const role = (await c.query<{ u: string }>('SELECT current_user AS u')).rows[0]!.u;
      await c.query(`CREATE SCHEMA IF NOT EXISTS "${role}"; CREATE VIEW "${role}".shadowed AS SELECT id, password AS label FROM public.staff`);
      const { env, text } = await q('SELECT * FROM shadowed');
      noCanary(text, 'shadowed');
      assert.ok(['success', 'degraded'].includes(env.status), text.slice(0, 300));
      assert.match(text, /innocuous/, 'public.shadowed, as the catalog has it');
      await c.query(`DROP SCHEMA "${role}" CASCADE`);
    } finally {
      await c.end();
    }
  });

  it('reads strings as the guard read them when the database sets standard_conforming_strings = off', async () => {
    // With the setting off, PostgreSQL reads \' inside '…' as an escaped quote: the guard sees one string literal
    // here, the server a second column, password, and a comment.
    const sql = "SELECT 'x\\' || ' , password AS b FROM staff --' AS c FROM staff WHERE id = 1";
    const admin = new PgClient({ connectionString: pg!.urlFor(DB) });
    await admin.connect();
    let fresh: Harness | undefined;
    try {
      await admin.query(`ALTER DATABASE ${DB} SET standard_conforming_strings = off`);
      fresh = await startHarness({ catalogPath }); // new connections, which take the database's setting
      const res = await fresh.client.callTool({ name: 'run_query', arguments: { sql } });
      const text = JSON.stringify(res);
      noCanary(text, 'standard_conforming_strings off');
      const env = res.structuredContent as Env;
      assert.equal(env.status, 'success', text.slice(0, 400));
      assert.deepEqual(env.data?.rows, [['x\\ , password AS b FROM staff --']], 'one literal, as the guard parsed it');
    } finally {
      await admin.query(`ALTER DATABASE ${DB} RESET standard_conforming_strings`);
      await admin.end();
      await fresh?.close();
    }
  });

  it('shows definitions that name a blocked column with its placeholder and without their literals', async () => {
    for (const table of ['public.staff_login', 'public.staff_vip', 'public.staff', 'public.payment', 'public.citizen']) {
      const res = await h!.client.callTool({ name: 'describe_table', arguments: { qualified_name: table, response_format: 'detailed' } });
      const text = JSON.stringify(res.structuredContent);
      assert.doesNotMatch(text, /password|api_key|card_number|sklive4eC39HqLy|4111111111111111|citizen_ssn/, `${table}: ${text.slice(0, 600)}`);
    }
    const vip = (await h!.client.callTool({ name: 'describe_table', arguments: { qualified_name: 'public.staff_vip', response_format: 'detailed' } })).structuredContent as { data: { view_definition: string } };
    assert.match(vip.data.view_definition, /<redacted_column>.*'…'/s);
  });

  it('tags free text holding card numbers and keeps them out of every tool', async () => {
    const calls: Array<[string, Record<string, unknown>]> = [
      ['describe_table', { qualified_name: 'public.ticket', response_format: 'detailed' }],
      ['describe_column', { qualified_name: 'public.ticket.memo' }],
      ['profile_table', { qualified_name: 'public.ticket', response_format: 'detailed' }],
      ['run_query', { sql: "SELECT 'paid with ' || '4716461583322103' AS note" }],
    ];
    for (const [tool, args] of calls) {
      const res = await h!.client.callTool({ name: tool, arguments: args });
      const text = JSON.stringify(res);
      assert.ok(!text.includes(MEMO_CARD), `${tool} leaked the memo card`);
      if (tool === 'run_query') assert.ok(!text.includes('"paid with 4716461583322103"'), 'a card built in the query itself is redacted on the way out');
    }
    const memo = await q('SELECT memo FROM ticket WHERE id = 2');
    assert.equal(memo.env.status, 'degraded');
    assert.deepEqual(memo.env.data?.masked_columns, ['public.ticket.memo']);
  });
});
