import assert from 'node:assert/strict';
import { loadSqlGuard } from '../../../src/core/sql/guard';
import { maskPostgres, type RelationLookup } from '../../../src/core/sql/pg-mask';
import { safeDatabaseMessage } from '../../../src/core/sql/error-text';
import { findFloorSecrets, redactDeep, redactFloorSecrets, embeddedSecretCategories } from '../../../src/core/pii/secrets';
import { isBlocked, parsePolicyYaml, applyOverrides, findOverride } from '../../../src/core/pii';

const STAFF: RelationLookup = {
  kind: 'masked',
  schema: 'public',
  table: 'staff',
  columns: [
    { name: 'id', type: 'integer', masked: false },
    { name: 'password', type: 'text', masked: true },
  ],
};
const resolve = (schema: string | null, table: string): RelationLookup => (table === 'staff' && (schema ?? 'public') === 'public' ? STAFF : table === 'dept' ? { kind: 'plain' } : { kind: 'unknown' });
const DERIVED = '(SELECT "id", NULL::text AS "password" FROM "public"."staff")';

function masked(sql: string): string {
  const m = maskPostgres(sql, resolve);
  assert.ok(m.ok, m.ok ? '' : m.message);
  return m.sql;
}

describe('masking at the source (PostgreSQL rewrite)', function () {
  before(async () => {
    await loadSqlGuard();
  });

  it('replaces every reference, keeping aliases, alias lists, ONLY and TABLE', () => {
    assert.equal(masked('SELECT s FROM staff s'), `SELECT s FROM ${DERIVED} s`);
    assert.equal(masked('SELECT * FROM public.staff'), `SELECT * FROM ${DERIVED} AS "staff"`);
    assert.equal(masked('SELECT b FROM staff AS u(a, b)'), `SELECT b FROM ${DERIVED} AS u(a, b)`);
    assert.equal(masked('SELECT * FROM ONLY staff x'), 'SELECT * FROM (SELECT "id", NULL::text AS "password" FROM ONLY "public"."staff") x');
    assert.equal(masked('TABLE staff'), `SELECT * FROM ${DERIVED} AS "staff"`);
    assert.equal(masked('SELECT public.staff.password FROM public.staff'), `SELECT staff.password FROM ${DERIVED} AS "staff"`);
    assert.equal(masked('SELECT 1 UNION SELECT id FROM dept WHERE EXISTS (SELECT 1 FROM staff)'), `SELECT 1 UNION SELECT id FROM dept WHERE EXISTS (SELECT 1 FROM ${DERIVED} AS "staff")`);
  });

  it('follows CTE scope: a CTE name hides the table only where it is visible', () => {
    // the CTE body of a non-recursive WITH reads the real table of the same name
    assert.equal(masked('WITH staff AS (SELECT * FROM staff) SELECT * FROM staff'), `WITH staff AS (SELECT * FROM ${DERIVED} AS "staff") SELECT * FROM staff`);
    // an inner CTE does not hide the outer table
    const sql = masked('SELECT * FROM staff, (WITH staff AS (SELECT 1 AS x) SELECT * FROM staff) s');
    assert.ok(sql.startsWith(`SELECT * FROM ${DERIVED} AS "staff",`), sql);
    // a later CTE is not visible to an earlier one
    assert.ok(masked('WITH a AS (SELECT * FROM staff), staff AS (SELECT 1) SELECT * FROM a').includes(DERIVED));
  });

  it('refuses unknown relations and filters on blocked columns, and lists reached masked columns', () => {
    const u = maskPostgres('SELECT * FROM ghost', resolve);
    assert.ok(!u.ok && u.reason === 'unknown_relation');
    const f = maskPostgres("SELECT id FROM staff WHERE password LIKE 'a%'", resolve);
    assert.ok(!f.ok && f.reason === 'filters_blocked' && f.column === 'public.staff.password');
    const o = maskPostgres('SELECT id FROM staff s ORDER BY s.password', resolve);
    assert.ok(!o.ok && o.reason === 'filters_blocked');
    const n = maskPostgres('SELECT count(*) FROM staff WHERE password IS NULL', resolve);
    assert.ok(n.ok && n.sql.includes('CAST(CASE WHEN "password" IS NULL THEN NULL ELSE \'\' END AS text)'), n.ok ? n.sql : n.message);
    const plain = maskPostgres('SELECT id FROM staff', resolve);
    assert.ok(plain.ok && plain.maskedColumns.length === 0);
    const whole = maskPostgres('SELECT row_to_json(s) FROM staff s', resolve);
    assert.ok(whole.ok && whole.maskedColumns.includes('public.staff.password'));
  });
});

describe('database errors without values', () => {
  it('strips quoted values from data exceptions and withholds RAISE text', () => {
    assert.equal(safeDatabaseMessage('invalid input syntax for type uuid: "sk_live_abc"', '22P02'), 'invalid input syntax for type uuid: "…"');
    assert.equal(safeDatabaseMessage('invalid byte sequence for encoding "UTF8": 0x00', '22021'), 'invalid byte sequence for encoding "…": 0x…');
    assert.match(safeDatabaseMessage('secret is hunter2', 'P0001'), /withheld/);
    assert.equal(safeDatabaseMessage('relation "ghost" does not exist', '42P01'), 'relation "ghost" does not exist');
  });
});

describe('floor secrets in free text', () => {
  it('finds and redacts cards, SSNs, keys, JWTs and private keys inside text', () => {
    const text = 'paid with 4539 5787 6362 1486, ssn 536-22-8714, key sk_live_4eC39HqLyjWDarjtT1zdp7dc; -----BEGIN RSA PRIVATE KEY-----\nabc\n-----END RSA PRIVATE KEY-----';
    assert.deepEqual(findFloorSecrets(text).map((h) => h.label).sort(), ['api_key', 'card', 'private_key', 'ssn']);
    const r = redactFloorSecrets(text);
    assert.equal(r.count, 4);
    assert.doesNotMatch(r.text, /4539|536-22|sk_live|BEGIN RSA/);
    assert.equal(redactFloorSecrets('order 1234567890123 shipped 2024-01-02').count, 0);
    const deep = redactDeep({ rows: [['ok', 'card 4539578763621486']], ['sk_live_4eC39HqLyjWDarjtT1zdp7dc']: 1 });
    assert.equal(deep.count, 2);
  });

  it('tags a column when at least two sampled values (or one in ten) hold a floor secret', () => {
    assert.deepEqual(embeddedSecretCategories(['hello', 'card 4539578763621486 exp 04/29', 'call 536-22-8714', 'card 4716461583322103']), ['payment_card', 'government_id']);
    assert.deepEqual(embeddedSecretCategories(Array.from({ length: 30 }, (_, i) => `ticket ${i} is fine`)), []);
  });
});

describe('operator block of single columns', () => {
  it('blocks the named column without blocking its category', () => {
    const policy = parsePolicyYaml('version: 1\ncolumn_overrides:\n  crm:public.customers.contact: { categories: [contact], block: true }\n');
    const tag = applyOverrides({ categories: ['contact'], sensitivity: 'pii', confidence: 0.9, signals: ['name:contact'], origin: 'classifier' }, findOverride(policy, 'crm', 'public', 'customers', 'contact'));
    assert.ok(isBlocked(tag, policy));
    assert.ok(!isBlocked({ categories: ['contact'], sensitivity: 'pii', confidence: 0.9, signals: ['name:email'], origin: 'classifier' }, policy));
  });
});
