import fs from 'node:fs';
import path from 'node:path';
import { AuditError } from '../../core/audit/log';
import { toLineRow, type AuditHead, type AuditRecord } from '../../core/audit/record';
import { listAudit, readAnchorFile, verifyAudit, writeAnchorFile, type AuditBreak, type VerifyResult } from '../../core/audit/verify';
import { STATUSES } from '../../core/envelope/kinds';
import { parseSince } from '../../core/events/time';
import { defaultAuditPath } from '../../core/util/home';
import { terminalSafe, terminalSafeLines } from '../../core/util/terminal-text';
import { intFlag, parseArgs, stringFlag, UsageError, type ParsedArgs } from '../args';
import { EXIT_CHECK_FAILED, EXIT_OK, EXIT_OPERATIONAL, type CliCommand, type CliIO } from '../command';

/** `--path`, then `SCHEMABRAIN_AUDIT_PATH` (the same variable `serve` reads), then `$SCHEMABRAIN_HOME/audit.log`. */
export function resolveAuditPath(flag: string | undefined, env: NodeJS.ProcessEnv): string {
  if (flag !== undefined && flag.trim()) return path.resolve(flag);
  const fromEnv = env.SCHEMABRAIN_AUDIT_PATH;
  return fromEnv && fromEnv.trim() ? path.resolve(fromEnv) : defaultAuditPath(env);
}

function sinceFlag(p: ParsedArgs): string | undefined {
  const raw = stringFlag(p, 'since');
  if (raw === undefined) return undefined;
  const since = parseSince(raw);
  if (!since) throw new UsageError(`--since '${raw}' is neither an ISO 8601 timestamp nor a duration such as 30m, 24h or 7d`);
  return since;
}

/** Parses flags, mapping usage errors to a message and exit 2 (never a stack trace), even when run outside main. */
async function guarded(io: CliIO, name: string, usage: string, body: () => Promise<number>): Promise<number> {
  try {
    return await body();
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr.write(`schemabrain ${name}: ${e.message}\nusage: ${usage}\n`);
      return EXIT_OPERATIONAL;
    }
    const code = (e as NodeJS.ErrnoException).code;
    const msg = e instanceof AuditError || code ? (e as Error).message : `unexpected failure (${(e as Error).name})`;
    io.stderr.write(`schemabrain ${name}: ${msg}\n`);
    return EXIT_OPERATIONAL;
  }
}

function missing(io: CliIO, name: string, file: string): number {
  io.stderr.write(`schemabrain ${name}: no audit log at ${file} (it is created by 'schemabrain serve' on the first tool call)\n`);
  return EXIT_OPERATIONAL;
}

function describeBreak(b: AuditBreak): string {
  return `line ${b.line}${b.seq !== null ? `, seq ${b.seq}` : ''}: ${b.reason} — ${b.detail}`;
}

const VERIFY_USAGE = 'schemabrain audit verify [--full] [--since ISO|DURATION] [--path P] [--no-anchor] [--json] | --checkpoints FILE --public-key FILE [--path P] [--json]';

/**
 * `audit verify`: exit 0 intact, 1 break, 2 operational error. The anchor file `<log>.anchor` (written here, never by
 * the server) is checked when present and moved to the new head after a clean run, so a coherent rewrite of the
 * log between two runs is caught.
 */
export const auditVerifyCommand: CliCommand = {
  name: 'audit verify',
  summary: 'Check the audit log hash chain (and its anchor): exit 0 intact, 1 broken',
  usage: VERIFY_USAGE,
  run: (argv, io) =>
    // --store: the team store's chain (see store-audit.ts) instead of a file.
    argv.some((a) => a === '--store' || a.startsWith('--store='))
      ? (require('./store-audit') as typeof import('./store-audit')).verifyStoreCommand(argv, io)
      : guarded(io, 'audit verify', VERIFY_USAGE, async () => {
      if (argv.some((a) => a === '--checkpoints' || a.startsWith('--checkpoints='))) {
        return (require('./audit-checkpoint') as typeof import('./audit-checkpoint')).verifyCheckpointsCommand(argv, io);
      }
      const p = parseArgs(argv, { full: 'boolean', since: 'string', path: 'string', json: 'boolean', 'no-anchor': 'boolean' });
      if (p.positional.length) throw new UsageError(`unexpected argument '${p.positional[0]}'`);
      const file = resolveAuditPath(stringFlag(p, 'path'), io.env);
      const since = sinceFlag(p);
      const useAnchor = p.flags['no-anchor'] !== true;
      if (!fs.existsSync(file)) return missing(io, 'audit verify', file);
      let anchor: AuditHead | undefined;
      if (useAnchor) {
        try {
          anchor = readAnchorFile(file);
        } catch (e) {
          throw new AuditError('io', `cannot read the anchor file: ${(e as Error).message}`);
        }
      }
      const result = await verifyAudit(file, { full: p.flags.full === true, since, anchor });
      let anchorUpdated = false;
      if (result.ok && useAnchor && result.headSeq > 0) {
        try {
          writeAnchorFile(file, { seq: result.headSeq, hash: result.headHash });
          anchorUpdated = true;
        } catch (e) {
          io.stderr.write(`schemabrain audit verify: could not update the anchor file (${(e as NodeJS.ErrnoException).code ?? 'error'})\n`);
        }
      }
      if (p.flags.json === true) io.stdout.write(`${JSON.stringify(verifyJson(file, result, anchor, anchorUpdated))}\n`);
      else io.stdout.write(terminalSafeLines(verifyText(file, result, anchor, anchorUpdated)));
      return result.ok ? EXIT_OK : EXIT_CHECK_FAILED;
    }),
};

function verifyJson(file: string, r: VerifyResult, anchor: AuditHead | undefined, anchorUpdated: boolean): Record<string, unknown> {
  return {
    path: file,
    ok: r.ok,
    rows: r.rows,
    head_seq: r.headSeq,
    head_hash: r.headHash,
    anchor: anchor ? { seq: anchor.seq, hash: anchor.hash, checked: r.anchorChecked } : null,
    anchor_updated: anchorUpdated,
    torn: r.torn ?? null,
    breaks: r.ok ? [] : r.breaks,
  };
}

function verifyText(file: string, r: VerifyResult, anchor: AuditHead | undefined, anchorUpdated: boolean): string {
  const lines: string[] = [];
  if (r.ok) {
    lines.push(`audit chain intact: ${r.rows} rows verified in ${file}, head seq ${r.headSeq} (${r.headHash.slice(0, 16)}…)`);
    if (anchor) lines.push(`anchor seq ${anchor.seq} matches`);
    if (anchorUpdated) lines.push(`anchor updated to seq ${r.headSeq}`);
    // Say plainly what a chain check alone cannot prove: the writer of the log can rebuild the chain, and the
    // anchor file lives beside the log where the same writer can rewrite it.
    lines.push(
      'proven: no row was edited, inserted, reordered or removed between the first and the last row.',
      `not provable without signed checkpoints: that rows were not removed from the end, appended or re-chained by whoever can write ${path.basename(file)} (and ${path.basename(file)}.anchor); use 'audit verify --checkpoints FILE --public-key FILE'`,
    );
  } else {
    lines.push(`audit chain BROKEN in ${file} at ${describeBreak(r.breakAt)}`);
    if (r.breaks.length > 1) for (const b of r.breaks.slice(1)) lines.push(`  also at ${describeBreak(b)}`);
    if (anchor && r.breaks.some((b) => b.reason === 'anchor_mismatch' || b.reason === 'truncated')) {
      lines.push(`(the anchor in ${path.basename(file)}.anchor was taken at seq ${anchor.seq}; only if the log was reset on purpose, delete that file)`);
    }
  }
  if (r.torn) {
    lines.push(
      `warning: the final line ${r.torn.line} has no newline (${r.torn.bytes} bytes at offset ${r.torn.offset}): an append interrupted before it was acknowledged; the next append moves it to ${path.basename(file)}.torn`,
    );
  }
  return `${lines.join('\n')}\n`;
}

const LIST_USAGE = 'schemabrain audit list [--since ISO|DURATION] [--status S] [--tool T] [--limit N] [--offset N] [--oldest-first] [--json] [--path P]';

/**
 * `audit list`: newest first by default, a fixed-width table on a terminal, JSON lines (rows as stored) with --json.
 * The table's cells come from the log file, which anyone able to write it can fill with control characters, so they
 * are printed escaped.
 */
export const auditListCommand: CliCommand = {
  name: 'audit list',
  summary: 'List audit rows (newest first), filtered by time, status or tool',
  usage: LIST_USAGE,
  run: (argv, io) =>
    guarded(io, 'audit list', LIST_USAGE, async () => {
      const p = parseArgs(argv, {
        since: 'string',
        status: 'string',
        tool: 'string',
        limit: 'string',
        offset: 'string',
        'oldest-first': 'boolean',
        json: 'boolean',
        path: 'string',
      });
      if (p.positional.length) throw new UsageError(`unexpected argument '${p.positional[0]}'`);
      const status = stringFlag(p, 'status');
      if (status !== undefined && !(STATUSES as readonly string[]).includes(status)) {
        throw new UsageError(`--status must be one of ${STATUSES.join(', ')}`);
      }
      const file = resolveAuditPath(stringFlag(p, 'path'), io.env);
      const opts = {
        since: sinceFlag(p),
        status,
        tool: stringFlag(p, 'tool'),
        limit: intFlag(p, 'limit', 1, 100_000) ?? 100,
        offset: intFlag(p, 'offset', 0, Number.MAX_SAFE_INTEGER) ?? 0,
        newestFirst: p.flags['oldest-first'] !== true,
      };
      if (!fs.existsSync(file)) return missing(io, 'audit list', file);
      // Lines that are not audit rows are skipped, and said: a file with none, or one that is not an audit log at all,
      // must not read as a log with no matching rows.
      let skipped = 0;
      let read = 0;
      const rows = await listAudit(file, { ...opts, onLine: (isRow) => void (isRow ? read++ : skipped++) });
      if (skipped > 0 && read === 0) {
        io.stderr.write(`schemabrain audit list: ${file} is not an audit log: none of its lines is an audit row ('schemabrain audit verify' shows the first bad line)\n`);
        return EXIT_OPERATIONAL;
      }
      if (skipped > 0) io.stderr.write(`schemabrain audit list: ${skipped} line(s) of ${file} are not audit rows and were skipped; 'schemabrain audit verify' checks the chain\n`);
      if (p.flags.json === true) {
        io.stdout.write(rows.map((r) => `${JSON.stringify(toLineRow(r))}\n`).join(''));
      } else {
        io.stdout.write(formatTable(rows));
      }
      return EXIT_OK;
    }),
};

function formatTable(rows: readonly AuditRecord[]): string {
  if (!rows.length) return 'no matching audit rows\n';
  const head = ['SEQ', 'TIME (UTC)', 'TOOL', 'STATUS', 'ERROR', 'MS', 'ROWS', 'PII'];
  const body = rows.map((r) => [
    String(r.seq),
    r.time.replace('T', ' ').replace(/(\.\d{3})\d*Z$/, '$1'),
    r.tool,
    r.status,
    r.errorKind ?? '',
    r.durationMs.toFixed(1),
    r.rowCount === null ? '' : `${r.rowCount}${r.truncated ? '+' : ''}`,
    r.piiCategories.join(','),
  ].map(terminalSafe));
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const fmt = (cells: string[]): string => cells.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd();
  return `${[fmt(head), ...body.map(fmt)].join('\n')}\n`;
}
