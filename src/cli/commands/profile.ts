import { MAX_SAMPLE_ROWS } from '../../core/profile';
import { intFlag, parseArgs, stringFlag, UsageError } from '../args';
import type { CliCommand, CliIO } from '../command';
import { callToolInProcess, report, SERVER_FLAGS, SERVER_FLAGS_USAGE, textTable, usageFailure } from './metric';

const USAGE = `schemabrain profile <schema.table> [--source S] [--sample-rows N] [--detailed] [--catalog PATH] [--json]

Profiles one table and checks its data quality (the profile_table tool): per-column nulls, distinct counts,
ranges and top values from a bounded sample, and findings such as null keys, duplicate codes and orphaned
references. Writes HTML and JSON reports under $SCHEMABRAIN_HOME/artifacts/ and prints their paths.
  --source       the indexed source, when several hold the table
  --sample-rows  rows sampled at most (default 1000, at most ${MAX_SAMPLE_ROWS}; 0 = catalog statistics only)
  --detailed     every finding and column detail (response_format: detailed)
${SERVER_FLAGS_USAGE}`;

function pct(v: unknown): string {
  return typeof v === 'number' ? `${Math.round(v * 1000) / 10}%` : '—';
}

function profileBody(d: Record<string, unknown>): string {
  const sample = (d.sample ?? {}) as { rows?: number; method?: string; complete?: boolean };
  const out = [
    `${String(d.qualified_name)} on ${String(d.source)}: about ${d.row_estimate ?? '?'} rows; sample ${sample.rows ?? 0} rows (${sample.method ?? 'none'}${sample.complete ? ', whole table' : ''})`,
  ];
  const columns = (d.columns as Record<string, unknown>[] | undefined) ?? [];
  out.push(
    textTable(
      ['column', 'type', 'null', 'distinct', 'min', 'max', 'pii'],
      columns.map((c) => [c.name, c.type, pct(c.null_fraction), c.distinct_estimate ?? null, c.min ?? null, c.max ?? null, (c.pii_categories as string[] | undefined)?.join(',') ?? '']),
    ),
  );
  const findings = (d.findings as { severity: string; kind: string; column: string | null; message: string }[] | undefined) ?? [];
  const counts = (d.finding_counts ?? {}) as Record<string, number>;
  out.push(`findings: ${counts.high ?? 0} high, ${counts.medium ?? 0} medium, ${counts.low ?? 0} low${d.findings_truncated ? ' (first ones shown; --detailed for all)' : ''}`);
  for (const f of findings) out.push(`  [${f.severity}] ${f.kind}${f.column ? ` ${f.column}` : ''}: ${f.message}`);
  for (const n of (d.notes as string[] | undefined) ?? []) out.push(`note: ${n}`);
  const a = (d.artifacts ?? {}) as Record<string, string>;
  if (a.profile_html) out.push(`reports: ${a.profile_html}`, `         ${a.quality_html}`);
  return `${out.join('\n')}\n`;
}

export const profileCommand: CliCommand = {
  name: 'profile',
  summary: 'Profile a table and check its data quality (profile_table); writes HTML/JSON reports',
  usage: USAGE,
  async run(argv, io: CliIO) {
    const json = argv.includes('--json');
    try {
      const p = parseArgs(argv, { ...SERVER_FLAGS, source: 'string', 'sample-rows': 'string', detailed: 'boolean' });
      const table = p.positional[0];
      if (!table) throw new UsageError('the table is required, written schema.table (e.g. main.Invoice or public.orders)');
      if (p.positional.length > 1) throw new UsageError(`unexpected argument '${p.positional[1]}'`);
      const sampleRows = intFlag(p, 'sample-rows', 0, MAX_SAMPLE_ROWS);
      const args: Record<string, unknown> = { qualified_name: table };
      const source = stringFlag(p, 'source');
      if (source) args.source = source;
      if (sampleRows !== undefined) args.sample_rows = sampleRows;
      if (p.flags.detailed) args.response_format = 'detailed';
      const env = await callToolInProcess(p, io, 'profile_table', args);
      return report(io, 'profile', env, json, profileBody);
    } catch (e) {
      if (e instanceof UsageError) return usageFailure(io, json, e, USAGE, 'find_relevant_tables');
      throw e;
    }
  },
};
