/**
 * The MySQL-family server tests run against: `SCHEMABRAIN_TEST_MARIADB_URL` (default `mysql://root@127.0.0.1:3306`)
 * for MariaDB, `SCHEMABRAIN_TEST_MYSQL_URL` for an optional MySQL 8 server. Sample databases are built from the
 * SQLite samples (Chinook always, Sakila when ../shared/data has it) into databases named `sb_mysql_*`, once: a
 * marker table holds a digest of the source file and the loader version, so a second run costs one query.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Connection, RowDataPacket } from 'mysql2/promise';
import { mysqlPromiseDriver } from '../../../../src/core/sql/mysql-driver';
import { loadSqlJs } from '../../../../src/core/catalog/sqljs';

export const REPO_ROOT = path.resolve(__dirname, '..', '..', '..', '..');
export const MARIADB_URL = process.env.SCHEMABRAIN_TEST_MARIADB_URL ?? 'mysql://root@127.0.0.1:3306';
export const MYSQL8_URL = process.env.SCHEMABRAIN_TEST_MYSQL_URL ?? null;
const LOADER_VERSION = 'sqlite-to-mysql-v2';

/** `mysql://root@127.0.0.1:3306` + `/db` (credentials, if any, stay in the URL: test-only). */
export function urlFor(base: string, db: string): string {
  return `${base.replace(/\/[^/@]*$/, (m) => (m.includes(':') ? m : ''))}/${db}`;
}

export async function connectAdmin(base = MARIADB_URL): Promise<Connection> {
  const u = new URL(base.replace(/^mariadb:/, 'mysql:'));
  return mysqlPromiseDriver().createConnection({
    host: u.hostname,
    port: Number(u.port || 3306),
    user: decodeURIComponent(u.username || 'root'),
    ...(u.password ? { password: decodeURIComponent(u.password) } : {}),
    multipleStatements: true,
    connectTimeout: 3000,
    dateStrings: true,
    supportBigNumbers: true,
    bigNumberStrings: true,
  });
}

/** Null when the server answers; otherwise why the suite skips. */
export async function mariadbUnavailable(base = MARIADB_URL): Promise<string | null> {
  try {
    const c = await connectAdmin(base);
    await c.end();
    return null;
  } catch (e) {
    return `no MariaDB/MySQL server at ${base.replace(/:[^:@/]*@/, ':***@')} (${(e as Error).message}); start one (e.g. \`service mariadb start\`) or set SCHEMABRAIN_TEST_MARIADB_URL`;
  }
}

export function sharedData(): string {
  return process.env.SCHEMABRAIN_SHARED_DATA ?? path.resolve(REPO_ROOT, '..', 'shared', 'data');
}

export const CHINOOK_SQLITE = path.join(REPO_ROOT, 'samples', 'chinook.sqlite');
export function sakilaSqlite(): string | null {
  const p = path.join(sharedData(), 'sakila-sqlite', 'sakila.db');
  return fs.existsSync(p) ? p : null;
}

const q = (id: string): string => `\`${id.replace(/`/g, '``')}\``;

/** SQLite declared type → a MySQL column type that keeps the values (https://www.sqlite.org/datatype3.html). */
function mysqlType(declared: string, isKey: boolean): string {
  const t = declared.trim().toUpperCase();
  const len = /\((\d+)\)/.exec(t)?.[1];
  const ps = /\((\d+)\s*,\s*(\d+)\)/.exec(t);
  // One integer width (BIGINT aside): SQLite samples mix TINYINT keys with INTEGER references, and InnoDB
  // foreign keys need both sides to have the same type.
  if (/INT/.test(t)) return /BIG/.test(t) ? 'BIGINT' : 'INT';
  if (/CHAR|CLOB/.test(t)) return len && Number(len) <= 2000 ? `VARCHAR(${len})` : isKey ? 'VARCHAR(255)' : 'TEXT';
  if (/TEXT/.test(t)) return isKey ? 'VARCHAR(255)' : 'TEXT';
  if (/BLOB/.test(t) || t === '') return 'LONGBLOB';
  if (/NUMERIC|DECIMAL/.test(t)) return ps ? `DECIMAL(${ps[1]},${ps[2]})` : 'DECIMAL(12,2)';
  if (/REAL|FLOA|DOUB/.test(t)) return 'DOUBLE';
  if (/TIMESTAMP|DATETIME/.test(t)) return 'DATETIME';
  if (/DATE/.test(t)) return 'DATE';
  if (/BOOL/.test(t)) return 'TINYINT(1)';
  if (/YEAR/.test(t)) return 'INT';
  return 'TEXT';
}

/**
 * Copies a SQLite file into a MySQL database: tables, primary keys, foreign keys (InnoDB) and rows; idempotent
 * by a digest of the file. Returns the database name.
 */
export async function loadSqliteSample(sqlitePath: string, database: string, base = MARIADB_URL): Promise<string> {
  const bytes = fs.readFileSync(sqlitePath);
  const digest = createHash('sha256').update(LOADER_VERSION).update(bytes).digest('hex').slice(0, 32);
  const admin = await connectAdmin(base);
  try {
    const [marker] = await admin
      .query<RowDataPacket[]>(`SELECT digest FROM ${q(database)}.sb_loaded`)
      .catch(() => [[] as RowDataPacket[]] as const);
    if ((marker as RowDataPacket[])[0]?.digest === digest) return database;
    const SQL = await loadSqlJs();
    const db = new SQL.Database(bytes);
    try {
      await admin.query(`DROP DATABASE IF EXISTS ${q(database)}; CREATE DATABASE ${q(database)} CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
      await admin.query(`USE ${q(database)}`);
      await admin.query('SET FOREIGN_KEY_CHECKS = 0');
      const tables = db
        .exec(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`)[0]
        ?.values.map((r) => String(r[0])) ?? [];
      const fkStatements: string[] = [];
      for (const t of tables) {
        const cols = db.exec(`SELECT name, type, "notnull", pk FROM pragma_table_info('${t.replace(/'/g, "''")}') ORDER BY cid`)[0]?.values ?? [];
        const fks = db.exec(`SELECT id, "table", "from", "to", on_delete FROM pragma_foreign_key_list('${t.replace(/'/g, "''")}') ORDER BY id, seq`)[0]?.values ?? [];
        const keyCols = new Set([...cols.filter((c) => Number(c[3]) > 0).map((c) => String(c[0])), ...fks.map((f) => String(f[2]))]);
        const pk = cols.filter((c) => Number(c[3]) > 0).sort((a, b) => Number(a[3]) - Number(b[3])).map((c) => String(c[0]));
        const defs = cols.map((c) => `${q(String(c[0]))} ${mysqlType(String(c[1] ?? ''), keyCols.has(String(c[0])))}${Number(c[2]) ? ' NOT NULL' : ''}`);
        if (pk.length) defs.push(`PRIMARY KEY (${pk.map(q).join(', ')})`);
        await admin.query(`CREATE TABLE ${q(t)} (${defs.join(', ')}) ENGINE=InnoDB`);
        const byId = new Map<string, { table: string; from: string[]; to: string[]; onDelete: string }>();
        for (const f of fks) {
          const e = byId.get(String(f[0])) ?? { table: String(f[1]), from: [], to: [], onDelete: String(f[4] ?? 'NO ACTION') };
          e.from.push(String(f[2]));
          e.to.push(String(f[3] ?? ''));
          byId.set(String(f[0]), e);
        }
        let n = 0;
        for (const e of byId.values()) {
          const action = /CASCADE|SET NULL|RESTRICT/i.test(e.onDelete) ? ` ON DELETE ${e.onDelete.toUpperCase()}` : '';
          fkStatements.push(`ALTER TABLE ${q(t)} ADD CONSTRAINT ${q(`fk_${t}_${++n}`.slice(0, 64))} FOREIGN KEY (${e.from.map(q).join(', ')}) REFERENCES ${q(e.table)} (${e.to.map(q).join(', ')})${action}`);
        }
        const stmt = db.prepare(`SELECT * FROM "${t.replace(/"/g, '""')}"`);
        let batch: unknown[][] = [];
        const flush = async (): Promise<void> => {
          if (batch.length === 0) return;
          await admin.query(`INSERT INTO ${q(t)} VALUES ?`, [batch]);
          batch = [];
        };
        while (stmt.step()) {
          batch.push(stmt.get().map((v) => (v instanceof Uint8Array ? Buffer.from(v) : v)));
          if (batch.length >= 500) await flush();
        }
        stmt.free();
        await flush();
      }
      for (const s of fkStatements) await admin.query(s).catch(() => undefined); // a dangling FK in the sample is skipped
      await admin.query('SET FOREIGN_KEY_CHECKS = 1');
      await admin.query(`ANALYZE TABLE ${tables.map(q).join(', ')}`);
      await admin.query(`CREATE TABLE sb_loaded (digest VARCHAR(64) NOT NULL) ENGINE=InnoDB; INSERT INTO sb_loaded VALUES (?)`, [digest]);
    } finally {
      db.close();
    }
    return database;
  } finally {
    await admin.end();
  }
}

export const CHINOOK_DB = 'sb_mysql_chinook';
export const SAKILA_DB = 'sb_mysql_sakila';
export const TYPES_DB = 'sb_mysql_types';

/**
 * Chinook plus what the SQLite sample lacks: comments on tables and columns, and a customer column that looks
 * like PII by name. Idempotent.
 */
export async function loadChinook(base = MARIADB_URL): Promise<string> {
  await loadSqliteSample(CHINOOK_SQLITE, CHINOOK_DB, base);
  const admin = await connectAdmin(base);
  try {
    await admin.query(`USE ${q(CHINOOK_DB)}`);
    await admin.query(`ALTER TABLE Invoice COMMENT = 'One sale to one customer; lines are in InvoiceLine'`);
    await admin.query(`ALTER TABLE Customer MODIFY Email VARCHAR(60) NOT NULL COMMENT 'Customer contact e-mail'`);
    return CHINOOK_DB;
  } finally {
    await admin.end();
  }
}

/**
 * A database exercising what the catalog must read from a MySQL-family server: enum/set labels, unsigned, a
 * generated column, JSON, a CHECK, comments, a non-default collation, composite and self FKs with actions,
 * prefix/fulltext indexes, a view and a partitioned table. Rebuilt each time (cheap).
 */
export async function loadTypesFixture(base = MARIADB_URL): Promise<string> {
  const admin = await connectAdmin(base);
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${q(TYPES_DB)}; CREATE DATABASE ${q(TYPES_DB)} CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci; USE ${q(TYPES_DB)}`);
    await admin.query(`
CREATE TABLE account (
  id INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY COMMENT 'surrogate key',
  email VARCHAR(120) NOT NULL,
  phone VARCHAR(30) NULL,
  status ENUM('active','suspended','closed') NOT NULL DEFAULT 'active',
  flags SET('beta','staff','vip') NOT NULL DEFAULT '',
  score DECIMAL(6,2) UNSIGNED NULL,
  handle VARCHAR(40) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
  prefs JSON NULL,
  balance_cents BIGINT NOT NULL DEFAULT 0,
  balance DECIMAL(14,2) AS (balance_cents / 100) VIRTUAL,
  created_at DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
  UNIQUE KEY uq_account_email (email),
  KEY ix_handle_prefix (handle(8)),
  FULLTEXT KEY ft_email (email),
  CONSTRAINT ck_score CHECK (score IS NULL OR score <= 1000)
) ENGINE=InnoDB COMMENT='Customer accounts';
CREATE TABLE team (
  org_id INT NOT NULL,
  team_id INT NOT NULL,
  parent_team_id INT NULL,
  name VARCHAR(50) NOT NULL,
  PRIMARY KEY (org_id, team_id),
  CONSTRAINT fk_team_parent FOREIGN KEY (org_id, parent_team_id) REFERENCES team (org_id, team_id) ON DELETE CASCADE ON UPDATE RESTRICT
) ENGINE=InnoDB;
CREATE TABLE membership (
  account_id INT UNSIGNED NOT NULL,
  org_id INT NOT NULL,
  team_id INT NOT NULL,
  role VARCHAR(20) NOT NULL COMMENT 'owner, admin or member',
  PRIMARY KEY (account_id, org_id, team_id),
  CONSTRAINT fk_membership_account FOREIGN KEY (account_id) REFERENCES account (id) ON DELETE CASCADE,
  CONSTRAINT fk_membership_team FOREIGN KEY (org_id, team_id) REFERENCES team (org_id, team_id)
) ENGINE=InnoDB;
CREATE TABLE event_log (
  id BIGINT NOT NULL,
  happened_on DATE NOT NULL,
  kind VARCHAR(20) NOT NULL,
  PRIMARY KEY (id, happened_on)
) ENGINE=InnoDB
PARTITION BY RANGE (YEAR(happened_on)) (
  PARTITION p2023 VALUES LESS THAN (2024),
  PARTITION p2024 VALUES LESS THAN (2025),
  PARTITION pmax VALUES LESS THAN MAXVALUE
);
CREATE VIEW active_account AS SELECT id, handle, status FROM account WHERE status = 'active';
INSERT INTO account (email, phone, status, flags, score, handle, prefs, balance_cents) VALUES
  ('ada@example.com', '+44 20 7946 0018', 'active', 'beta,staff', 12.5, 'ada', '{"theme":"dark"}', 12345),
  ('grace@example.org', '+1 202 555 0143', 'suspended', '', NULL, 'grace', NULL, 500),
  ('linus@example.net', '+358 9 1234 5678', 'active', 'vip', 999.99, 'linus', '{"theme":"light"}', 0),
  ('margaret@example.com', '+1 617 555 0199', 'closed', 'staff', 1, 'margaret', '{}', -250);
INSERT INTO team VALUES (1, 1, NULL, 'Core'), (1, 2, 1, 'Storage'), (1, 3, 1, 'Query');
INSERT INTO membership VALUES (1, 1, 1, 'owner'), (2, 1, 2, 'member'), (3, 1, 3, 'admin');
INSERT INTO event_log VALUES (1, '2023-05-01', 'login'), (2, '2024-02-03', 'logout'), (3, '2025-07-09', 'login');
ANALYZE TABLE account, team, membership, event_log;`);
    return TYPES_DB;
  } finally {
    await admin.end();
  }
}

/** CHECKSUM TABLE of every base table in the databases: equal before and after means nothing was written. */
export async function checksumTables(admin: Connection, databases: readonly string[]): Promise<string> {
  const [rows] = await admin.query<RowDataPacket[]>(
    `SELECT table_schema, table_name FROM information_schema.tables WHERE table_type = 'BASE TABLE' AND table_schema IN (?) ORDER BY 1, 2`,
    [databases],
  );
  const names = rows.map((r) => `${q(String(r.table_schema ?? r.TABLE_SCHEMA))}.${q(String(r.table_name ?? r.TABLE_NAME))}`);
  if (names.length === 0) return '';
  const [sums] = await admin.query<RowDataPacket[]>(`CHECKSUM TABLE ${names.join(', ')} EXTENDED`);
  const [objects] = await admin.query<RowDataPacket[]>(
    `SELECT CONCAT_WS('.', table_schema, table_name, table_type) AS o FROM information_schema.tables WHERE table_schema NOT IN ('information_schema', 'performance_schema') ORDER BY 1`,
  );
  return JSON.stringify([sums, objects.map((o) => o.o)]);
}
