import assert from 'node:assert/strict';
import type pg from 'pg';
import type { Database } from 'sql.js';
import { ATTACKS } from '../../fixtures/sql-corpus/attacks';
import { loadSqlGuard, type SqlGuard } from '../../../src/core/sql/guard';
import { runReadOnlyPostgres } from '../../../src/core/sql/pg-exec';
import { runReadOnlySqlite } from '../../../src/core/sql/sqlite-exec';
import { ATTACK_DB, createAttackDb, dropAttackDb, pgStateDigest, pwnedFiles } from './support/attack-db';
import { runPgAttack, runSqliteAttack, sha256, SQLITE_ATTACK_FILE } from './support/attack-harness';
import { CHINOOK_SQLITE, openSqliteCopy, pgClient, pgDumpSha } from './support/databases';
import { postgresServerAnswers } from '../../support/pg';
import { readFileSync } from 'node:fs';

const CAPS = { timeoutMs: 1500, maxRows: 50, maxBytes: 200_000 };

describe('guarded SQL against the attack corpus', function () {
  let guard: SqlGuard;
  let client: pg.Client;
  let dumpBefore: string;

  before(async function () {
    // Needs a real server (psql/pg_dump or server-wide settings); the embedded engine covers the rest of the suite.
    if (!(await postgresServerAnswers())) this.skip();
    guard = await loadSqlGuard();
    await createAttackDb();
    dumpBefore = pgDumpSha(ATTACK_DB);
    client = pgClient(ATTACK_DB);
    await client.connect();
  });

  after(async function () {
    if (!client) return; // the suite was skipped: no server to clean up
    await client.end();
    dropAttackDb();
  });

  it('holds at least 200 attack cases covering both engines', function () {
    assert.ok(ATTACKS.length >= 200, `only ${ATTACKS.length} cases`);
    assert.ok(ATTACKS.filter((a) => a.postgres).length >= 200);
    assert.ok(ATTACKS.filter((a) => a.sqlite).length >= 100);
  });

  describe('PostgreSQL, all three layers together', function () {
    for (const a of ATTACKS.filter((x) => x.postgres)) {
      it(`stops ${a.id} and leaves the database unchanged: ${a.sql.replace(/\s+/g, ' ').slice(0, 70)}`, async function () {
        const before = await pgStateDigest(client);
        const outcome = await runReadOnlyPostgres(client, guard, a.sql, [], CAPS);
        const after = await pgStateDigest(client);
        assert.equal(after, before, 'database, session or server files changed');
        const exp = a.postgres!;
        if (exp.guard === 'accept') {
          if (exp.engine === 'blocks') {
            assert.equal(outcome.ok, false);
            // user functions and views over them are now refused before execution (function allow-list)
            const stoppedBy = outcome.ok === false ? (outcome.kind === 'refused' ? `refused:${outcome.guard.reason}` : outcome.kind) : 'ok';
            assert.ok(stoppedBy === 'read_only_violation' || stoppedBy === 'refused:forbidden_function', stoppedBy);
          }
        } else {
          assert.equal(outcome.ok, false);
          assert.equal(outcome.ok === false && outcome.kind, 'refused');
          if (exp.guard !== '*' && outcome.ok === false && outcome.kind === 'refused') assert.equal(outcome.guard.reason, exp.guard);
        }
      });
    }
  });

  describe('PostgreSQL, the READ ONLY transaction and extended protocol alone (no parser)', function () {
    for (const a of ATTACKS.filter((x) => x.postgres && x.postgres.engine !== 'unsafe')) {
      it(`${a.postgres!.engine === 'blocks' ? 'refuses' : 'contains'} ${a.id} without the parser: ${a.sql.replace(/\s+/g, ' ').slice(0, 60)}`, async function () {
        const run = await runPgAttack(a, client, guard, 'engine_only');
        // engine-only runs may leave harmless session state (a PREPARE, a SET that survived); clear it between cases
        await client.query('DISCARD ALL');
        assert.equal(run.changed, false, 'database changed with only layer 2 in place');
        if (a.postgres!.engine === 'blocks') assert.equal(run.outcome?.ok, false, 'the engine accepted a write');
      });
    }
  });

  describe('SQLite (sql.js copy of Chinook), all layers together', function () {
    let db: Database;
    before(async function () {
      db = await openSqliteCopy(CHINOOK_SQLITE);
    });
    after(function () {
      db?.close();
    });
    for (const a of ATTACKS.filter((x) => x.sqlite)) {
      it(`stops ${a.id} and leaves the file and the copy unchanged: ${a.sql.replace(/\s+/g, ' ').slice(0, 60)}`, function () {
        const file = sha256(readFileSync(SQLITE_ATTACK_FILE));
        const mem = sha256(db.export());
        const outcome = runReadOnlySqlite(db, guard, a.sql, [], CAPS);
        assert.equal(sha256(db.export()), mem);
        assert.equal(sha256(readFileSync(SQLITE_ATTACK_FILE)), file);
        assert.equal(outcome.ok, false);
        assert.equal(outcome.ok === false && outcome.kind, 'refused');
        const exp = a.sqlite!;
        if (exp.guard !== '*' && exp.guard !== 'accept' && outcome.ok === false && outcome.kind === 'refused') {
          assert.equal(outcome.guard.reason, exp.guard);
        }
      });
    }
  });

  describe('SQLite, query_only and the single-statement check alone (no parser)', function () {
    for (const a of ATTACKS.filter((x) => x.sqlite && x.sqlite.engine !== 'unsafe')) {
      it(`${a.sqlite!.engine === 'blocks' ? 'refuses' : 'contains'} ${a.id} without the parser`, async function () {
        const db = await openSqliteCopy(CHINOOK_SQLITE);
        try {
          const run = runSqliteAttack(a, db, guard, 'engine_only');
          assert.equal(run.changed, false);
          if (a.sqlite!.engine === 'blocks') assert.equal(run.outcome?.ok, false);
        } finally {
          db.close();
        }
      });
    }
  });

  it('leaves the attack database identical to its pg_dump from before the corpus ran, and writes no server files', function () {
    assert.equal(pgDumpSha(ATTACK_DB), dumpBefore);
    assert.deepEqual(pwnedFiles(), []);
  });
});
