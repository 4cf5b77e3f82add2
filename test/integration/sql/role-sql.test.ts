import assert from 'node:assert/strict';
import { Client } from 'pg';
import { readOnlyRoleSql } from '../../../src/cli/commands/role-sql';
import path from 'node:path';
import { getTestPostgres, postgresServerAnswers, type TestPostgres } from '../../support/pg';
import { indexInto, startHarness, tempDir } from '../../support/server-harness';

/** The SQL `schemabrain role-sql` prints, run against a real server: the role reads, cannot write, is no superuser. */
const DB = 'sb_sqlexec_role';

describe('schemabrain role-sql', function () {
  let pg: TestPostgres;
  let admin: Client;

  before(async function () {
    if (!(await postgresServerAnswers())) this.skip();
    pg = await getTestPostgres();
    if (pg.kind !== 'server') this.skip();
    await pg.ensureDatabase(DB);
    admin = new Client({ connectionString: pg.urlFor(DB) });
    await admin.connect();
    await admin.query('DROP SCHEMA IF EXISTS app CASCADE; CREATE SCHEMA app; CREATE TABLE app.t (id int); INSERT INTO app.t VALUES (1)');
  });
  after(async function () {
    for (const r of ['sb_sqlexec_reader14', 'sb_sqlexec_reader13']) await admin?.query(`DROP OWNED BY ${r}; DROP ROLE IF EXISTS ${r}`).catch(() => undefined);
    await admin?.end();
    await pg?.stop();
  });

  it('get_index_status warns when a source is indexed as a superuser and not when indexed as the read-only role', async function () {
    const role = 'sb_sqlexec_reader14';
    await admin.query(`DROP OWNED BY ${role}`).catch(() => undefined);
    await admin.query(`DROP ROLE IF EXISTS ${role}`);
    await admin.query(readOnlyRoleSql({ role, database: DB, schemas: ['app'], pgVersion: 14, timeoutMs: 15000 }));
    const dir = tempDir('sb-role-status-');
    const statusOf = async (url: string, name: string): Promise<Record<string, unknown>> => {
      const catalog = path.join(dir, `${name}.sqlite`);
      await indexInto(catalog, url, name);
      const h = await startHarness({ catalogPath: catalog });
      try {
        const env = (await h.call('get_index_status', {})) as { status: string; data: { sources: Array<Record<string, unknown>> } };
        assert.equal(env.status, 'success');
        return env.data.sources[0]!;
      } finally {
        await h.close();
      }
    };
    const asAdmin = await statusOf(pg.urlFor(DB), 'as_admin');
    assert.deepEqual(asAdmin.role_privileges, { superuser: true, bypass_rls: true, can_write: true });
    assert.match(String(asAdmin.warning), /is a superuser.*can write to tables.*schemabrain role-sql/);
    const url = new URL(pg.urlFor(DB));
    url.username = role;
    url.password = '';
    const asReader = await statusOf(url.toString(), 'as_reader');
    assert.equal(asReader.role, role);
    assert.deepEqual(asReader.role_privileges, { superuser: false, bypass_rls: false, can_write: false });
    assert.equal(asReader.warning, undefined);
  });

  for (const version of [14, 13]) {
    it(`creates a role that reads and cannot write (PostgreSQL ${version} variant)`, async function () {
      const role = `sb_sqlexec_reader${version}`;
      await admin.query(`DROP OWNED BY ${role}`).catch(() => undefined);
      await admin.query(`DROP ROLE IF EXISTS ${role}`);
      await admin.query(readOnlyRoleSql({ role, database: DB, schemas: ['app'], pgVersion: version, timeoutMs: 15000 }));
      const attrs = await admin.query('SELECT rolsuper, rolcreaterole, rolcreatedb, rolbypassrls FROM pg_roles WHERE rolname = $1', [role]);
      assert.deepEqual(attrs.rows[0], { rolsuper: false, rolcreaterole: false, rolcreatedb: false, rolbypassrls: false });
      await admin.query(`SET ROLE ${role}`);
      try {
        assert.deepEqual((await admin.query('SELECT id FROM app.t')).rows, [{ id: 1 }]);
        await assert.rejects(admin.query('INSERT INTO app.t VALUES (2)'), /permission denied/);
      } finally {
        await admin.query('RESET ROLE');
      }
      const settings = await admin.query(`SELECT unnest(setconfig) AS s FROM pg_db_role_setting WHERE setrole = (SELECT oid FROM pg_roles WHERE rolname = $1)`, [role]);
      assert.ok(settings.rows.some((r) => r.s === 'default_transaction_read_only=on'));
      assert.ok(settings.rows.some((r) => r.s === 'temp_file_limit=1GB'), JSON.stringify(settings.rows));
      assert.ok(settings.rows.some((r) => r.s === 'work_mem=16MB'), JSON.stringify(settings.rows));
    });
  }
});
