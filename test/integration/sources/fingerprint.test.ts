import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createIntrospector, parseSourceSpec, tableFingerprint } from '../../../src/core/sources';
import { loadScriptInto } from '../../support/datasets';
import { getTestPostgres, withPgClient, type TestPostgres } from '../../support/pg';

const DB = 'sb_sources_fingerprint';

async function fingerprints(url: string): Promise<Map<string, string>> {
  const r = await createIntrospector(parseSourceSpec(url)).introspect({ sampleRows: 0 });
  return new Map(r.snapshot.tables.map((t) => [`${t.schema}.${t.name}`, t.fingerprint]));
}

describe('Table fingerprints', function () {
  let pg: TestPostgres;
  let url: string;
  before(async () => {
    pg = await getTestPostgres();
    url = await loadScriptInto(pg, DB, readFileSync(path.resolve(__dirname, '../../fixtures/hard-cases/postgres.sql'), 'utf8'));
  });
  after(async () => {
    await pg?.stop();
  });

  async function exec(sql: string): Promise<void> {
    await withPgClient(url, (c) => c.query(sql));
  }

  it('are identical when the same database is introspected twice, and ignore new rows and statistics', async () => {
    const first = await fingerprints(url);
    await exec(`INSERT INTO public.employee VALUES (3, 1, 'ops@example.com', 3); ANALYZE`);
    const second = await fingerprints(url);
    assert.ok(first.size >= 8);
    assert.deepEqual([...second.entries()].sort(), [...first.entries()].sort());
  });

  it('change for exactly the altered table', async () => {
    const before = await fingerprints(url);
    await exec(`ALTER TABLE public.employee ADD COLUMN hired_on date`);
    const after = await fingerprints(url);
    const changed = [...after.keys()].filter((k) => after.get(k) !== before.get(k));
    assert.deepEqual(changed, ['public.employee']);
  });

  it('change when only a comment changes, because comments are part of what agents read', async () => {
    const before = await fingerprints(url);
    await exec(`COMMENT ON COLUMN "客户"."客户"."国家" IS 'country'`);
    const after = await fingerprints(url);
    assert.deepEqual([...after.keys()].filter((k) => after.get(k) !== before.get(k)), ['客户.客户']);
  });

  it('do not depend on property order in the table description', () => {
    const base = {
      schema: 's', name: 't', kind: 'table' as const, comment: null, rowEstimate: 1, columns: [], primaryKey: null,
      uniqueConstraints: [], checkConstraints: [], foreignKeys: [], indexes: [], partitions: [], viewDefinition: null,
    };
    const reordered = Object.fromEntries(Object.entries(base).reverse()) as typeof base;
    assert.equal(tableFingerprint(reordered), tableFingerprint(base));
    assert.equal(tableFingerprint({ ...base, rowEstimate: 999 }), tableFingerprint(base));
    assert.notEqual(tableFingerprint({ ...base, comment: 'x' }), tableFingerprint(base));
  });
});
