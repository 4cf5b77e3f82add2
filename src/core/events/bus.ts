import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from '../util/logger';
import type { BusEvent, ServerEvent, ServerEventSubtype, ToolCallEvent } from './event';
import { redactArgs, redactString } from './redact';
import { isoMicros } from './time';
import { writeAll } from '../util/write-all';
import { makeDirs } from '../util/make-dirs';

/** What a file system error code means, for an operator reading the log. */
const FS_REASONS: Readonly<Record<string, string>> = {
  ENOTDIR: 'a part of the path is a file, not a folder',
  EEXIST: 'a part of the path is a file, not a folder',
  EACCES: 'permission denied',
  EPERM: 'not permitted',
  ENOSPC: 'the disk is full',
  EROFS: 'a read-only file system',
  EISDIR: 'the path is a folder',
  ENOENT: 'the folder cannot be created',
};

/** Seed 002: rotate at 10 MiB to a single `.1`. */
export const DEFAULT_MAX_BYTES = 10 * 1024 * 1024;

export interface EventBusOptions {
  readonly path: string;
  readonly logger: Logger;
  /** Rotation threshold; the active file never grows past it (unless one line alone is larger). */
  readonly maxBytes?: number;
}

export interface EventBus {
  readonly path: string;
  /** Redacts, serialises and appends one line. Lossy: never throws, a failure is logged once per error kind. */
  emit(event: BusEvent): void;
  close(): void;
}

/**
 * The JSON-lines event bus of seed 002.
 *
 * One `O_APPEND` descriptor stays open; each emit is one `write(2)` of a whole line, which Linux and macOS keep
 * contiguous when several server processes append to the same file. Before each write the descriptor's inode is
 * compared with the path's, so a rotation done by another process is followed instead of writing into `.1`.
 * Synchronous on purpose: it costs a few microseconds (see bench/results/audit.md) and keeps events in call order.
 */
export function createEventBus(opts: EventBusOptions): EventBus {
  const file = path.resolve(opts.path);
  const rotated = `${file}.1`;
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
  const reported = new Set<string>();
  let fd: number | null = null;
  let fdIno = -1;
  let closed = false;

  const fail = (err: unknown): void => {
    const code = (err as NodeJS.ErrnoException)?.code ?? (err instanceof Error ? err.name : 'unknown');
    if (reported.has(code)) return;
    reported.add(code);
    // The path is operator configuration, not a secret; the event itself is never logged.
    const why = FS_REASONS[code] ?? code;
    opts.logger.warn(`events: dropping events written to ${file} (${why}); further such failures are not reported`);
  };

  const closeFd = (): void => {
    if (fd === null) return;
    try {
      fs.closeSync(fd);
    } catch {
      // already gone
    }
    fd = null;
    fdIno = -1;
  };

  const open = (): number => {
    makeDirs(path.dirname(file), 0o700);
    // Never through a symbolic link (ELOOP): a link planted at the path would have the events appended to, and the
    // mode narrowed on, whatever file it names.
    const d = fs.openSync(file, fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_CREAT | (fs.constants.O_NOFOLLOW ?? 0), 0o600);
    const st = fs.fstatSync(d);
    if (!st.isFile()) {
      fs.closeSync(d);
      throw Object.assign(new Error(`${file} is not a regular file`), { code: 'ENOTREG' });
    }
    // A file created by someone else, or under a loose umask, is narrowed to the seed's 0600.
    if ((st.mode & 0o777) !== 0o600) fs.fchmodSync(d, 0o600);
    fd = d;
    fdIno = st.ino;
    return d;
  };

  /** The descriptor of the file now at `file`, reopened when another process rotated or removed it. */
  const current = (): { fd: number; size: number } => {
    if (fd !== null) {
      let pathIno = -1;
      try {
        pathIno = fs.statSync(file).ino;
      } catch {
        // renamed away and not yet recreated
      }
      if (pathIno !== fdIno) closeFd();
    }
    const d = fd ?? open();
    return { fd: d, size: fs.fstatSync(d).size };
  };

  const rotate = (): void => {
    const measured = fdIno;
    closeFd();
    try {
      // Only rotate the generation we measured: if another process rotated it already, the path holds a fresh file.
      if (fs.statSync(file).ino !== measured) return;
      fs.renameSync(file, rotated); // replaces any older `.1`: only one generation is kept
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  };

  return {
    path: file,
    emit(event: BusEvent): void {
      if (closed) return;
      try {
        const line = Buffer.from(`${JSON.stringify(redactEvent(event))}\n`, 'utf8');
        const cur = current();
        let d = cur.fd;
        if (cur.size > 0 && cur.size + line.length > maxBytes) {
          rotate();
          ({ fd: d } = current());
        }
        writeAll(d, line);
      } catch (err) {
        fail(err);
      }
    },
    close(): void {
      closed = true;
      closeFd();
    },
  };
}

/** Applies the redactor to everything an emitter could have filled with user data. */
export function redactEvent(event: BusEvent): BusEvent {
  if (event.kind === 'tool_call') {
    const summary: Record<string, string | number | boolean | null> = {};
    for (const [k, v] of Object.entries(event.result_summary ?? {})) summary[k] = typeof v === 'string' ? redactString(v) : v;
    return { ...event, args_summary: redactArgs(event.args_summary), result_summary: summary };
  }
  return { ...event, message: event.message === null || event.message === undefined ? null : redactString(event.message) };
}

export interface ToolCallEventInput {
  readonly sessionId: string;
  readonly tool: string;
  readonly args: unknown;
  readonly status: ToolCallEvent['status'];
  readonly errorKind?: string | null;
  readonly durationMs: number;
  readonly resultSummary?: ToolCallEvent['result_summary'];
  readonly timestamp?: string;
}

/** Builds a `tool_call` event with redacted args; the single place that maps camelCase input onto the seed's fields. */
export function toolCallEvent(input: ToolCallEventInput): ToolCallEvent {
  return {
    timestamp: input.timestamp ?? isoMicros(),
    server_session_id: input.sessionId,
    kind: 'tool_call',
    tool_name: input.tool,
    args_summary: redactArgs(input.args ?? {}),
    status: input.status,
    error_kind: input.errorKind ?? null,
    duration_ms: roundMs(input.durationMs),
    result_summary: input.resultSummary ?? {},
  };
}

export function serverEvent(sessionId: string, subtype: ServerEventSubtype, message: string | null = null): ServerEvent {
  return { timestamp: isoMicros(), server_session_id: sessionId, kind: 'server_event', event_subtype: subtype, message };
}

/** Microsecond resolution is plenty for a latency and keeps lines short. */
export function roundMs(ms: number): number {
  return Number.isFinite(ms) ? Math.round(ms * 1000) / 1000 : 0;
}
