import assert from 'node:assert/strict';
import type { ColumnInfo, PiiTag, TableInfo } from '../../../src/core/catalog/model';
import { decodeTableBody, encodeTableBody } from '../../../src/core/catalog/store';
import { withGeneratedLineage, withLineage, withRowTypeLineage, withViewLineage } from '../../../src/core/pii/lineage';
import { applyOverrides, createPolicy, findOverride, isBlocked } from '../../../src/core/pii/policy';
import { propagate } from '../../../src/core/pii/propagate';
import type { StoredPiiPolicy } from '../../../src/core/store/team-state';
import { TeamPiiPolicy } from '../../../src/server/team/team-pii';

const CREDENTIAL: PiiTag = { categories: ['credential'], sensitivity: 'pii', confidence: 0.9, signals: ['name:password'], origin: 'classifier' };
const CONTACT: PiiTag = { categories: ['contact'], sensitivity: 'pii', confidence: 0.8, signals: ['name:email'], origin: 'classifier' };

function col(name: string, extra: Partial<ColumnInfo> = {}): ColumnInfo {
  return { name, ordinal: 0, dataType: 'text', isNullable: true, defaultExpr: null, isGenerated: false, isIdentity: false, comment: null, enumLabels: null, stats: null, pii: null, ...extra };
}

const gen = (name: string, expr: string | null, extra: Partial<ColumnInfo> = {}): ColumnInfo => col(name, { isGenerated: true, defaultExpr: expr, ...extra });

describe('generated columns take the tags of the columns they are computed from', () => {
  it('reads the names a PostgreSQL or MySQL expression uses, quoted or not, in any case', () => {
    const out = withGeneratedLineage([
      col('Password', { pii: CREDENTIAL }),
      col('email', { pii: CONTACT }),
      col('note'),
      gen('tail', 'right("Password", 4)'),
      gen('both', 'GENERATED ALWAYS AS (concat(`EMAIL`, note, password)) STORED'),
      gen('plain', "upper(note) || 'password'"),
    ]);
    assert.deepEqual(out[3]!.pii?.categories, ['credential']);
    assert.ok(out[3]!.pii?.signals.includes('generated_from:Password'));
    assert.deepEqual([...out[4]!.pii!.categories].sort(), ['contact', 'credential']);
    // A word in a string literal that names a tagged column counts too: it can only block more.
    assert.deepEqual(out[5]!.pii?.categories, ['credential']);
    assert.equal(out[2]!.pii, null, 'a column that is not generated keeps its own tag');
  });

  it('fails closed where the expression is not known (SQLite): every tagged column of the table', () => {
    const out = withGeneratedLineage([col('ssn', { pii: { ...CREDENTIAL, categories: ['government_id'] } }), col('name'), gen('digits', null)]);
    assert.deepEqual(out[2]!.pii?.categories, ['government_id']);
  });

  it('follows generated columns built on generated columns, and keeps its input when nothing is tagged', () => {
    const chain = withGeneratedLineage([gen('c', 'b || 1'), gen('b', 'a || 1'), col('a', { pii: CREDENTIAL })]);
    assert.deepEqual(chain.map((c) => c.pii?.categories ?? null), [['credential'], ['credential'], ['credential']]);
    const clean = [col('a'), gen('b', 'a || 1')];
    assert.equal(withGeneratedLineage(clean), clean);
  });

  it('applies when a catalog written before is read, and drops the values its statistics held', () => {
    const stats = { nullFraction: 0, distinctEstimate: 30, mostCommonValues: ['W7kxQ'], mostCommonFreqs: [0.1], minValue: 'A7kxQ', maxValue: 'Z7kxQ', avgWidth: 6, origin: 'pg_stats' as const };
    const table: TableInfo = {
      schema: 'public',
      name: 'member',
      kind: 'table',
      comment: null,
      rowEstimate: 30,
      columns: [col('password', { pii: CREDENTIAL }), gen('pw_tail', 'right(password, 6)', { stats })],
      primaryKey: null,
      uniqueConstraints: [],
      checkConstraints: [],
      foreignKeys: [],
      indexes: [],
      partitions: [],
      viewDefinition: null,
      fingerprint: 'x',
    };
    const read = decodeTableBody(encodeTableBody(table));
    const tail = read.columns[1]!;
    assert.deepEqual(tail.pii?.categories, ['credential']);
    assert.deepEqual(tail.stats, { ...stats, mostCommonValues: null, mostCommonFreqs: null, minValue: null, maxValue: null });
  });
});

describe('view columns take the tags of the columns they read', () => {
  const GOV: PiiTag = { ...CREDENTIAL, categories: ['government_id'] };
  const CARD: PiiTag = { ...CREDENTIAL, categories: ['payment_card'] };
  const rel = (name: string, kind: string, columns: ColumnInfo[], viewDefinition: string | null = null) => ({ schema: 'public', name, kind, viewDefinition, columns });
  const customers = rel('customers', 'table', [col('id'), col('ssn', { pii: GOV }), col('card', { pii: CARD }), col('city')]);
  const tags = (r: { columns: readonly ColumnInfo[] }): Record<string, readonly string[] | null> => Object.fromEntries(r.columns.map((c) => [c.name, c.pii?.categories ?? null]));

  it('maps each column of a plain SELECT to what its expression reads (PostgreSQL normalised and hand-written SQL)', () => {
    const [, pg, lite] = withViewLineage([
      customers,
      rel('ref', 'materialized_view', [col('id'), col('ref_code'), col('last4'), col('city'), col('town')], ' SELECT customers.id,\n    customers.ssn AS ref_code,\n    "right"(customers.card, 4) AS last4,\n    customers.city, upper(customers.city) AS town\n   FROM customers;'),
      rel('lite', 'view', [col('id'), col('code'), col('dups'), col('ssn')], 'select c.id, c.ssn code, (select count(*) from customers x where x.card = c.card) as dups, c.ssn from customers c'),
    ]);
    assert.deepEqual(tags(pg!), { id: null, ref_code: ['government_id'], last4: ['payment_card'], city: null, town: null });
    assert.deepEqual(tags(lite!), { id: null, code: ['government_id'], dups: ['payment_card'], ssn: ['government_id'] });
  });

  it('fails closed where the definition is not one plain SELECT: every renamed column takes every tag read', () => {
    const [, nested, union] = withViewLineage([
      customers,
      rel('nested', 'view', [col('r'), col('city')], 'select z.r, z.city from (select ssn as r, city from customers) z'),
      rel('both', 'view', [col('v')], 'select city as v from customers union all select card as v from customers'),
    ]);
    assert.deepEqual(tags(nested!), { r: ['government_id'], city: null });
    assert.deepEqual(tags(union!), { v: ['payment_card'] });
  });

  it('follows views over views, and leaves a view that reads no tagged column as it was', () => {
    const clean = rel('towns', 'view', [col('city')], 'select city from customers');
    const out = withViewLineage([rel('outer', 'view', [col('x')], 'select inner_v.k as x from inner_v'), customers, clean, rel('inner_v', 'view', [col('k')], 'select ssn as k from customers')]);
    assert.deepEqual(tags(out[0]!), { x: ['government_id'] });
    assert.equal(out[2], clean);
  });

  it('gives a column built from a whole row every tag of that row, and leaves qualified columns to their own tags', () => {
    const users = rel('users', 'table', [col('id'), col('email', { pii: CONTACT }), col('password', { pii: CREDENTIAL }), col('city')]);
    const [, json, text, agg, qualified] = withViewLineage([
      users,
      rel('wv1', 'view', [col('id'), col('blob')], ' SELECT u.id,\n    row_to_json(u.*)::text AS blob\n   FROM users u;'),
      rel('wv2', 'view', [col('id'), col('blob')], 'select id, u::text as blob from users u'),
      rel('wv5', 'view', [col('id'), col('allrows')], "select id, (select string_agg(t::text, ',') from users t) as allrows from users"),
      rel('wq', 'view', [col('id'), col('town')], 'select u.id, u.city as town from users u, customers where u.id = 1'),
    ]);
    for (const v of [json, text, agg]) assert.deepEqual([...(v!.columns[1]!.pii?.categories ?? [])].sort(), ['contact', 'credential'], v!.name);
    assert.equal(json!.columns[0]!.pii, null);
    assert.deepEqual(tags(qualified!), { id: null, town: null });
  });
});

describe('whole rows: row-type columns, `t.*` as a value or an item', () => {
  const rel = (name: string, kind: string, columns: ColumnInfo[], viewDefinition: string | null = null) => ({ schema: 'public', name, kind, viewDefinition, columns });
  const users = rel('users', 'table', [col('id'), col('email', { pii: CONTACT }), col('password', { pii: CREDENTIAL })]);

  it('a view that casts a whole row (`u.*::text`, `(u.*)::users`) or passes `u.*` through holds every column', () => {
    const out = withViewLineage([
      users,
      rel('v_blob', 'view', [col('id'), col('blob')], ' SELECT u.id,\n    u.*::text AS blob\n   FROM users u;'),
      rel('v_row', 'view', [col('u', { dataType: 'users' })], ' SELECT (u.*)::users AS u\n   FROM users u;'),
      rel('v_star', 'view', [col('id'), col('email'), col('password')], 'select u.* from users u'),
      rel('v_bare', 'view', [col('id'), col('email')], 'SELECT * FROM users'),
      rel('v_count', 'view', [col('n')], 'SELECT count(*) AS n FROM users'),
    ]);
    assert.equal(out[1]!.columns[0]!.pii, null);
    assert.deepEqual([...out[1]!.columns[1]!.pii!.categories].sort(), ['contact', 'credential']);
    assert.deepEqual([...out[2]!.columns[0]!.pii!.categories].sort(), ['contact', 'credential']);
    assert.deepEqual(out[3]!.columns.map((c) => c.pii?.categories ?? null), [null, ['contact'], ['credential']]);
    assert.deepEqual(out[4]!.columns.map((c) => c.pii?.categories ?? null), [null, ['contact']]);
    assert.equal(out[5]!.columns[0]!.pii, null, 'count(*) reads no value');
  });

  it('a column named inside an array constructor or subscript counts (`unnest(ARRAY[users.password])`)', () => {
    const out = withViewLineage([
      users,
      rel('v_unnest', 'view', [col('z'), col('w')], ' SELECT unnest(ARRAY[users.password]) AS z,\n    (ARRAY[users.id, 2])[1] AS w\n   FROM users;'),
    ]);
    assert.deepEqual(out[1]!.columns[0]!.pii?.categories, ['credential']);
    assert.equal(out[1]!.columns[1]!.pii, null);
    const gen = withGeneratedLineage([col('password', { pii: CREDENTIAL }), col('g', { isGenerated: true, defaultExpr: 'ARRAY[password][1]' })]);
    assert.deepEqual(gen[1]!.pii?.categories, ['credential']);
  });

  it('a column of a relation row type, or an array of it, holds what the relation holds', () => {
    const out = withRowTypeLineage([
      users,
      rel('snap', 'table', [col('id'), col('u', { dataType: 'users' }), col('h', { dataType: 'public.users[]' }), col('q', { dataType: '"Users"' }), col('other', { dataType: 'user_kind' })]),
    ]);
    const snap = out[1]!.columns;
    assert.deepEqual([...snap[1]!.pii!.categories].sort(), ['contact', 'credential']);
    assert.ok(snap[1]!.pii!.signals.includes('row_type:users'));
    assert.deepEqual([...snap[2]!.pii!.categories].sort(), ['contact', 'credential']);
    assert.deepEqual([...snap[3]!.pii!.categories].sort(), ['contact', 'credential'], 'quoted names compare without case: fail closed');
    assert.equal(snap[0]!.pii, null);
    assert.equal(snap[4]!.pii, null);
  });
});

describe('a column the operator blocks by name blocks what is derived from it', () => {
  const policy = createPolicy({
    columnOverrides: {
      'public.users.secret_note': { categories: [], sensitivity: 'public', block: true, force: false },
      'public.users.plan': { categories: ['behavioral'], sensitivity: 'internal', block: true, force: false },
    },
  });
  const users = (): TableInfo =>
    ({
      schema: 'public',
      name: 'users',
      kind: 'table',
      viewDefinition: null,
      columns: [
        col('id'),
        col('secret_note', { pii: applyOverrides(null, findOverride(policy, 'src', 'public', 'users', 'secret_note')) }),
        col('plan', { pii: applyOverrides(null, findOverride(policy, 'src', 'public', 'users', 'plan')) }),
        gen('note_full', "secret_note || ''"),
        gen('plan_tail', 'right(plan, 3)'),
      ],
    }) as unknown as TableInfo;
  const view = (name: string, def: string, cols: string[]): TableInfo =>
    ({ schema: 'public', name, kind: 'view', viewDefinition: def, columns: cols.map((c) => col(c)) }) as unknown as TableInfo;

  it('generated columns, views (renamed, passed through, over views) and row types, with or without categories', () => {
    const out = withLineage([
      users(),
      view('v_code', 'SELECT users.id, users.secret_note AS code FROM users', ['id', 'code']),
      view('v_plan', 'SELECT id, plan FROM users', ['id', 'plan']),
      view('v_over', 'SELECT code AS c2 FROM v_code', ['c2']),
      { schema: 'public', name: 'snap', kind: 'table', viewDefinition: null, columns: [col('u', { dataType: 'users' })] } as unknown as TableInfo,
    ]);
    const tag = (t: string, c: string) => out.find((r) => r.name === t)!.columns.find((x) => x.name === c)!.pii;
    for (const [t, c] of [['users', 'secret_note'], ['users', 'plan'], ['users', 'note_full'], ['users', 'plan_tail'], ['v_code', 'code'], ['v_plan', 'plan'], ['v_over', 'c2'], ['snap', 'u']] as const) {
      assert.ok(isBlocked(tag(t, c), policy), `${t}.${c} is blocked: ${JSON.stringify(tag(t, c))}`);
      assert.ok(isBlocked(tag(t, c), createPolicy()), `${t}.${c} is blocked whatever the policy the server runs`);
    }
    assert.equal(tag('v_code', 'id'), null);
    assert.equal(isBlocked(propagate([CONTACT, null]), createPolicy()), false, 'an unblocked category alone does not block');
  });

  it('on the team server, an override published after the index reaches the views and generated columns over it', () => {
    const team = new TeamPiiPolicy(createPolicy());
    team.load({ id: 1, body: 'version: 1\ncolumn_overrides:\n  public.users.secret_note: { block: true }\n', roleBlock: {} } as unknown as StoredPiiPolicy);
    const plain = users();
    const tables = [{ ...plain, columns: plain.columns.map((c) => ({ ...c, pii: null })) }, view('v_code', 'SELECT users.id, users.secret_note AS code FROM users', ['id', 'code'])];
    const out = team.overrideTables('src', tables);
    const tag = (t: string, c: string) => out.find((r) => r.name === t)!.columns.find((x) => x.name === c)!.pii;
    for (const [t, c] of [['users', 'secret_note'], ['users', 'note_full'], ['v_code', 'code']] as const) assert.ok(isBlocked(tag(t, c), createPolicy()), `${t}.${c}`);
    assert.equal(tag('users', 'plan'), null);
    assert.equal(team.overrideTables('other', [tables[1]!])[0], tables[1], 'no override for the source: the tables as they were');
  });
});
