import { intFlag, parseArgs, stringFlag, UsageError } from '../args';
import type { CliCommand, CliIO } from '../command';
import { callToolInProcess, report, SERVER_FLAGS, SERVER_FLAGS_USAGE, textTable, usageFailure } from './metric';

const USAGE = `schemabrain query <sql> [--source S] [--limit N] [--catalog PATH] [--json]

Runs one read-only statement through the run_query tool, exactly as an agent's call: the same SQL guard, PII
masking at the source (blocked columns read NULL and are listed as masked), the row and time caps, and an audit row.
  --source  the indexed source, when several are indexed
  --limit   rows returned at most (default: the row cap, --max-rows)
${SERVER_FLAGS_USAGE}`;

function queryBody(d: Record<string, unknown>): string {
  const columns = ((d.columns as { name: string }[] | undefined) ?? []).map((c) => c.name);
  const rows = (d.rows as unknown[][] | undefined) ?? [];
  const masked = (d.masked_columns as string[] | undefined) ?? [];
  const out = [textTable(columns, rows), `${String(d.row_count ?? rows.length)} rows${d.truncated ? ' (truncated)' : ''} from ${String(d.source)}`];
  if (masked.length) out.push(`masked (PII): ${masked.join(', ')}`);
  return `${out.join('\n')}\n`;
}

export const queryCommand: CliCommand = {
  name: 'query',
  summary: 'Run one read-only SQL statement as the agent would (run_query: guard, PII masking, caps, audit)',
  usage: USAGE,
  async run(argv, io: CliIO) {
    const json = argv.includes('--json');
    try {
      const p = parseArgs(argv, { ...SERVER_FLAGS, source: 'string', limit: 'string' });
      const sql = p.positional[0];
      if (!sql) throw new UsageError('the SQL statement is required (one argument, quoted)');
      if (p.positional.length > 1) throw new UsageError(`unexpected argument '${p.positional[1]}' (quote the statement as one argument)`);
      const args: Record<string, unknown> = { sql };
      const source = stringFlag(p, 'source');
      if (source) args.source = source;
      const limit = intFlag(p, 'limit', 1, 10_000);
      if (limit !== undefined) args.max_rows = limit;
      const env = await callToolInProcess(p, io, 'run_query', args);
      return report(io, 'query', env, json, queryBody);
    } catch (e) {
      if (e instanceof UsageError) return usageFailure(io, json, e, USAGE, 'find_relevant_tables');
      throw e;
    }
  },
};
