import { redactDeep } from '../../core/pii/secrets';
import { z } from 'zod';
import { failure, partial, schemaProvenance, success } from '../../core/envelope';
import type { Confidence, Envelope } from '../../core/envelope';
import type { ColumnInfo } from '../../core/catalog/model';
import {
  ArtifactsError,
  artifactsRoot,
  columnWire,
  ensureArtifactsRoot,
  findingWire,
  jobInfo,
  MAX_SAMPLE_ROWS,
  newJobId,
  profileTable as runProfile,
  sampleWire,
  writeProfileArtifacts,
} from '../../core/profile';
import type { ArtifactPaths, ColumnAccess, ProfileQuery } from '../../core/profile';
import { checkAllowlist, runReadOnlyPostgres, runReadOnlySqlite } from '../../core/sql';
import { runReadOnlyMysql } from '../../core/sql/mysql-exec';
import { ansiQuotesToBackticks } from '../../core/sql/mysql-guard';
import { defineTool, tokenEstimate } from '../tool';
import { columnVisibility, lastSegment, resolutionFailure, responseFormatArg, sourceArg, tableNameArg } from './common';
import { viewReadsBlocked } from './run-query';

const input = z.strictObject({
  qualified_name: tableNameArg,
  source: sourceArg,
  sample_rows: z
    .number()
    .int()
    .min(0)
    .max(MAX_SAMPLE_ROWS)
    .default(1000)
    .describe('Rows sampled at most (TABLESAMPLE, random order or LIMIT; never a full scan); 0 = catalog statistics only.'),
  response_format: responseFormatArg,
});

/** Room for a sample of wide rows; the row cap is what normally bounds it. */
const SAMPLE_MAX_BYTES = 8_000_000;
const MAX_FINDINGS_CONCISE = 20;

/**
 * The reports cannot be written (SCHEMABRAIN_HOME is a file, read-only, or its disk is full): the server's own
 * state is not usable, which the operator fixes; the agent can still read the table's structure.
 */
function artifactsFailure(e: ArtifactsError, qualifiedName: string, source: string): Envelope<never> {
  return failure('index_not_ready', `Cannot profile '${qualifiedName}': ${e.message}. The server's operator must fix that folder; describe_table answers from the catalog meanwhile.`, {
    recovery: { suggested_tool: 'describe_table', suggested_args: { qualified_name: qualifiedName, source } },
  });
}

export const profileTable = defineTool({
  name: 'profile_table',
  title: 'Profile a table and check its data quality',
  description:
    "Use this when you need what one table's data looks like or whether to trust it: per-column nulls, distinct counts, ranges, top values, and quality findings (null keys, duplicate codes, orphaned references, impossible dates) from a bounded sample, with HTML/JSON reports. Use describe_table instead for structure only. Compositions: describe_table → profile_table → run_query.",
  input,
  latency: 'slow',
  idempotent: false,
  sideEffects: 'read',
  async handler(args, ctx) {
    const res = ctx.catalog.resolveTable(args.qualified_name, args.source);
    if (!res.ok) return resolutionFailure(res, 'profile_table', 'qualified_name', lastSegment(args.qualified_name), args.source);
    const entry = res.value;
    const source = entry.source;
    const violation = checkAllowlist([`${entry.table.schema}.${entry.table.name}`], ctx.deps.allowedSchemas, source.engine === 'sqlite' ? 'main' : source.engine === 'mysql' ? source.database : 'public');
    if (violation) {
      return failure('allowlist_violation', `Table '${entry.qualifiedName}' is outside the schemas this source exposes. ${violation.message}`, {
        recovery: { suggested_tool: 'list_indexed_schemas', suggested_args: {}, widening_hint: violation.wideningHint },
      });
    }

    // A view whose rows may be derived from a blocked value (run_query refuses it the same way).
    const viewRefusal = viewReadsBlocked(ctx, source, entry);
    if (viewRefusal) {
      const cats = [...new Set(entry.table.columns.flatMap((c) => ctx.deps.pii.blockedCategories(c.pii)))];
      return failure('pii_blocked', `Cannot profile '${entry.qualifiedName}': ${viewRefusal}.`, {
        piiCategories: cats.length > 0 ? cats : ['credential'],
        recovery: { suggested_tool: 'describe_table', suggested_args: { qualified_name: entry.qualifiedName, source: source.name } },
      });
    }

    // before the database is sampled: a profile whose reports cannot be kept is not worth its query
    const root = artifactsRoot();
    try {
      ensureArtifactsRoot(root);
    } catch (e) {
      if (e instanceof ArtifactsError) return artifactsFailure(e, entry.qualifiedName, source.name);
      throw e;
    }

    const vis = columnVisibility(ctx, entry);
    const access = (c: ColumnInfo): ColumnAccess => {
      const v = vis.get(c.name);
      return { displayName: v?.displayName ?? c.name, blocked: v?.blocked ?? [], categories: c.pii ? [...c.pii.categories] : [] };
    };
    const tagged = entry.table.columns.flatMap((c) => (c.pii ? c.pii.categories : []));
    ctx.trace.piiCategories.push(...(tagged as typeof ctx.trace.piiCategories));

    let query: ProfileQuery | null = null;
    let unavailable: string | undefined;
    if (args.sample_rows > 0) {
      const conn = await ctx.deps.connections.get(source);
      if ('kind' in conn) {
        unavailable = conn.message;
      } else {
        const guard = await ctx.deps.sqlGuard();
        const caps = (maxRows: number) => ({ timeoutMs: ctx.deps.limits.statementTimeoutMs, maxRows, maxBytes: SAMPLE_MAX_BYTES, signal: ctx.signal });
        query = (sql, maxRows) =>
          conn.engine === 'postgres'
            ? runReadOnlyPostgres(conn.pool, guard, sql, [], caps(maxRows))
            : conn.engine === 'mysql'
              ? // the profiler writes standard "identifiers"; MySQL reads those as strings
                runReadOnlyMysql(conn.target, guard, ansiQuotesToBackticks(sql), [], caps(maxRows))
              : Promise.resolve(runReadOnlySqlite(conn.db, guard, sql, [], caps(maxRows)));
      }
    }

    const profile = await runProfile({
      engine: source.engine,
      source: source.name,
      qualifiedName: entry.qualifiedName,
      table: entry.table,
      related: ctx.catalog.tablesOf(source.name).map((e) => e.table),
      access,
      query,
      sampleRows: args.sample_rows,
      unavailableReason: unavailable,
    });
    ctx.trace.sql = profile.sample.sql;
    ctx.trace.rowCount = profile.sample.rows;

    const statsOnly = profile.sample.rows === 0;
    if (statsOnly && profile.columns.every((c) => c.origin === 'none')) {
      if (unavailable) {
        return failure('missing_credential', `Cannot profile '${entry.qualifiedName}': ${unavailable} The catalog holds no statistics for it either.`, {
          recovery: { suggested_tool: 'get_index_status', suggested_args: { source: source.name } },
        });
      }
      if (profile.sample.error) {
        return failure('internal_error', `Cannot profile '${entry.qualifiedName}': ${profile.sample.error}`, {
          recovery: { suggested_tool: 'describe_table', suggested_args: { qualified_name: entry.qualifiedName, source: source.name } },
        });
      }
    }

    const jobId = newJobId();
    // the artifacts are files an agent or a person opens: no floor secret may reach them either
    let paths: ArtifactPaths;
    try {
      paths = writeProfileArtifacts(root, jobId, redactDeep(profile).value);
    } catch (e) {
      if (e instanceof ArtifactsError) return artifactsFailure(e, entry.qualifiedName, source.name);
      throw e;
    }
    const detailed = args.response_format === 'detailed';
    const findings = detailed ? profile.findings : profile.findings.slice(0, MAX_FINDINGS_CONCISE);
    const data: Record<string, unknown> = {
      qualified_name: entry.qualifiedName,
      source: source.name,
      row_estimate: profile.rowEstimate,
      sample: detailed ? { ...sampleWire(profile), sql: profile.sample.sql } : sampleWire(profile),
      columns: profile.columns.map((c) => columnWire(c, detailed)),
      findings: findings.map(findingWire),
      finding_counts: {
        high: profile.findings.filter((f) => f.severity === 'high').length,
        medium: profile.findings.filter((f) => f.severity === 'medium').length,
        low: profile.findings.filter((f) => f.severity === 'low').length,
      },
      ...(findings.length < profile.findings.length ? { findings_truncated: true } : {}),
      ...(detailed && profile.checks.length ? { checks: profile.checks.map((c) => ({ rule: c.rule, column: c.column, ok: c.ok, ...(c.note ? { note: c.note } : {}) })) } : {}),
      ...(profile.notes.length ? { notes: profile.notes } : {}),
      artifacts: { profile_html: paths.profileHtml, profile_json: paths.profileJson, quality_html: paths.qualityHtml, quality_json: paths.qualityJson },
      job: jobInfo(jobId),
    };
    data.token_estimate = tokenEstimate(data);
    const confidence: Confidence = profile.sample.complete ? 'HIGH' : statsOnly ? 'LOW' : 'MEDIUM';
    const opts = { confidence, provenance: schemaProvenance(), hints: profile.findings.length ? ['run_query', 'describe_table'] : ['run_query'] };
    // Partial: the sample could not be read (or was cut by bytes) and the figures rest on catalog statistics.
    const degradedSample = args.sample_rows > 0 && (statsOnly || profile.sample.error !== undefined);
    return degradedSample || findings.length < profile.findings.length ? partial(data, opts) : success(data, opts);
  },
  summarize(env) {
    const d = env.data as { columns?: unknown[]; findings?: unknown[]; sample?: { rows?: number } } | null;
    return { columns: d?.columns?.length ?? 0, findings: d?.findings?.length ?? 0, sample_rows: d?.sample?.rows ?? 0 };
  },
});
