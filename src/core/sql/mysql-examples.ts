import type { ExampleQuery, MineOutcome } from '../examples/types';
import { mysqlDriver } from './mysql-driver';
import type { MysqlExecTarget } from './mysql-exec';
import type { SqlGuard } from './guard';

/**
 * Example queries from MySQL/MariaDB statement digests (performance_schema.events_statements_summary_by_digest,
 * https://dev.mysql.com/doc/refman/8.0/en/performance-schema-statement-digests.html): the server has already
 * replaced every literal by `?`. Only statements the guard accepts (read-only SELECTs) are kept; PII redaction
 * happens when serving, as for PostgreSQL.
 */

const DIGEST_SQL = `
SELECT DIGEST_TEXT AS text, COUNT_STAR AS calls, SUM_TIMER_WAIT / GREATEST(COUNT_STAR, 1) / 1000000000 AS mean_ms, SUM_ROWS_SENT AS row_count
FROM performance_schema.events_statements_summary_by_digest
WHERE DIGEST_TEXT IS NOT NULL AND (SCHEMA_NAME IS NULL OR SCHEMA_NAME NOT IN ('mysql', 'performance_schema', 'information_schema', 'sys'))
ORDER BY COUNT_STAR DESC LIMIT 1000`;

export async function mineMysqlExamples(target: MysqlExecTarget, guard: SqlGuard, opts: { timeoutMs: number }): Promise<MineOutcome> {
  const conn = mysqlDriver().createConnection({ ...target.options, connectTimeout: opts.timeoutMs }).promise();
  conn.on('error', () => undefined);
  try {
    const [[ps]] = (await conn.query('SELECT @@performance_schema AS on_')) as unknown as [Array<{ on_: unknown }>];
    if (!Number(ps?.on_)) {
      return { ok: false, reason: 'not_loaded', message: 'performance_schema is off on this server, so no statement digests are kept', hint: 'Start the server with performance_schema=ON (my.cnf) to collect statement digests.' };
    }
    const [rows] = (await conn.query({ sql: DIGEST_SQL, timeout: opts.timeoutMs })) as unknown as [Array<{ text: string; calls: unknown; mean_ms: unknown; row_count: unknown }>];
    const queries: ExampleQuery[] = [];
    const skipped = { notReadOnly: 0, own: 0, hidden: 0, systemOnly: 0, tooLong: 0 };
    for (const r of rows) {
      const text = String(r.text);
      if (/\bSELECT VERSION \( \)|@@|sb_loaded|schemabrain/i.test(text)) {
        skipped.own++;
        continue;
      }
      const g = guard.guard(text, 'mysql');
      if (!g.ok) {
        if (g.reason === 'too_long') skipped.tooLong++;
        else skipped.notReadOnly++;
        continue;
      }
      if (g.tables.length === 0) {
        skipped.systemOnly++;
        continue;
      }
      queries.push({ sql: g.normalized, calls: Number(r.calls), meanMs: r.mean_ms === null ? null : Number(r.mean_ms), rows: r.row_count === null ? null : Number(r.row_count), tables: g.tables, fingerprint: g.fingerprint });
    }
    return { ok: true, queries, scanned: rows.length, skipped };
  } catch (e) {
    const code = (e as { code?: string }).code ?? '';
    if (/DENIED/.test(code)) return { ok: false, reason: 'permission_denied', message: 'the user may not read performance_schema', hint: 'GRANT SELECT ON performance_schema.* to the indexing user.' };
    return { ok: false, reason: 'error', message: (e as Error).message.slice(0, 300), hint: 'Check that performance_schema is readable.' };
  } finally {
    conn.destroy();
  }
}
