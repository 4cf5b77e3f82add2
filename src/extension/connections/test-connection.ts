import fs from 'node:fs';
import net from 'node:net';
import { Client } from 'pg';
import { formatBytes } from '../format';
import type { ConnectionConfig } from './model';

export type ConnectionTestResult =
  | { readonly ok: true; readonly detail: string }
  | { readonly ok: false; readonly kind: ConnectionProblem; readonly message: string; readonly nextStep: string };

export type ConnectionProblem =
  | 'unreachable'
  | 'auth_failed'
  | 'role_not_permitted'
  | 'database_missing'
  | 'missing_credential'
  | 'file_missing'
  | 'not_sqlite'
  | 'timeout'
  | 'unknown';

const SQLITE_HEADER = 'SQLite format 3\0';

/**
 * Tries the connection once with a short timeout. Messages name the problem and the next step and never include
 * the password (pg's own messages do not contain it; we still build our own text rather than echo them).
 */
export async function testConnection(c: ConnectionConfig, password: string | undefined, timeoutMs = 5000): Promise<ConnectionTestResult> {
  if (c.engine === 'sqlite') return testSqlite(c.file ?? '');
  if (c.engine === 'mysql') return testMysql(c, timeoutMs);
  const client = new Client({
    host: c.host ?? '127.0.0.1',
    port: c.port ?? 5432,
    database: c.database ?? 'postgres',
    user: c.user,
    password,
    ssl: c.sslmode && c.sslmode !== 'disable' && c.sslmode !== 'prefer' ? { rejectUnauthorized: c.sslmode === 'verify-full' || c.sslmode === 'verify-ca' } : undefined,
    connectionTimeoutMillis: timeoutMs,
    statement_timeout: timeoutMs,
    application_name: 'schemabrain-connection-test',
  });
  client.on('error', () => undefined);
  const where = `${c.host ?? '127.0.0.1'}:${c.port ?? 5432}`;
  try {
    await client.connect();
    const r = await client.query<{ v: string }>('SELECT current_setting($1) AS v', ['server_version']);
    return { ok: true, detail: `PostgreSQL ${r.rows[0]?.v ?? '?'} at ${where}/${c.database ?? 'postgres'}` };
  } catch (e) {
    return classifyPgError(e as NodeJS.ErrnoException & { code?: string }, c, where, password);
  } finally {
    await client.end().catch(() => undefined);
  }
}

function classifyPgError(e: { code?: string; message?: string }, c: ConnectionConfig, where: string, password: string | undefined): ConnectionTestResult {
  const code = e.code ?? '';
  const user = c.user ?? '(default user)';
  // SQLSTATE codes: https://www.postgresql.org/docs/current/errcodes-appendix.html
  switch (code) {
    case 'ECONNREFUSED':
    case 'ENOTFOUND':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'EAI_AGAIN':
      return { ok: false, kind: 'unreachable', message: `Cannot reach PostgreSQL at ${where} (${code}).`, nextStep: 'Check the host and port, and that the server is running and accepts TCP connections.' };
    case '28P01':
      return password
        ? { ok: false, kind: 'auth_failed', message: `Password authentication failed for user '${user}' at ${where}.`, nextStep: 'Edit the connection and enter the correct password.' }
        : { ok: false, kind: 'missing_credential', message: `The server at ${where} asks for a password for user '${user}' and none is stored.`, nextStep: 'Edit the connection and enter a password.' };
    case '28000':
      return { ok: false, kind: 'role_not_permitted', message: `Role '${user}' may not connect to ${where}/${c.database ?? 'postgres'} (it does not exist, lacks LOGIN, or pg_hba.conf rejects it).`, nextStep: 'Use a role with LOGIN and CONNECT privilege, or ask the administrator to allow it.' };
    case '3D000':
      return { ok: false, kind: 'database_missing', message: `Database '${c.database ?? 'postgres'}' does not exist on ${where}.`, nextStep: 'Edit the connection and pick an existing database.' };
    case '57014':
      return { ok: false, kind: 'timeout', message: `The server at ${where} did not answer in time.`, nextStep: 'Check the network, or try again when the server is less busy.' };
    default:
      if (/timeout/i.test(e.message ?? '')) {
        return { ok: false, kind: 'timeout', message: `Connecting to ${where} timed out.`, nextStep: 'Check the host, port and any firewall between here and the server.' };
      }
      return { ok: false, kind: 'unknown', message: `Connecting to ${where} failed${code ? ` (${code})` : ''}.`, nextStep: 'Check the connection fields; the SchemaBrain output channel has details.' };
  }
}

function testSqlite(file: string): ConnectionTestResult {
  if (!file) return { ok: false, kind: 'file_missing', message: 'No SQLite file was given.', nextStep: 'Edit the connection and pick a database file.' };
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code === 'ENOENT'
      ? { ok: false, kind: 'file_missing', message: `SQLite file not found: ${file}`, nextStep: 'Check the path, or edit the connection and pick the file again.' }
      : { ok: false, kind: 'unknown', message: `Cannot open ${file} (${code}).`, nextStep: 'Check the file permissions.' };
  }
  try {
    const buf = Buffer.alloc(16);
    fs.readSync(fd, buf, 0, 16, 0);
    if (buf.toString('latin1') !== SQLITE_HEADER) {
      return { ok: false, kind: 'not_sqlite', message: `${file} is not a SQLite database.`, nextStep: 'Pick a SQLite 3 database file.' };
    }
    return { ok: true, detail: `SQLite file ${file} (${formatBytes(fs.fstatSync(fd).size)})` };
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * MySQL/MariaDB: connects and reads the server's handshake (protocol 10: a version byte, then the NUL-terminated
 * server version), which proves the address and port reach a MySQL-compatible server without loading a driver into
 * the editor. User, password and database are checked by the indexer, which reports them with their own kinds.
 * https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_connection_phase_packets_protocol_handshake_v10.html
 */
function testMysql(c: ConnectionConfig, timeoutMs: number): Promise<ConnectionTestResult> {
  const host = c.host ?? '127.0.0.1';
  const port = c.port ?? 3306;
  const where = `${host}:${port}`;
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    let buf = Buffer.alloc(0);
    const done = (r: ConnectionTestResult): void => {
      socket.destroy();
      resolve(r);
    };
    socket.setTimeout(timeoutMs, () => done({ ok: false, kind: 'timeout', message: `Connecting to ${where} timed out.`, nextStep: 'Check the host, port and any firewall between here and the server.' }));
    socket.on('error', (e: NodeJS.ErrnoException) =>
      done({ ok: false, kind: 'unreachable', message: `Cannot reach MySQL/MariaDB at ${where} (${e.code ?? 'error'}).`, nextStep: 'Check the host and port, and that the server is running and accepts TCP connections.' }),
    );
    socket.on('data', (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      if (buf.length < 5) return;
      const length = buf.readUIntLE(0, 3);
      if (buf.length < 4 + length) return;
      const body = buf.subarray(4, 4 + length);
      if (body[0] === 0xff) {
        return done({ ok: false, kind: 'role_not_permitted', message: `The server at ${where} refused this host before login.`, nextStep: 'Ask the administrator to allow connections from this machine.' });
      }
      if (body[0] !== 0x0a) return done({ ok: false, kind: 'unknown', message: `${where} does not answer like a MySQL or MariaDB server.`, nextStep: 'Check the port (MySQL and MariaDB listen on 3306 by default).' });
      const end = body.indexOf(0, 1);
      const version = body.subarray(1, end > 0 ? end : body.length).toString('latin1').replace(/^5\.5\.5-/, '');
      const product = /mariadb/i.test(version) ? 'MariaDB' : 'MySQL';
      done({ ok: true, detail: `${product} ${version.replace(/-MariaDB.*$/i, '')} at ${where}${c.database ? `/${c.database}` : ''} (user and password are checked when indexing)` });
    });
  });
}
