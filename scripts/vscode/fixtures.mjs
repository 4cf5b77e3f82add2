// Real fixtures for the VS Code tests (no mocks):
//  - a copy of Chinook as a SQLite file;
//  - a PostgreSQL database sb_ext_fixture_<pid> on the shared server (127.0.0.1:5432, trust auth) with two tables, and a
//    login role sb_ext_reader that may read only one of them;
//  - a private PostgreSQL cluster with scram-sha-256 password auth (the shared server trusts everyone, so a wrong
//    password could not fail there), holding a login role whose password is a per-run canary;
//  - the MusicBrainz schema (375 tables) in sb_ext_musicbrainz for the tree benchmark, indexed through the real CLI;
//  - SCHEMABRAIN_HOME in a temp folder, with Chinook pre-indexed for the browser suite.
import { spawnSync, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import zlib from 'node:zlib';

// The shared sample databases (Chinook, MusicBrainz); override where they live elsewhere.
const SHARED = process.env.SCHEMABRAIN_SHARED_DATA ?? path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..', '..', 'shared', 'data');
const PG_BIN = fs.existsSync('/usr/lib/postgresql') ? fs.readdirSync('/usr/lib/postgresql').sort().reverse().map((v) => `/usr/lib/postgresql/${v}/bin`).find((d) => fs.existsSync(`${d}/initdb`)) : undefined;

const freePort = () => new Promise((r) => { const s = net.createServer(); s.listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => r(p)); }); });

function psql(sql, { db = 'postgres', port = 5432, user = 'postgres' } = {}) {
  const r = spawnSync('psql', ['-h', '127.0.0.1', '-p', String(port), '-U', user, '-d', db, '-v', 'ON_ERROR_STOP=1', '-qAt', '-c', sql], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`psql failed: ${r.stderr}`);
  return r.stdout.trim();
}

function psqlFile(file, { db, port = 5432 }) {
  const r = spawnSync('psql', ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-d', db, '-q', '-f', file], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`psql -f ${file} failed: ${r.stderr.slice(0, 500)}`);
}

const asPostgres = (cmd, argv, opts = {}) => spawnSync('runuser', ['-u', 'postgres', '--', cmd, ...argv], { encoding: 'utf8', ...opts });

async function privateCluster(log) {
  if (!PG_BIN || process.getuid?.() !== 0) return undefined;
  const dir = fs.mkdtempSync('/tmp/sb-ext-pg-');
  fs.chownSync(dir, 101, 104);
  fs.chmodSync(dir, 0o700);
  const pwFile = path.join(dir, 'superpw');
  const superPw = crypto.randomBytes(12).toString('hex');
  fs.writeFileSync(pwFile, superPw);
  fs.chownSync(pwFile, 101, 104);
  const init = asPostgres(`${PG_BIN}/initdb`, ['-D', path.join(dir, 'data'), '-U', 'postgres', '--auth=scram-sha-256', `--pwfile=${pwFile}`, '-E', 'UTF8', '--no-sync']);
  fs.rmSync(pwFile);
  if (init.status !== 0) { log('private cluster: initdb failed', init.stderr.slice(0, 300)); return undefined; }
  const port = await freePort();
  const start = asPostgres(`${PG_BIN}/pg_ctl`, ['-D', path.join(dir, 'data'), '-l', path.join(dir, 'log'), '-w', '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c shared_buffers=16MB`, 'start']);
  if (start.status !== 0) { log('private cluster: start failed', start.stderr.slice(0, 300)); return undefined; }
  const canary = `canary-${crypto.randomBytes(9).toString('hex')}`;
  const env = { ...process.env, PGPASSWORD: superPw };
  const run = (sql, db = 'postgres') => {
    const r = spawnSync('psql', ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-d', db, '-v', 'ON_ERROR_STOP=1', '-qAt', '-c', sql], { encoding: 'utf8', env });
    if (r.status !== 0) throw new Error(`private psql failed: ${r.stderr}`);
  };
  run(`CREATE ROLE sb_ext_user LOGIN PASSWORD '${canary}'`);
  run('CREATE DATABASE sb_ext_secure OWNER sb_ext_user');
  run(`CREATE TABLE vault_item (id integer PRIMARY KEY, label text NOT NULL, owner_email text); COMMENT ON TABLE vault_item IS 'Items behind a password'; ALTER TABLE vault_item OWNER TO sb_ext_user; INSERT INTO vault_item VALUES (1, 'a', 'x@example.com')`, 'sb_ext_secure');
  return {
    port, canary, user: 'sb_ext_user', database: 'sb_ext_secure',
    stop: () => asPostgres(`${PG_BIN}/pg_ctl`, ['-D', path.join(dir, 'data'), '-m', 'immediate', 'stop']) && fs.rmSync(dir, { recursive: true, force: true }),
  };
}

function indexWithCli(root, home, source, name, extraArgs = []) {
  const r = spawnSync(process.execPath, [path.join(root, 'dist/cli.js'), 'index', '--source', source, '--name', name, '--catalog', path.join(home, 'catalog.sqlite'), '--json', ...extraArgs],
    { encoding: 'utf8', env: { ...process.env, SCHEMABRAIN_HOME: home }, timeout: 120000 });
  const lines = r.stdout.trim().split('\n').filter(Boolean).map((l) => { try { return JSON.parse(l); } catch { return {}; } });
  const result = lines.find((l) => l.type === 'result');
  if (!result) throw new Error(`indexing ${name} failed: ${r.stdout.slice(-500)} ${r.stderr.slice(-500)}`);
  return result;
}

export async function prepareFixtures({ root, work, log }) {
  const home = path.join(work, 'home');
  fs.mkdirSync(home, { recursive: true, mode: 0o700 });
  const workspace = path.join(work, 'workspace');
  fs.mkdirSync(path.join(workspace, '.schemabrain'), { recursive: true });
  const chinook = path.join(work, 'data', 'chinook.sqlite');
  fs.mkdirSync(path.dirname(chinook), { recursive: true });
  fs.copyFileSync(path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..', 'samples', 'chinook.sqlite'), chinook);

  // Shared server: a small database, created fresh for this run (named by the runner's pid, so runs that overlap on
  // the same server do not drop each other's); those of runs that are gone are dropped.
  const fixtureDb = `sb_ext_fixture_${process.pid}`;
  for (const db of psql("SELECT datname FROM pg_database WHERE datname ~ '^sb_ext_fixture_[0-9]+$'").split('\n').filter(Boolean)) {
    const pid = Number(/_(\d+)$/.exec(db)?.[1] ?? 0);
    let alive = false;
    try { alive = pid > 0 && (process.kill(pid, 0), true); } catch { alive = false; }
    if (!alive || pid === process.pid) psql(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
  }
  psql(`CREATE DATABASE ${fixtureDb}`);
  psql(`CREATE TABLE customer (id integer PRIMARY KEY, email text NOT NULL, full_name text);
        COMMENT ON TABLE customer IS 'People who buy things';
        COMMENT ON COLUMN customer.email IS 'Login e-mail address';
        CREATE TABLE purchase (id integer PRIMARY KEY, customer_id integer NOT NULL REFERENCES customer(id), total numeric(10,2), bought_at timestamptz);
        INSERT INTO customer SELECT g, 'user' || g || '@example.com', 'User ' || g FROM generate_series(1, 50) g;
        INSERT INTO purchase SELECT g, 1 + g % 50, g * 1.5, now() FROM generate_series(1, 200) g; ANALYZE;`, { db: fixtureDb });
  // A login role that may read customer but not purchase (the privilege warning in the Connections view).
  psql("DO $$ BEGIN CREATE ROLE sb_ext_reader LOGIN; EXCEPTION WHEN duplicate_object THEN NULL; END $$");
  psql('GRANT SELECT ON customer TO sb_ext_reader', { db: fixtureDb });

  // MusicBrainz (375 tables) for the tree benchmark: loaded once, kept between runs (its schema does not change).
  let musicbrainz;
  const mbExists = psql("SELECT count(*) FROM pg_database WHERE datname = 'sb_ext_musicbrainz'") === '1';
  const mbTables = mbExists ? Number(psql("SELECT count(*) FROM information_schema.tables WHERE table_schema NOT IN ('pg_catalog','information_schema')", { db: 'sb_ext_musicbrainz' })) : 0;
  if (mbTables < 375) {
    const mbDir = path.join(SHARED, 'musicbrainz');
    const dump = fs.existsSync(mbDir) ? fs.readdirSync(mbDir).find((f) => /pg_dump.*\.sql\.gz$/.test(f)) : undefined;
    if (!dump) log(`MusicBrainz sample not found under ${mbDir} (set SCHEMABRAIN_SHARED_DATA): the large-tree checks will skip`);
    if (dump) {
      psql('DROP DATABASE IF EXISTS sb_ext_musicbrainz WITH (FORCE)');
      psql('CREATE DATABASE sb_ext_musicbrainz');
      const sqlFile = path.join(work, 'musicbrainz.sql');
      fs.writeFileSync(sqlFile, zlib.gunzipSync(fs.readFileSync(path.join(SHARED, 'musicbrainz', dump))));
      try { psqlFile(sqlFile, { db: 'sb_ext_musicbrainz' }); } catch (e) { log('musicbrainz load:', e.message.slice(0, 200)); }
    }
  }
  musicbrainz = 'postgres://postgres@127.0.0.1:5432/sb_ext_musicbrainz';

  const secure = await privateCluster(log);
  if (!secure) log('private password-protected cluster unavailable: the wrong-password and canary checks will be skipped');

  // The browser suite starts with Chinook indexed (through the real CLI) and one saved connection.
  let preindexed = null;
  if (fs.existsSync(path.join(root, 'dist/cli.js'))) {
    try { preindexed = indexWithCli(root, home, chinook, 'chinook'); } catch (e) { log(e.message); }
    try { indexWithCli(root, home, musicbrainz, 'musicbrainz', ['--sample-rows', '0']); } catch (e) { log(e.message); }
  }
  // The integration suite gets its own home holding a copy of that catalog (it adds sources, audit rows, events).
  const itHome = path.join(work, 'home-it');
  fs.mkdirSync(itHome, { recursive: true, mode: 0o700 });
  if (fs.existsSync(path.join(home, 'catalog.sqlite'))) fs.copyFileSync(path.join(home, 'catalog.sqlite'), path.join(itHome, 'catalog.sqlite'));
  log(`fixtures ready: chinook ${preindexed ? 'indexed' : 'NOT indexed'}, ${fixtureDb}, ${secure ? `private cluster on ${secure.port}` : 'no private cluster'}`);
  return {
    home, workspace, chinook, musicbrainz,
    pg: { host: '127.0.0.1', port: 5432, database: fixtureDb, user: 'postgres' },
    secure: secure ? { host: '127.0.0.1', port: secure.port, database: secure.database, user: secure.user, canary: secure.canary } : null,
    env: { SCHEMABRAIN_HOME: home, SCHEMABRAIN_EVENTS_PATH: path.join(home, 'events.jsonl') },
    itHome,
    itEnv: { SCHEMABRAIN_HOME: itHome, SCHEMABRAIN_EVENTS_PATH: path.join(itHome, 'events.jsonl') },
    seedConnections: [{ name: 'chinook', engine: 'sqlite', file: chinook }, { name: 'musicbrainz', engine: 'postgres', host: '127.0.0.1', port: 5432, database: 'sb_ext_musicbrainz', user: 'postgres' }],
    preindexed: Boolean(preindexed),
    dispose: () => {
      secure?.stop();
      try { psql(`DROP DATABASE IF EXISTS ${fixtureDb} WITH (FORCE)`); } catch { /* the server went away */ }
    },
  };
}
