import { parseArgs, stringFlag, UsageError } from '../args';
import { EXIT_OK } from '../command';
import type { CliCommand } from '../command';

const USAGE = `schemabrain role-sql [--role schemabrain_reader] [--database DB] [--schemas a,b] [--pg-version 14] [--timeout-ms 15000]

  Prints the SQL (run it as a superuser or the database owner) that creates a dedicated read-only login role for
  SchemaBrain: on PostgreSQL 14+ it is granted pg_read_all_data; on older servers USAGE and SELECT on each schema plus
  ALTER DEFAULT PRIVILEGES for tables created later. Either way the role cannot write, starts every transaction read
  only and has a statement timeout. The password is left for you to set (\\password ROLE in psql), so it never sits
  in a file or a shell history.`;

function ident(s: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_$]*$/.test(s)) throw new UsageError(`'${s.slice(0, 60)}' is not a plain identifier (letters, digits, _ and $)`);
  return s.toLowerCase() === s ? s : `"${s}"`;
}

/** The statements, as text: pure, so the README and the tests show exactly what the verb prints. */
export function readOnlyRoleSql(opts: { role: string; database: string; schemas: readonly string[]; pgVersion: number; timeoutMs: number }): string {
  const role = ident(opts.role);
  const db = ident(opts.database);
  const lines = [
    `-- A read-only login role for SchemaBrain. Run as a superuser (or the owner of ${opts.database}).`,
    `CREATE ROLE ${role} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS INHERIT;`,
    `-- set the password interactively, so it never appears in a file or a shell history:  \\password ${opts.role}`,
    `ALTER ROLE ${role} SET default_transaction_read_only = on;`,
    `ALTER ROLE ${role} SET statement_timeout = '${Math.floor(opts.timeoutMs)}ms';`,
    `ALTER ROLE ${role} SET idle_in_transaction_session_timeout = '${Math.max(Math.floor(opts.timeoutMs) * 2, 1000)}ms';`,
    '-- a bound on the temporary files one query may spill (sorts, hashes), and on memory per sort or hash',
    `ALTER ROLE ${role} SET temp_file_limit = '1GB';`,
    `ALTER ROLE ${role} SET work_mem = '16MB';`,
    `REVOKE ALL ON DATABASE ${db} FROM ${role};`,
    `GRANT CONNECT ON DATABASE ${db} TO ${role};`,
    `REVOKE CREATE ON SCHEMA public FROM ${role};`,
  ];
  if (opts.pgVersion >= 14) {
    lines.push('-- PostgreSQL 14+: SELECT on every table, view and sequence, now and later, and USAGE on every schema', `GRANT pg_read_all_data TO ${role};`);
  } else {
    const schemas = opts.schemas.length > 0 ? opts.schemas : ['public'];
    lines.push(`-- PostgreSQL ${opts.pgVersion}: per schema, for what exists now and (default privileges) what is created later`);
    for (const s of schemas.map(ident)) {
      lines.push(
        `GRANT USAGE ON SCHEMA ${s} TO ${role};`,
        `GRANT SELECT ON ALL TABLES IN SCHEMA ${s} TO ${role};`,
        `GRANT SELECT ON ALL SEQUENCES IN SCHEMA ${s} TO ${role};`,
        `ALTER DEFAULT PRIVILEGES IN SCHEMA ${s} GRANT SELECT ON TABLES TO ${role};`,
      );
    }
  }
  lines.push(
    '-- optional: lets get_example_queries read pg_stat_statements for every role',
    `-- GRANT pg_read_all_stats TO ${role};`,
    `-- then index with:  schemabrain index --source "postgres://${opts.role}@HOST:5432/${opts.database}" --name NAME`,
  );
  return `${lines.join('\n')}\n`;
}

export const roleSqlCommand: CliCommand = {
  name: 'role-sql',
  summary: 'Print the SQL for a dedicated read-only PostgreSQL role for SchemaBrain (pg_read_all_data on 14+)',
  usage: USAGE,
  async run(argv, io) {
    const p = parseArgs(argv, { role: 'string', database: 'string', schemas: 'string', 'pg-version': 'string', 'timeout-ms': 'string' });
    const pgVersion = Number(stringFlag(p, 'pg-version') ?? '14');
    const timeoutMs = Number(stringFlag(p, 'timeout-ms') ?? '15000');
    if (!Number.isInteger(pgVersion) || pgVersion < 9 || pgVersion > 99) throw new UsageError('--pg-version needs a major version such as 13 or 16');
    if (!Number.isInteger(timeoutMs) || timeoutMs < 100 || timeoutMs > 3_600_000) throw new UsageError('--timeout-ms must be between 100 and 3600000');
    const schemas = (stringFlag(p, 'schemas') ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    io.stdout.write(readOnlyRoleSql({ role: stringFlag(p, 'role') ?? 'schemabrain_reader', database: stringFlag(p, 'database') ?? 'postgres', schemas, pgVersion, timeoutMs }));
    return EXIT_OK;
  },
};
