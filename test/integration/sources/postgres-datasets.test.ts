import assert from 'node:assert/strict';
import { Client } from 'pg';
import { createIntrospector, parseSourceSpec, type IntrospectResult } from '../../../src/core/sources';
import { loadDataset, skipWithoutData } from '../../support/datasets';
import { getTestPostgres, type TestPostgres } from '../../support/pg';

/** One catalog count straight from pg_catalog, so the test checks the introspector against the server, not a constant. */
async function scalar(url: string, sql: string): Promise<number> {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    return Number(Object.values((await c.query(sql)).rows[0] as object)[0]);
  } finally {
    await c.end();
  }
}

async function introspect(url: string, sampleRows = 0): Promise<IntrospectResult> {
  return createIntrospector(parseSourceSpec(url)).introspect({ sampleRows });
}

const fkCount = (r: IntrospectResult): number => r.snapshot.tables.reduce((n, t) => n + t.foreignKeys.length, 0);

describe('PostgreSQL sample databases', function () {
  let pg: TestPostgres;
  before(async () => {
    pg = await getTestPostgres();
  });
  after(async () => {
    await pg?.stop();
  });

  describe('Pagila', () => {
    let url: string;
    let r: IntrospectResult;
    before(async function () {
      skipWithoutData(this, 'pagila/pagila-schema.sql');
      url = (await loadDataset(pg, 'pagila')).url;
      r = await introspect(url, 20);
    });

    it('lists the 15 logical tables with payment partitions folded into their parent', () => {
      const tables = r.snapshot.tables.filter((t) => t.kind === 'table' || t.kind === 'partitioned_table');
      assert.equal(tables.length, 15);
      assert.ok(!r.snapshot.tables.some((t) => /^payment_p\d/.test(t.name)), 'payment partitions are not tables');
      const payment = r.snapshot.tables.find((t) => t.name === 'payment');
      assert.equal(payment?.kind, 'partitioned_table');
      assert.equal(payment?.partitions.length, 7);
      assert.equal(payment?.rowEstimate, 16049);
    });

    it('merges the FKs declared on each partition into one FK per relationship on payment', () => {
      const payment = r.snapshot.tables.find((t) => t.name === 'payment');
      assert.deepEqual(payment?.foreignKeys.map((f) => `${f.columns.join()}->${f.targetTable}.${f.targetColumns.join()}`).sort(), [
        'customer_id->customer.customer_id',
        'rental_id->rental.rental_id',
        'staff_id->staff.staff_id',
      ]);
    });

    it('matches the declared FKs of non-partition tables counted in pg_constraint', async () => {
      const declared = await scalar(
        url,
        `SELECT count(*) FROM pg_constraint con JOIN pg_class c ON c.oid = con.conrelid
         WHERE con.contype = 'f' AND con.conparentid = 0 AND NOT c.relispartition AND c.relnamespace = 'public'::regnamespace`,
      );
      const onPayment = r.snapshot.tables.find((t) => t.name === 'payment')?.foreignKeys.length ?? 0;
      assert.equal(fkCount(r) - onPayment, declared);
    });

    it('reads views, the mpaa_rating enum, the materialized view and table samples', () => {
      assert.equal(r.snapshot.tables.filter((t) => t.kind === 'view').length, 7);
      assert.ok(r.snapshot.tables.some((t) => t.kind === 'materialized_view' && t.name === 'rental_by_category'));
      assert.deepEqual(r.snapshot.enums.find((e) => e.name === 'mpaa_rating')?.labels, ['G', 'PG', 'PG-13', 'R', 'NC-17']);
      const film = r.snapshot.tables.find((t) => t.name === 'film');
      assert.deepEqual(film?.columns.find((c) => c.name === 'rating')?.enumLabels, ['G', 'PG', 'PG-13', 'R', 'NC-17']);
      assert.equal(r.samples.get('public.actor')?.get('first_name')?.length, 20);
      assert.ok((film?.columns.find((c) => c.name === 'rental_duration')?.stats?.distinctEstimate ?? 0) === 5);
    });

    it('reads small tables whole for their labels, and no table past the code-list bound', () => {
      const category = r.codeValues?.get('public.category')?.get('name') ?? [];
      assert.equal(category.length, 16, category.join(', '));
      assert.ok(category.includes('Documentary'));
      assert.deepEqual(r.codeValues?.get('public.language')?.get('name'), ['English', 'Italian', 'Japanese', 'Mandarin', 'French', 'German']);
      for (const big of ['public.film', 'public.city', 'public.customer']) assert.equal(r.codeValues?.get(big), undefined, big);
    });
  });

  describe('AdventureWorks', () => {
    let url: string;
    let r: IntrospectResult;
    before(async function () {
      skipWithoutData(this, 'adventureworks-pg');
      url = (await loadDataset(pg, 'adventureworks')).url;
      r = await introspect(url);
    });

    it('brings through all 427 table and column comments (68 on tables, 359 on columns) and the 5 schema comments', async () => {
      const tableComments = r.snapshot.tables.filter((t) => t.comment !== null).length;
      const columnComments = r.snapshot.tables.reduce((n, t) => n + t.columns.filter((c) => c.comment !== null).length, 0);
      const inCatalog = await scalar(
        url,
        `SELECT count(*) FROM pg_description d JOIN pg_class c ON d.classoid = 'pg_class'::regclass AND d.objoid = c.oid
         JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname NOT IN ('pg_catalog', 'information_schema')`,
      );
      assert.equal(inCatalog, 427);
      assert.equal(tableComments, 68);
      assert.equal(columnComments, 359);
      // Plus PostgreSQL's own 'standard public schema' comment on public.
      assert.deepEqual(r.snapshot.schemas.filter((s) => s.comment !== null && s.name !== 'public').map((s) => s.name), [
        'humanresources',
        'person',
        'production',
        'purchasing',
        'sales',
      ]);
    });

    it('lists 68 tables, 90 FKs and the views of every schema, aliases included', () => {
      assert.equal(r.snapshot.tables.filter((t) => t.kind === 'table').length, 68);
      assert.equal(fkCount(r), 90);
      assert.equal(r.snapshot.tables.filter((t) => t.kind === 'view').length, 87);
      assert.ok(r.snapshot.tables.some((t) => t.schema === 'pe' && t.kind === 'view'));
    });
  });

  describe('MusicBrainz', () => {
    let url: string;
    let r: IntrospectResult;
    before(async function () {
      skipWithoutData(this, 'musicbrainz');
      url = (await loadDataset(pg, 'musicbrainz')).url;
      r = await introspect(url, 50);
    });

    it('accounts for every table relation in pg_class (375 = folded parents and plain tables + partitions)', async () => {
      const relations = await scalar(url, `SELECT count(*) FROM pg_class WHERE relkind IN ('r', 'p') AND relnamespace = 'musicbrainz'::regnamespace`);
      const partitions = await scalar(url, `SELECT count(*) FROM pg_class WHERE relispartition AND relnamespace = 'musicbrainz'::regnamespace`);
      assert.equal(relations, 375);
      const tables = r.snapshot.tables.filter((t) => t.kind === 'table' || t.kind === 'partitioned_table');
      assert.equal(tables.length, relations - partitions);
      assert.equal(tables.reduce((n, t) => n + t.partitions.length, 0), partitions);
    });

    it('returns every declared FK (762 in pg_constraint, partition clones excluded)', async () => {
      const declared = await scalar(url, `SELECT count(*) FROM pg_constraint WHERE contype = 'f' AND conparentid = 0 AND connamespace = 'musicbrainz'::regnamespace`);
      assert.equal(declared, 762);
      assert.equal(fkCount(r), declared);
    });

    it('returns primary keys, indexes and columns matching pg_catalog', async () => {
      const pks = await scalar(url, `SELECT count(*) FROM pg_constraint con JOIN pg_class c ON c.oid = con.conrelid WHERE con.contype = 'p' AND NOT c.relispartition AND con.connamespace = 'musicbrainz'::regnamespace`);
      assert.equal(r.snapshot.tables.filter((t) => t.primaryKey).length, pks);
      const idx = await scalar(url, `SELECT count(*) FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid WHERE NOT c.relispartition AND c.relnamespace = 'musicbrainz'::regnamespace`);
      assert.equal(r.snapshot.tables.reduce((n, t) => n + t.indexes.length, 0), idx);
      const cols = await scalar(url, `SELECT count(*) FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid WHERE a.attnum > 0 AND NOT a.attisdropped AND c.relkind IN ('r', 'p') AND NOT c.relispartition AND c.relnamespace = 'musicbrainz'::regnamespace`);
      assert.equal(r.snapshot.tables.reduce((n, t) => n + t.columns.length, 0), cols);
      assert.ok(r.snapshot.enums.length >= 3);
    });

    it('reads the same catalog on one connection as on two sharing a snapshot', async () => {
      // The default reads keys and indexes on a second connection beside the columns (more than 50 relations here).
      const alone = await createIntrospector(parseSourceSpec(url), {}, { postgres: { parallelMinRelations: Number.POSITIVE_INFINITY } }).introspect({ sampleRows: 50 });
      assert.deepEqual(alone.snapshot, r.snapshot);
      const sessions = await scalar(url, `SELECT count(*) FROM pg_stat_activity WHERE application_name = 'schemabrain' AND datname = current_database()`);
      assert.equal(sessions, 0, 'both connections are closed after the run');
    });

    it('reads the same catalog when a structure digest came first (the second connection opens with the snapshot)', async () => {
      // The digest counts thousands of catalog rows here, so the second connection is opened before the relations
      // are read; the statistics are read beside the keys.
      const source = createIntrospector(parseSourceSpec(url));
      await source.structureDigest({ sampleRows: 50 });
      const early = await source.introspect({ sampleRows: 50 });
      assert.deepEqual(early.snapshot, r.snapshot);
      const sessions = await scalar(url, `SELECT count(*) FROM pg_stat_activity WHERE application_name = 'schemabrain' AND datname = current_database()`);
      assert.equal(sessions, 0, 'both connections are closed after the run');
    });

    it('reads the same catalog as a role allowed one connection only', async function () {
      if (pg.kind !== 'server') this.skip(); // roles and connection limits need a real server
      const role = `sb_one_conn_${process.pid}`;
      const admin = new Client({ connectionString: url });
      await admin.connect();
      try {
        await admin.query(`CREATE ROLE ${role} LOGIN CONNECTION LIMIT 1`);
        await admin.query(`GRANT pg_read_all_data TO ${role}`);
        const u = new URL(url);
        u.username = role;
        const one = await introspect(u.toString(), 50);
        assert.deepEqual(one.snapshot, r.snapshot);
        // After a digest the second connection is asked for early, and refused: the run reads on its one connection.
        const source = createIntrospector(parseSourceSpec(u.toString()));
        await source.structureDigest({ sampleRows: 50 });
        const refused = await source.introspect({ sampleRows: 50 });
        assert.deepEqual(refused.snapshot, r.snapshot);
      } finally {
        await admin.query(`DROP ROLE IF EXISTS ${role}`).catch(() => undefined);
        await admin.end();
      }
    });
  });

  describe('Chinook and Northwind', () => {
    it('reads Chinook with 11 tables, 11 FKs and 64 columns', async function () {
      skipWithoutData(this, 'chinook/Chinook_PostgreSql.sql.gz');
      const r = await introspect((await loadDataset(pg, 'chinook')).url);
      assert.equal(r.snapshot.tables.length, 11);
      assert.equal(fkCount(r), 11);
      assert.equal(r.snapshot.tables.reduce((n, t) => n + t.columns.length, 0), 64);
    });

    it('reads Northwind with 14 tables, 13 FKs and 14 primary keys', async function () {
      skipWithoutData(this, 'northwind-psql');
      const r = await introspect((await loadDataset(pg, 'northwind')).url);
      assert.equal(r.snapshot.tables.length, 14);
      assert.equal(fkCount(r), 13);
      assert.equal(r.snapshot.tables.filter((t) => t.primaryKey).length, 14);
    });
  });
});
