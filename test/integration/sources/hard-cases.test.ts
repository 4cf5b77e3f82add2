import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client as PgClient } from 'pg';
import initSqlJs from 'sql.js';
import type { TableInfo } from '../../../src/core/catalog/model';
import { createIntrospector, parseSourceSpec, type IntrospectResult } from '../../../src/core/sources';
import { loadScriptInto } from '../../support/datasets';
import { getTestPostgres, type TestPostgres } from '../../support/pg';

const FIXTURES = path.resolve(__dirname, '../../fixtures/hard-cases');
const DB = 'sb_sources_hard';

function table(r: IntrospectResult, schema: string, name: string): TableInfo {
  const t = r.snapshot.tables.find((x) => x.schema === schema && x.name === name);
  assert.ok(t, `expected ${schema}.${name} in ${r.snapshot.tables.map((x) => `${x.schema}.${x.name}`).join(', ')}`);
  return t;
}

describe('PostgreSQL hard cases (quoted, mixed-case, non-ASCII names; partitions; enums; views)', function () {
  let pg: TestPostgres;
  let result: IntrospectResult;

  before(async function () {
    pg = await getTestPostgres();
    const url = await loadScriptInto(pg, DB, readFileSync(path.join(FIXTURES, 'postgres.sql'), 'utf8'));
    result = await createIntrospector(parseSourceSpec(url)).introspect({ sampleRows: 20 });
  });
  after(async () => {
    await pg?.stop();
  });

  it('runs on the embedded PGlite engine when SCHEMABRAIN_TEST_FORCE_PGLITE=1', function () {
    if (process.env.SCHEMABRAIN_TEST_FORCE_PGLITE !== '1') this.skip();
    assert.equal(pg.kind, 'pglite');
  });

  it('ends its session on close without waiting for the server: no backend of it is left', async function () {
    if (pg.kind !== 'server') this.skip(); // pg_stat_activity of a real server is the proof
    const app = `sb_close_probe_${process.pid}`;
    const introspector = createIntrospector(parseSourceSpec(`${pg.urlFor(DB)}?application_name=${app}`));
    const admin = new PgClient({ connectionString: pg.urlFor(DB) });
    await admin.connect();
    try {
      const sessions = async (): Promise<number> => (await admin.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1', [app])).rows[0].n;
      assert.match(await introspector.structureDigest(), /^[0-9a-f]{64}$/);
      assert.equal(await sessions(), 1, 'the digest ran in a session of its own');
      // JIT would cost more than the digest query on a large catalog: it is turned off in the same round trip.
      const last = (await admin.query('SELECT query FROM pg_stat_activity WHERE application_name = $1', [app])).rows[0].query as string;
      assert.match(last, /^SET jit = off; /);
      const started = Date.now();
      await introspector.close();
      assert.ok(Date.now() - started < 1000, 'close does not wait long');
      let left = await sessions();
      for (let i = 0; i < 50 && left > 0; i++) {
        await new Promise((r) => setTimeout(r, 20));
        left = await sessions();
      }
      assert.equal(left, 0, 'the server ended the session');
    } finally {
      await admin.end();
    }
  });

  it('lists user schemas with their comments and skips system schemas', () => {
    const names = result.snapshot.schemas.map((s) => s.name);
    assert.ok(names.includes('Sales Ops') && names.includes('客户') && names.includes('public'));
    assert.ok(!names.some((n) => n === 'pg_catalog' || n === 'information_schema' || n.startsWith('pg_toast')));
    assert.equal(result.snapshot.schemas.find((s) => s.name === 'Sales Ops')?.comment, 'Orders and customers (quoted schema name)');
  });

  it('reads quoted mixed-case table and column names verbatim, with comments, identity and generated columns', () => {
    const t = table(result, 'Sales Ops', 'CamelCase');
    assert.equal(t.kind, 'table');
    assert.equal(t.comment, 'A table whose name needs quoting');
    assert.deepEqual(t.columns.map((c) => c.name), ['Id', 'DisplayName', 'mood', 'café', 'Parent Id', 'name_upper']);
    const byName = new Map(t.columns.map((c) => [c.name, c]));
    assert.equal(byName.get('Id')?.isIdentity, true);
    assert.equal(byName.get('Id')?.isNullable, false);
    assert.equal(byName.get('name_upper')?.isGenerated, true);
    assert.equal(byName.get('café')?.comment, 'Preferred coffee (non-ASCII column)');
    assert.match(byName.get('café')?.defaultExpr ?? '', /noir/);
    assert.deepEqual(byName.get('mood')?.enumLabels, ['happy', 'sad', 'ça va']);
    assert.deepEqual(t.uniqueConstraints, [{ name: 'CamelCase_display_name_key', columns: ['DisplayName'] }]);
    assert.equal(t.checkConstraints.length, 1);
    assert.equal(t.checkConstraints[0]?.name, 'DisplayName not blank');
    assert.match(t.checkConstraints[0]?.expression ?? '', /btrim/);
  });

  it('reads a self-referencing FK with its ON DELETE action', () => {
    const fk = table(result, 'Sales Ops', 'CamelCase').foreignKeys;
    assert.equal(fk.length, 1);
    assert.deepEqual(
      { cols: fk[0]?.columns, schema: fk[0]?.targetSchema, table: fk[0]?.targetTable, target: fk[0]?.targetColumns, del: fk[0]?.onDelete },
      { cols: ['Parent Id'], schema: 'Sales Ops', table: 'CamelCase', target: ['Id'], del: 'SET NULL' },
    );
  });

  it('keeps composite FK columns and target columns in declared order, with both actions', () => {
    const t = table(result, 'Sales Ops', 'Order Items');
    assert.deepEqual(t.primaryKey, { name: 'Order Items_pkey', columns: ['region', 'order_no', 'line'] });
    assert.equal(t.foreignKeys.length, 1);
    const fk = t.foreignKeys[0];
    assert.equal(fk?.name, 'Order Items_order_fkey');
    assert.deepEqual(fk?.columns, ['order_no', 'region']);
    assert.deepEqual(fk?.targetColumns, ['order_no', 'region']);
    assert.equal(fk?.onDelete, 'CASCADE');
    assert.equal(fk?.onUpdate, 'RESTRICT');
    assert.equal(t.columns.find((c) => c.name === 'sku')?.comment, 'Stock keeping unit');
  });

  it('reports expression, partial and unique indexes with their method and predicate', () => {
    const items = table(result, 'Sales Ops', 'Order Items').indexes;
    assert.deepEqual(items.find((i) => i.name === 'order_items_lower_sku')?.columns, ['lower(sku)']);
    const orders = table(result, 'Sales Ops', 'orders');
    const partial = orders.indexes.find((i) => i.name === 'orders_pending');
    assert.deepEqual(partial?.columns, ['placed_at']);
    assert.match(partial?.predicate ?? '', /status = 'pending'/);
    assert.equal(partial?.method, 'btree');
    const camel = table(result, 'Sales Ops', 'CamelCase').indexes.find((i) => i.name === 'camel_case_lower_name');
    assert.equal(camel?.isUnique, true);
    assert.deepEqual(camel?.columns, ['lower("DisplayName")', 'Id']);
    assert.equal(orders.indexes.find((i) => i.name === 'orders_pkey')?.isPrimary, true);
  });

  it('folds partitions into the partitioned parent and sums their row estimates', () => {
    const m = table(result, 'public', 'measurements');
    assert.equal(m.kind, 'partitioned_table');
    assert.deepEqual(m.partitions, ['public.measurements_2024_01', 'public.measurements_2024_02', 'public.measurements_rest']);
    assert.equal(m.rowEstimate, 450);
    assert.ok(!result.snapshot.tables.some((t) => t.name.startsWith('measurements_')), 'partitions are not listed as tables');
    assert.deepEqual(m.primaryKey?.columns, ['city_id', 'logdate']);
  });

  it('lists views and materialized views with their definitions and comments', () => {
    const v = table(result, 'Sales Ops', 'Open Orders');
    assert.equal(v.kind, 'view');
    assert.equal(v.comment, 'Orders not yet paid');
    assert.match(v.viewDefinition ?? '', /pending/);
    assert.deepEqual(v.columns.map((c) => c.name), ['region', 'order_no', 'DisplayName']);
    const mv = table(result, 'public', 'city_peaks');
    assert.equal(mv.kind, 'materialized_view');
    assert.match(mv.viewDefinition ?? '', /max\((measurements\.)?peak_temp\)/);
  });

  it('reads non-ASCII schema, table and column names and comments', () => {
    const t = table(result, '客户', '客户');
    assert.equal(t.comment, '客户表 (customers)');
    assert.deepEqual(t.columns.map((c) => c.name), ['编号', '名字', '国家']);
    assert.equal(t.columns[1]?.comment, '姓名');
  });

  it('returns every enum type with labels in declared order', () => {
    const enums = new Map(result.snapshot.enums.map((e) => [`${e.schema}.${e.name}`, e.labels]));
    assert.deepEqual(enums.get('Sales Ops.order_status'), ['pending', 'paid', 'shipped', 'cancelled']);
    assert.deepEqual(enums.get('public.Mood'), ['happy', 'sad', 'ça va']);
    assert.deepEqual(table(result, 'Sales Ops', 'orders').columns.find((c) => c.name === 'status')?.enumLabels, ['pending', 'paid', 'shipped', 'cancelled']);
  });

  it('maps pg_stats into column statistics after ANALYZE, with n_distinct made absolute', () => {
    const col = table(result, 'public', 'measurements').columns.find((c) => c.name === 'city_id');
    assert.equal(col?.stats?.origin, 'pg_stats');
    assert.equal(col?.stats?.nullFraction, 0);
    assert.equal(col?.stats?.distinctEstimate, 5);
    assert.equal(col?.stats?.mostCommonValues?.length, 5);
    const note = table(result, 'public', 'measurements').columns.find((c) => c.name === 'note');
    assert.ok((note?.stats?.distinctEstimate ?? 0) > 400, 'unique text column: n_distinct -1 times 450 rows');
  });

  it('samples text-like columns within the row bound, including quoted and non-ASCII tables', () => {
    const camel = result.samples.get('Sales Ops.CamelCase');
    assert.deepEqual([...(camel?.get('DisplayName') ?? [])].sort(), ['Alice', 'Bob', 'Zoë']);
    assert.ok(!camel?.has('Id'), 'integer columns are not sampled');
    assert.ok((result.samples.get('客户.客户')?.get('名字') ?? []).includes('王伟'));
    const notes = result.samples.get('public.measurements')?.get('note') ?? [];
    assert.ok(notes.length > 0 && notes.length <= 20);
  });

  it('limits the snapshot to the requested schemas', async () => {
    const r = await createIntrospector(parseSourceSpec(pg.urlFor(DB))).introspect({ schemas: ['客户'], sampleRows: 0 });
    assert.deepEqual(r.snapshot.schemas.map((s) => s.name), ['客户']);
    assert.deepEqual(r.snapshot.tables.map((t) => t.name), ['客户']);
    assert.equal(r.samples.size, 0);
  });
});

describe('SQLite hard cases', function () {
  let dir: string;
  let result: IntrospectResult;

  before(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'sb-sources-'));
    const SQL = await initSqlJs();
    const db = new SQL.Database();
    db.exec(readFileSync(path.join(FIXTURES, 'sqlite.sql'), 'utf8'));
    const file = path.join(dir, 'hard cases.sqlite');
    writeFileSync(file, db.export());
    db.close();
    result = await createIntrospector(parseSourceSpec(file)).introspect({ sampleRows: 10 });
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('lists tables and views in schema main with quoted and non-ASCII names', () => {
    assert.deepEqual(result.snapshot.schemas, [{ name: 'main', comment: null }]);
    assert.deepEqual(result.snapshot.tables.map((t) => `${t.kind}:${t.name}`).sort(), ['table:CamelCase', 'table:Order Items', 'table:orders', 'table:客户', 'view:Open Orders'].sort());
    assert.deepEqual(table(result, 'main', '客户').columns.map((c) => c.name), ['编号', '名字', '国家']);
  });

  it('reads columns with types, defaults, generated flags, comments and CHECK-derived labels', () => {
    const t = table(result, 'main', 'CamelCase');
    const c = new Map(t.columns.map((x) => [x.name, x]));
    assert.equal(c.get('Id')?.isNullable, false, 'INTEGER PRIMARY KEY is the rowid');
    assert.equal(c.get('café')?.defaultExpr, "'noir'");
    assert.equal(c.get('name_upper')?.isGenerated, true);
    assert.equal(c.get('DisplayName')?.comment, 'shown in the UI');
    assert.deepEqual(c.get('mood')?.enumLabels, ['happy', 'sad', 'ça va']);
    assert.deepEqual(t.checkConstraints.map((k) => k.name).sort(), ['CamelCase_check1', 'DisplayName not blank'].sort());
  });

  it('reads composite primary keys and composite FKs with target columns in order', () => {
    const items = table(result, 'main', 'Order Items');
    assert.deepEqual(items.primaryKey?.columns, ['region', 'order_no', 'line']);
    assert.deepEqual(items.foreignKeys.map((f) => [f.name, f.columns, f.targetTable, f.targetColumns, f.onDelete]), [
      ['Order Items_order_fkey', ['order_no', 'region'], 'orders', ['order_no', 'region'], 'CASCADE'],
    ]);
    const orders = table(result, 'main', 'orders');
    assert.deepEqual(orders.primaryKey, { name: 'orders_pk', columns: ['region', 'order_no'] });
    // REFERENCES "CamelCase" without columns targets its primary key.
    assert.deepEqual(orders.foreignKeys.map((f) => [f.name, f.columns, f.targetTable, f.targetColumns]), [['orders_customer_fk', ['customer'], 'CamelCase', ['Id']]]);
    const self = table(result, 'main', 'CamelCase').foreignKeys[0];
    assert.deepEqual([self?.columns, self?.targetTable, self?.onDelete], [['Parent Id'], 'CamelCase', 'SET NULL']);
  });

  it('reads unique, expression and partial indexes', () => {
    const orders = table(result, 'main', 'orders');
    assert.equal(orders.indexes.find((i) => i.name === 'orders_no_region')?.isUnique, true);
    const partial = orders.indexes.find((i) => i.name === 'orders_pending');
    assert.equal(partial?.predicate, "status = 'pending'");
    assert.deepEqual(table(result, 'main', 'Order Items').indexes.find((i) => i.name === 'order_items_lower_sku')?.columns, ['lower(sku)']);
    assert.deepEqual(table(result, 'main', 'CamelCase').uniqueConstraints.map((u) => u.columns), [['DisplayName']]);
  });

  it('counts rows exactly and measures stats and samples on small tables', () => {
    const t = table(result, 'main', 'CamelCase');
    assert.equal(t.rowEstimate, 3);
    const cafe = t.columns.find((c) => c.name === 'café');
    assert.equal(cafe?.stats?.origin, 'sample');
    assert.ok(Math.abs((cafe?.stats?.nullFraction ?? 0) - 1 / 3) < 1e-9);
    assert.equal(cafe?.stats?.distinctEstimate, 2);
    assert.deepEqual([...(result.samples.get('main.客户')?.get('名字') ?? [])].sort(), ['José', '王伟'].sort());
    assert.equal(table(result, 'main', 'Open Orders').rowEstimate, null);
  });
});
