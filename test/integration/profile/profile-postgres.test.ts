import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { EnvelopeSchema } from '../../../src/core/envelope';
import { getTestPostgres } from '../../support/pg';
import type { TestPostgres } from '../../support/pg';
import { indexInto, startHarness, tempDir } from '../../support/server-harness';
import { postgresServerAnswers } from '../../support/pg';
import type { Harness } from '../../support/server-harness';

/**
 * profile_table against a real PostgreSQL database with planted quality problems: NULLs in a name column, a
 * duplicated code, orphaned customer ids with no declared foreign key, an orphan behind a NOT VALID foreign key,
 * future and pre-1900 dates, a floor-blocked credential column, and a column literally named `<script>`.
 */

const DB = 'sb_prof_quality';

const SETUP = `
DROP SCHEMA IF EXISTS shop CASCADE;
CREATE SCHEMA shop;
CREATE TABLE shop.customers (
  id integer PRIMARY KEY,
  code text,
  name text,
  email text,
  password_hash text,
  "<script>" text,
  created_at timestamptz NOT NULL DEFAULT now(),
  birth_date date
);
INSERT INTO shop.customers (id, code, name, email, password_hash, "<script>", created_at, birth_date)
SELECT g,
       CASE WHEN g IN (7, 8, 9) THEN 'C-DUP' ELSE 'C-' || g END,
       CASE WHEN g % 10 = 0 THEN NULL ELSE 'Customer ' || g END,
       'person' || g || '@example.org',
       '$2b$12$' || md5(g::text) || md5((g * 7)::text),
       '<b>v' || (g % 3) || '</b>',
       CASE WHEN g IN (11, 12) THEN now() + interval '400 days' ELSE now() - (g || ' days')::interval END,
       CASE WHEN g = 5 THEN DATE '1850-06-01' ELSE DATE '1980-01-01' + g END
FROM generate_series(1, 60) g;
CREATE TABLE shop.orders (
  id integer PRIMARY KEY,
  customer_id integer,
  order_date date,
  total numeric(10,2)
);
INSERT INTO shop.orders SELECT g, CASE WHEN g > 95 THEN 900 + g ELSE 1 + g % 60 END, DATE '2024-01-01' + g, g * 1.5 FROM generate_series(1, 100) g;
CREATE TABLE shop.order_lines (id integer PRIMARY KEY, order_id integer, qty integer);
INSERT INTO shop.order_lines SELECT g, CASE WHEN g = 3 THEN 5000 ELSE g END, 1 FROM generate_series(1, 20) g;
ALTER TABLE shop.order_lines ADD CONSTRAINT order_lines_order_fk FOREIGN KEY (order_id) REFERENCES shop.orders (id) NOT VALID;
ANALYZE;
`;

type Env = { status: string; data: Record<string, unknown> | null; error: { kind: string } | null; confidence: string | null };
type Finding = { kind: string; severity: string; column: string; count: number; checked: number; examples?: string[]; references?: string; basis?: string };
type Column = { name: string; min?: string; max?: string; top_values?: unknown[]; redacted?: boolean; pii_categories?: string[]; null_fraction: number | null; distinct_estimate: number | null };

describe('profile_table on PostgreSQL with planted quality problems', function () {
  let pg: TestPostgres;
  let h: Harness;
  const previousHome = process.env.SCHEMABRAIN_HOME;
  const call = async (args: Record<string, unknown>): Promise<Env> => {
    const env = await h.call('profile_table', args);
    const r = EnvelopeSchema.safeParse(env);
    assert.ok(r.success, `invalid envelope: ${JSON.stringify(r.error?.issues)}`);
    return env as unknown as Env;
  };

  before(async function () {
    // Needs a real server (psql/pg_dump or server-wide settings); the embedded engine covers the rest of the suite.
    if (!(await postgresServerAnswers())) this.skip();
    pg = await getTestPostgres();
    await pg.ensureDatabase(DB);
    const c = new Client({ connectionString: pg.urlFor(DB) });
    await c.connect();
    try {
      await c.query(SETUP);
    } finally {
      await c.end();
    }
    const dir = tempDir('sb-prof-pg-');
    process.env.SCHEMABRAIN_HOME = path.join(dir, 'home');
    const catalog = path.join(dir, 'catalog.sqlite');
    await indexInto(catalog, pg.urlFor(DB), 'shop');
    h = await startHarness({ catalogPath: catalog });
  });
  after(async () => {
    await h?.close();
    await pg?.stop();
    if (previousHome === undefined) delete process.env.SCHEMABRAIN_HOME;
    else process.env.SCHEMABRAIN_HOME = previousHome;
  });

  it('finds NULLs in a name column, the duplicated code, and future and pre-1900 dates in customers', async () => {
    const env = await call({ qualified_name: 'shop.customers', response_format: 'detailed' });
    assert.equal(env.status, 'success');
    assert.equal(env.confidence, 'HIGH');
    const findings = env.data!.findings as Finding[];
    const by = (kind: string, column: string) => findings.find((f) => f.kind === kind && f.column === column);

    const nulls = by('unexpected_nulls', 'name');
    assert.ok(nulls, JSON.stringify(findings));
    assert.equal(nulls.count, 6);
    assert.equal(nulls.checked, 60);
    assert.equal(nulls.severity, 'high');

    const dup = by('duplicate_candidate_key', 'code');
    assert.ok(dup, JSON.stringify(findings));
    assert.equal(dup.count, 1);
    assert.deepEqual(dup.examples, ['C-DUP']);

    const future = by('future_date', 'created_at');
    assert.ok(future, JSON.stringify(findings));
    assert.equal(future.count, 2);
    assert.equal(future.severity, 'high');

    const ancient = by('ancient_date', 'birth_date');
    assert.ok(ancient, JSON.stringify(findings));
    assert.equal(ancient.count, 1);
    // birth_date is PII-tagged: the finding counts it but shows no value.
    const cols = env.data!.columns as Column[];
    if ((cols.find((c) => c.name === 'birth_date')?.pii_categories ?? []).length > 0) assert.equal(ancient.examples, undefined);
    else assert.deepEqual(ancient.examples, ['1850-06-01']);
  });

  it('finds orphaned customer ids by name match and an orphan behind a NOT VALID foreign key, with a bounded anti-join', async () => {
    const orders = await call({ qualified_name: 'shop.orders', response_format: 'detailed' });
    const f = (orders.data!.findings as Finding[]).find((x) => x.kind === 'orphaned_reference');
    assert.ok(f, JSON.stringify(orders.data!.findings));
    assert.equal(f.column, 'customer_id');
    assert.equal(f.basis, 'name_match');
    assert.equal(f.references, 'shop.customers.id');
    assert.equal(f.count, 5);
    assert.equal(f.checked, 100);
    assert.deepEqual([...f.examples!].sort(), ['996', '997', '998', '999', '1000'].sort());

    const lines = await call({ qualified_name: 'shop.order_lines' });
    const g = (lines.data!.findings as Finding[]).find((x) => x.kind === 'orphaned_reference');
    assert.ok(g, JSON.stringify(lines.data!.findings));
    assert.equal(g.basis, 'declared_fk');
    assert.equal(g.severity, 'high');
    assert.equal(g.count, 1);
    assert.deepEqual(g.examples, ['5000']);
  });

  it('hides the floor-blocked credential column behind a placeholder and shows only counts for PII-tagged columns', async () => {
    const env = await call({ qualified_name: 'shop.customers', response_format: 'detailed' });
    const cols = env.data!.columns as Column[];
    assert.ok(!cols.some((c) => c.name === 'password_hash'), 'the blocked column name never appears');
    const blocked = cols.find((c) => c.redacted);
    assert.ok(blocked, JSON.stringify(cols.map((c) => c.name)));
    assert.match(blocked.name, /^<redacted_credential_column_\d+>$/);
    assert.equal(blocked.min, undefined);
    assert.equal(blocked.top_values, undefined);
    // Its NULL count only: how many distinct values it holds would tell rows apart by a value the agent may not read.
    assert.equal(blocked.distinct_estimate, null);
    assert.equal(typeof blocked.null_fraction, 'number');
    assert.ok(!(env.data!.findings as Finding[]).some((f) => f.column === blocked.name && f.kind !== 'unexpected_nulls' && f.kind !== 'high_null_fraction'), 'no value-based finding on the blocked column');
    const email = cols.find((c) => c.name === 'email')!;
    assert.ok((email.pii_categories ?? []).length > 0);
    assert.equal(email.min, undefined);
    const text = JSON.stringify(env.data);
    assert.doesNotMatch(text, /\$2b\$12\$/);
    assert.doesNotMatch(text, /person\d+@example\.org/);
    const artifacts = env.data!.artifacts as Record<string, string>;
    for (const p of Object.values(artifacts)) {
      const body = fs.readFileSync(p, 'utf8');
      assert.doesNotMatch(body, /\$2b\$12\$/, `${path.basename(p)} holds no hash`);
      assert.doesNotMatch(body, /person\d+@example\.org/, `${path.basename(p)} holds no e-mail address`);
      assert.doesNotMatch(body, /password_hash/, `${path.basename(p)} does not name the blocked column`);
    }
  });

  it('writes HTML that escapes a column named <script> and its values, and JSON that parses', async () => {
    const env = await call({ qualified_name: 'shop.customers' });
    const artifacts = env.data!.artifacts as Record<string, string>;
    const html = fs.readFileSync(artifacts.profile_html!, 'utf8');
    assert.doesNotMatch(html, /<script>/i);
    assert.doesNotMatch(html, /<b>v\d<\/b>/);
    assert.match(html, /&lt;script&gt;/);
    assert.match(html, /&lt;b&gt;v\d&lt;\/b&gt;/);
    assert.match(html, /Content-Security-Policy/);
    const q = fs.readFileSync(artifacts.quality_html!, 'utf8');
    assert.doesNotMatch(q, /<script/i);
    const doc = JSON.parse(fs.readFileSync(artifacts.profile_json!, 'utf8')) as { columns: Column[] };
    assert.ok(doc.columns.some((c) => c.name === '<script>'));
    const qdoc = JSON.parse(fs.readFileSync(artifacts.quality_json!, 'utf8')) as { findings: Finding[] };
    assert.ok(qdoc.findings.length >= 4);
  });

  it('samples a large table with TABLESAMPLE instead of reading it whole', async () => {
    const c = new Client({ connectionString: pg.urlFor(DB) });
    await c.connect();
    try {
      await c.query('DROP TABLE IF EXISTS shop.events; CREATE TABLE shop.events AS SELECT g AS id, g % 17 AS kind FROM generate_series(1, 50000) g; ANALYZE shop.events');
    } finally {
      await c.end();
    }
    const catalog = h.catalogPath;
    await indexInto(catalog, pg.urlFor(DB), 'shop');
    const env = await call({ qualified_name: 'shop.events', sample_rows: 500, response_format: 'detailed' });
    assert.equal(env.status, 'success');
    const s = env.data!.sample as { method: string; rows: number; complete: boolean; sql: string };
    assert.equal(s.method, 'bernoulli');
    assert.match(s.sql, /TABLESAMPLE BERNOULLI \([\d.]+\) REPEATABLE/);
    assert.ok(s.rows > 0 && s.rows <= 500, `rows ${s.rows}`);
    assert.equal(s.complete, false);
    assert.equal(env.confidence, 'MEDIUM');
  });
});
