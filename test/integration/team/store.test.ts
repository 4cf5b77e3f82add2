import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { Pool } from 'pg';
import { canonicalJson, sha256Hex } from '../../../src/core/audit/canonical';
import { GENESIS_HASH } from '../../../src/core/audit/record';
import { runAs, type Principal } from '../../../src/core/store/principal';
import { openPgAuditLog, verifyStoreAudit, type StoreAuditBody } from '../../../src/core/store/pg-audit';
import { openPgStore, type PgStore } from '../../../src/core/store/pg-store';
import { currentDefinitions, downloadCatalog, materializeDefinitions, publishDefinitions } from '../../../src/core/store/shared-state';
import { CatalogStore } from '../../../src/core/catalog/store';
import { createToken, revokeToken, TokenVerifier } from '../../../src/core/store/tokens';
import { assertNoPasswordInLocator, StoreConfigError, storePoolConfig } from '../../../src/core/store/url';
import { ensureBuilt } from '../../support/build';
import { CHINOOK_SQLITE } from '../../support/server-harness';
import { cli, freshTeamDb, tempDir, type TeamDb } from './support';

const row = (tool: string) => ({ sessionId: 's', clientName: 'c', clientVersion: '1', tool, status: 'success' as const, errorKind: null, piiCategories: [], argsFingerprint: sha256Hex(tool), sqlFingerprint: null, rowCount: 1, truncated: false, durationMs: 1.5, catalogGeneration: 1 });
const alice: Principal = { name: 'alice', tokenId: 'aaaaaaaaaaaa', role: 'analyst', sources: null };

async function resetChain(pool: Pool): Promise<void> {
  await pool.query('TRUNCATE schemabrain.audit');
  await pool.query("UPDATE schemabrain.audit_head SET seq = 0, hash = repeat('0', 64)");
}

async function appendRows(store: PgStore, n: number): Promise<void> {
  const log = openPgAuditLog(store.pool, store.url);
  await Promise.all(Array.from({ length: n }, (_, i) => runAs(alice, () => log.append(row(`t${i}`)))));
  await log.close();
}

/** Re-hashes the whole chain from its (possibly edited) bodies and moves the head: a consistent rewrite. */
async function rewriteConsistently(pool: Pool): Promise<void> {
  const rows = (await pool.query<{ seq: string; body: string }>('SELECT seq, body FROM schemabrain.audit ORDER BY seq')).rows;
  let prev = GENESIS_HASH;
  for (const r of rows) {
    const body = canonicalJson({ ...(JSON.parse(r.body) as StoreAuditBody), prev_hash: prev });
    const hash = sha256Hex(prev + body);
    await pool.query('UPDATE schemabrain.audit SET body = $1, prev_hash = $2, hash = $3 WHERE seq = $4', [body, prev, hash, r.seq]);
    prev = hash;
  }
  await pool.query('UPDATE schemabrain.audit_head SET seq = $1, hash = $2', [rows.length, prev]);
}

describe('team store (PostgreSQL)', function () {
  this.timeout(120_000);
  let db: TeamDb | null = null;
  let store: PgStore;
  let pool: Pool;

  before(async function () {
    db = await freshTeamDb(this, 'sb_team_store');
    if (!db) return;
    // Four "replicas" starting at once: the advisory lock lets exactly one apply each migration.
    const stores = await Promise.all([0, 1, 2, 3].map(() => openPgStore(db!.url, { env: db!.env })));
    for (const s of stores.slice(1)) await s.close();
    store = stores[0]!;
    pool = db.pool();
  });
  after(async () => {
    await store?.close();
    await db?.drop();
  });

  it('applies its versioned migrations once, under an advisory lock, inside its own schema', async () => {
    const versions = (await pool.query('SELECT version FROM schemabrain.schema_version ORDER BY version')).rows;
    assert.deepEqual(versions, [{ version: 1 }, { version: 2 }]);
    const outside = await pool.query("SELECT table_name FROM information_schema.tables WHERE table_schema NOT IN ('schemabrain', 'pg_catalog', 'information_schema')");
    assert.equal(outside.rowCount, 0);
    const again = await openPgStore(db!.url, { env: db!.env });
    await again.close();
    assert.equal((await pool.query('SELECT count(*)::int AS n FROM schemabrain.schema_version')).rows[0].n, 2);
  });

  it('refuses store and source URLs that carry a password, and reads the password from a mounted file', () => {
    assert.throws(() => storePoolConfig('postgres://app:hunter2@db.internal/sb'), (e: Error) => e instanceof StoreConfigError && !e.message.includes('hunter2'));
    assert.throws(() => assertNoPasswordInLocator('postgres://app:hunter2@db.internal/warehouse'), StoreConfigError);
    assert.doesNotThrow(() => assertNoPasswordInLocator('postgres://app@db.internal/warehouse'));
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'pw'), 's3cret\n');
    const cfg = storePoolConfig('postgres://app@db.internal:6543/sb', { SCHEMABRAIN_STORE_PASSWORD_FILE: path.join(dir, 'pw') });
    assert.equal(cfg.password, 's3cret');
    assert.equal(cfg.port, 6543);
    assert.equal(cfg.user, 'app');
  });

  it('keeps one total order across concurrent writers on separate pools, every row naming its principal', async () => {
    await resetChain(pool);
    const writers = await Promise.all([0, 1, 2].map(() => openPgStore(db!.url, { env: db!.env, max: 4 })));
    try {
      const logs = writers.map((w) => openPgAuditLog(w.pool, w.url));
      const principals: Principal[] = ['alice', 'bob', 'carol'].map((name, i) => ({ name, tokenId: `${i}`.repeat(12), role: 'analyst', sources: null }));
      const acked = await Promise.all(Array.from({ length: 600 }, (_, i) => runAs(principals[i % 3]!, () => logs[i % 3]!.append(row(`call${i}`)))));
      await Promise.all(logs.map((l) => l.close()));
      assert.deepEqual(acked.map((r) => r.seq).sort((a, b) => a - b), Array.from({ length: 600 }, (_, i) => i + 1));
      const result = await verifyStoreAudit(pool);
      assert.equal(result.ok, true, JSON.stringify(result.breaks));
      assert.equal(result.rows, 600);
      const byPrincipal = (await pool.query<{ principal: string; n: number }>('SELECT principal, count(*)::int AS n FROM schemabrain.audit GROUP BY principal ORDER BY principal')).rows;
      assert.deepEqual(byPrincipal, [
        { principal: 'alice/000000000000', n: 200 },
        { principal: 'bob/111111111111', n: 200 },
        { principal: 'carol/222222222222', n: 200 },
      ]);
    } finally {
      for (const w of writers) await w.close();
    }
  });

  describe('detects every kind of tampering', () => {
    beforeEach(async () => {
      await resetChain(pool);
      await appendRows(store, 20);
      assert.equal((await verifyStoreAudit(pool)).ok, true);
    });
    const reasons = async (anchor?: { seq: number; hash: string }) => (await verifyStoreAudit(pool, { anchor: anchor ?? null })).breaks.map((b) => `${b.reason}@${b.seq}`);

    it('an edited row body', async () => {
      await pool.query(`UPDATE schemabrain.audit SET body = replace(body, '"status":"success"', '"status":"refused"'), status = 'refused' WHERE seq = 5`);
      assert.deepEqual(await reasons(), ['hash_mismatch@5']);
    });
    it('an edited column (the principal)', async () => {
      await pool.query("UPDATE schemabrain.audit SET principal = 'mallory/000000000000' WHERE seq = 6");
      assert.deepEqual(await reasons(), ['column_mismatch@6']);
    });
    it('a deleted row', async () => {
      await pool.query('DELETE FROM schemabrain.audit WHERE seq = 7');
      assert.deepEqual(await reasons(), ['seq_gap@8']);
    });
    it('two rows swapped', async () => {
      await pool.query(`UPDATE schemabrain.audit a SET time = b.time, principal = b.principal, tool = b.tool, status = b.status, body = b.body, prev_hash = b.prev_hash, hash = b.hash
        FROM schemabrain.audit b WHERE (a.seq, b.seq) IN ((8, 9), (9, 8))`);
      const r = await reasons();
      assert.ok(r.includes('reordered@8') && r.includes('reordered@9'), r.join());
    });
    it('a forged row inserted in the middle (with a valid hash over its predecessor)', async () => {
      await pool.query('UPDATE schemabrain.audit SET seq = seq + 1000 WHERE seq > 10');
      await pool.query('UPDATE schemabrain.audit SET seq = seq - 999 WHERE seq > 1000');
      const prev = (await pool.query<{ hash: string; body: string }>('SELECT hash, body FROM schemabrain.audit WHERE seq = 10')).rows[0]!;
      const body = canonicalJson({ ...(JSON.parse(prev.body) as StoreAuditBody), seq: 11, tool: 'forged', prev_hash: prev.hash });
      await pool.query("INSERT INTO schemabrain.audit VALUES (11, $1, 'alice/aaaaaaaaaaaa', 'forged', 'success', $2, $3, $4)", [(JSON.parse(body) as StoreAuditBody).time, body, prev.hash, sha256Hex(prev.hash + body)]);
      const r = await reasons();
      assert.ok(r.includes('reordered@12') && r.includes('prev_mismatch@12'), r.join());
      assert.ok(!r.some((x) => x.endsWith('@11')), 'the forged row itself hashes correctly; its successor exposes it');
    });
    it('rows cut from the end (head left in place)', async () => {
      await pool.query('DELETE FROM schemabrain.audit WHERE seq > 15');
      assert.deepEqual(await reasons(), ['truncated@15']);
    });
    it('rows cut from the end with the head moved: only the anchor sees it', async () => {
      const anchor = (await verifyStoreAudit(pool)).head;
      await pool.query('DELETE FROM schemabrain.audit WHERE seq > 15');
      const h = (await pool.query<{ hash: string }>('SELECT hash FROM schemabrain.audit WHERE seq = 15')).rows[0]!;
      await pool.query('UPDATE schemabrain.audit_head SET seq = 15, hash = $1', [h.hash]);
      assert.deepEqual(await reasons(), []);
      assert.deepEqual(await reasons(anchor), ['truncated@20']);
    });
    it('a consistent rewrite of the whole chain: only the anchor sees it', async () => {
      const anchor = (await verifyStoreAudit(pool)).head;
      await pool.query(`UPDATE schemabrain.audit SET body = replace(body, '"row_count":1', '"row_count":0') WHERE seq = 3`);
      await rewriteConsistently(pool);
      assert.deepEqual(await reasons(), []);
      assert.deepEqual(await reasons(anchor), ['anchor_mismatch@20']);
    });
  });

  it('audit verify --store with an anchor file: exit 0, then 1 after a consistent rewrite', async function () {
    ensureBuilt();
    await resetChain(pool);
    await appendRows(store, 10);
    const anchor = path.join(tempDir(), 'audit.anchor');
    const ok = await cli(['audit', 'verify', '--store', db!.url, '--anchor', anchor], db!.env);
    assert.equal(ok.code, 0, ok.stderr + ok.stdout);
    assert.match(fs.readFileSync(anchor, 'utf8'), /"seq":10/);
    await pool.query(`UPDATE schemabrain.audit SET body = replace(body, '"row_count":1', '"row_count":7') WHERE seq = 4`);
    await rewriteConsistently(pool);
    const broken = await cli(['audit', 'verify', '--store', db!.url, '--anchor', anchor, '--json'], db!.env);
    assert.equal(broken.code, 1, broken.stderr);
    assert.deepEqual((JSON.parse(broken.stdout) as { breaks: Array<{ reason: string }> }).breaks.map((b) => b.reason), ['anchor_mismatch']);
    const withPassword = await cli(['audit', 'verify', '--store', 'postgres://postgres:hunter2@127.0.0.1/sb_team_store'], db!.env);
    assert.equal(withPassword.code, 2);
    assert.match(withPassword.stderr, /carries a password/);
    assert.doesNotMatch(withPassword.stderr, /hunter2/);
  });

  it('tokens: only a hash is stored; unknown, malformed, revoked and expired tokens are told apart', async () => {
    const v = new TokenVerifier(store.pool, 60_000);
    const t = await createToken(store.pool, { principal: 'dana', role: 'catalog', sources: ['chinook'], createdBy: 'test' });
    const stored = await pool.query('SELECT * FROM schemabrain.token WHERE id = $1', [t.id]);
    assert.ok(!JSON.stringify(stored.rows).includes(t.token.slice(18)), 'the secret part is not stored');
    const okCheck = await v.check(t.token);
    assert.deepEqual(okCheck, { ok: true, principal: { name: 'dana', tokenId: t.id, role: 'catalog', sources: ['chinook'] } });
    assert.deepEqual(await v.check('sbt_zz'), { ok: false, reason: 'malformed' });
    assert.deepEqual(await v.check(`${t.token.slice(0, -1)}${t.token.endsWith('A') ? 'B' : 'A'}`), { ok: false, reason: 'unknown' });
    assert.equal(await revokeToken(store.pool, t.id), true);
    v.invalidate(`tokens:${t.id}`); // what the replica does on the notification revokeToken sends
    assert.deepEqual(await v.check(t.token), { ok: false, reason: 'revoked' });
    const e = await createToken(store.pool, { principal: 'erin', role: 'analyst', expiresInMs: 60_000, createdBy: 'test' });
    await pool.query("UPDATE schemabrain.token SET expires_at = now() - interval '1 second' WHERE id = $1", [e.id]);
    assert.deepEqual(await new TokenVerifier(store.pool).check(e.token), { ok: false, reason: 'expired' });
  });

  it('definitions: versions with who/when, deletions, and a replica folder that mirrors them', async () => {
    assert.equal((await publishDefinitions(store.pool, [{ file: 'sales.yaml', body: 'a: 1\n' }, { file: 'ops/x.yaml', body: 'b: 2\n' }], 'alice@laptop')).length, 2);
    assert.equal((await publishDefinitions(store.pool, [{ file: 'sales.yaml', body: 'a: 1\n' }, { file: 'ops/x.yaml', body: 'b: 2\n' }], 'alice@laptop')).length, 0);
    await publishDefinitions(store.pool, [{ file: 'sales.yaml', body: 'a: 2\n' }], 'bob@ci');
    const cur = await currentDefinitions(store.pool);
    assert.deepEqual(cur.map((d) => [d.file, d.body, d.publishedBy]), [['sales.yaml', 'a: 2\n', 'bob@ci']]);
    const dir = tempDir();
    fs.mkdirSync(path.join(dir, 'ops'));
    fs.writeFileSync(path.join(dir, 'ops', 'x.yaml'), 'stale');
    materializeDefinitions(dir, cur);
    assert.equal(fs.readFileSync(path.join(dir, 'sales.yaml'), 'utf8'), 'a: 2\n');
    assert.equal(fs.existsSync(path.join(dir, 'ops', 'x.yaml')), false);
    await assert.rejects(publishDefinitions(store.pool, [{ file: '../etc/passwd.yaml', body: '' }], 'x'), /relative \.yaml path/);
  });

  it('index --store: concurrent runs of two sources are serialised and the newest generation holds both', async function () {
    ensureBuilt();
    const env = { ...db!.env, SCHEMABRAIN_HOME: tempDir() };
    // Two distinct source files (the catalog keys a source by its locator).
    const copy = path.join(tempDir(), 'chinook-b.sqlite');
    fs.copyFileSync(CHINOOK_SQLITE, copy);
    const [a, b] = await Promise.all([
      cli(['index', '--source', CHINOOK_SQLITE, '--name', 'chin_a', '--store', db!.url, '--json'], env),
      cli(['index', '--source', copy, '--name', 'chin_b', '--store', db!.url, '--json'], env),
    ]);
    assert.equal(a.code, 0, a.stderr);
    assert.equal(b.code, 0, b.stderr);
    const gens = (await pool.query<{ generation: string; source_name: string; created_by: string }>('SELECT generation, source_name, created_by FROM schemabrain.catalog_generation ORDER BY generation')).rows;
    assert.equal(gens.length, 2);
    const file = path.join(tempDir(), 'c.sqlite');
    await downloadCatalog(pool, file);
    const cat = await CatalogStore.open(file);
    try {
      assert.deepEqual(cat.listSources().map((s) => s.info.name).sort(), ['chin_a', 'chin_b']);
    } finally {
      cat.close();
    }
    const refused = await cli(['index', '--source', 'postgres://app:hunter2@127.0.0.1/x', '--store', db!.url], env);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /password cannot be written to the team store/);
  });
});
