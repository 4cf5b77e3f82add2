import { AsyncLocalStorage } from 'node:async_hooks';
import crypto from 'node:crypto';
import { redactString } from '../../core/events/redact';
import { currentPrincipal, principalLabel } from '../../core/store/principal';
import type { Logger, LogLevel } from '../../core/util/logger';

/** The request being served: its id (from a sane `x-request-id`, else a fresh UUID) ties log lines together. */
const request = new AsyncLocalStorage<{ readonly id: string }>();

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/** The id for a request: the caller's `x-request-id` when it is a plain token, else a new one. */
export function requestIdFor(header: string | string[] | undefined): string {
  const v = Array.isArray(header) ? header[0] : header;
  return v && REQUEST_ID.test(v) ? v : crypto.randomUUID();
}

export function runWithRequestId<T>(id: string, fn: () => T): T {
  return request.run({ id }, fn);
}

export function currentRequestId(): string | null {
  return request.getStore()?.id ?? null;
}

/** Bearer tokens of this server and `Authorization` values, wherever they stand in a message. */
const TOKEN_IN_TEXT = /\bsbt_([0-9a-f]{12})_[A-Za-z0-9_-]{20,}/g;
const BEARER_IN_TEXT = /\b(Bearer)\s+[A-Za-z0-9._~+/=-]{8,}/gi;

/** A message as it may be logged: tokens cut to their id, connection URLs, e-mails, floor secrets and SQL literals redacted. */
export function scrubLogText(msg: string): string {
  return redactString(msg.replace(TOKEN_IN_TEXT, 'sbt_$1_<redacted>').replace(BEARER_IN_TEXT, '$1 <redacted>'));
}

const ORDER: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };

/** Fields of one structured line beyond level/ts/msg; values are names, ids, statuses and numbers, never data. */
export type LogFields = Readonly<Record<string, string | number | boolean | null>>;

export interface JsonLogger extends Logger {
  /** One line with extra fields (a tool call: tool, status, duration_ms, error_kind). */
  line(level: LogLevel, msg: string, fields: LogFields): void;
}

/**
 * A team replica's log: one JSON object per line on stderr (stdout stays free), with `level`, `ts`, `msg`, and,
 * inside a request, `request_id` and `principal` (`name/tokenId`, never the token). Messages are scrubbed of
 * tokens and secrets before they are written; fields carry only names, statuses and numbers.
 */
export function createJsonLogger(opts: { level?: LogLevel; write?: (line: string) => void; component?: string } = {}): JsonLogger {
  const min = ORDER[opts.level ?? ((process.env.SCHEMABRAIN_LOG_LEVEL as LogLevel) || 'info')] ?? 1;
  const write = opts.write ?? ((l: string) => process.stderr.write(l));
  const line = (level: LogLevel, msg: string, fields: LogFields = {}): void => {
    if (ORDER[level] < min) return;
    const out: Record<string, unknown> = { level, ts: new Date().toISOString(), msg: scrubLogText(msg) };
    if (opts.component) out.component = opts.component;
    const rid = currentRequestId();
    if (rid) out.request_id = rid;
    const principal = principalLabel(currentPrincipal());
    if (principal) out.principal = principal;
    for (const [k, v] of Object.entries(fields)) out[k] = typeof v === 'string' ? scrubLogText(v) : v;
    write(`${JSON.stringify(out)}\n`);
  };
  return {
    line,
    debug: (m) => line('debug', m),
    info: (m) => line('info', m),
    warn: (m) => line('warn', m),
    error: (m) => line('error', m),
  };
}
