import type { Status } from '../envelope/kinds';
import { createEventBus, serverEvent, toolCallEvent, type EventBus } from '../events/bus';
import type { ResultSummary, ServerEventSubtype } from '../events/event';
import { redactArgs, redactString } from '../events/redact';
import { isoMicros } from '../events/time';
import { createTelemetry, type Telemetry } from '../telemetry/telemetry';
import type { Logger } from '../util/logger';
import { canonicalJson, sha256Hex } from './canonical';
import { AuditError, openAuditLog, type AuditErrorKind, type AuditLog } from './log';
import { sqlFingerprint } from './sql-fingerprint';

/** Everything the server knows about one finished tool call. */
export interface ToolCallRecord {
  /** The server process's UUID (seed 002 `server_session_id`). */
  readonly sessionId: string;
  /** From the MCP `initialize` request's clientInfo; null before initialisation or when absent. */
  readonly client: { readonly name: string | null; readonly version: string | null } | null;
  readonly tool: string;
  /** The raw arguments; redacted here before they reach any sink. */
  readonly args: unknown;
  readonly status: Status;
  /** The envelope's error kind, or the refusal reason when refused. */
  readonly errorKind: string | null;
  readonly piiCategories: readonly string[];
  /** SQL the call compiled or ran; only its normalised fingerprint is kept. */
  readonly sql?: string | null;
  readonly rowCount?: number | null;
  readonly truncated?: boolean | null;
  readonly durationMs: number;
  /** Catalog generation the call read. */
  readonly generation: number | null;
  readonly resultSummary?: ResultSummary;
}

export interface RecordOutcome {
  /** The audit row's hash: the call's tamper-evident id (also the span's gen_ai.tool.call.id). Absent when not audited. */
  readonly auditHash?: string;
  readonly auditSeq?: number;
  /**
   * Set when the call's row could not be made durable and auditing fails closed (the default): the server must
   * answer with a retryable `audit_unavailable` error instead of the call's data. Never set with `failOpen`.
   */
  readonly auditFailure?: { readonly kind: AuditErrorKind; readonly message: string };
}

/** Marker rows the recorder writes into the log itself (their `tool` never names an MCP tool). */
export const AUDIT_MARKER_FAIL_OPEN = 'audit:fail_open';
export const AUDIT_MARKER_GAP = 'audit:gap';
/** A checkpoint candidate event is emitted at every multiple of this seq (and at close). */
export const CHECKPOINT_CANDIDATE_EVERY = 1000;

export interface CallRecorderDeps {
  /** null with auditing off (`--no-audit`). */
  readonly audit: AuditLog | null;
  /** null with events off (`--no-events`). */
  readonly events: EventBus | null;
  readonly telemetry: Telemetry | null;
  readonly logger: Logger;
  /** The server session, for lifecycle events (tool calls carry their own). */
  readonly sessionId?: string;
  /**
   * `--audit-fail-open`: answer calls whose row cannot be written. The first row the session writes is an
   * `audit:fail_open` marker, and once the log takes rows again an `audit:gap` marker records how many calls were
   * answered without a row (row_count) and the audit error kind, before the next call's row.
   */
  readonly failOpen?: boolean;
}

export interface CallRecorder {
  /** Never rejects: the tool call's response must not depend on its bookkeeping. */
  record(call: ToolCallRecord): Promise<RecordOutcome>;
  /** A `server_event` on the bus (server_start before the transport accepts requests, server_stop in a finally). */
  serverEvent(subtype: ServerEventSubtype, detail?: Record<string, unknown>): void;
  /** Waits for queued audit appends, closes the files and flushes spans. */
  close(): Promise<void>;
}

/** sha256 of the canonical redacted arguments: equal calls collide, filter values and e-mails never count. */
export function argsFingerprint(args: unknown): string {
  return sha256Hex(canonicalJson(redactArgs(args ?? {})));
}

/**
 * The one call the MCP server makes after each tool call, before returning the response:
 *
 *   const outcome = await recorder.record({ sessionId, client, tool, args, status: env.status, errorKind: env.error?.kind ?? null, … });
 *
 * It writes the audit row and waits for its fsync (so the call is on disk before the agent sees the answer), then
 * emits the redacted `tool_call` event and records the span with the audit hash as the call id. An audit failure
 * (unwritable file, lock timeout, corrupt tail) is logged once per kind and the call proceeds unaudited: the
 * server is more useful without audit than not at all. Events and spans are lossy by design.
 */
export function createCallRecorder(deps: CallRecorderDeps): CallRecorder {
  const reported = new Set<string>();
  const once = (key: string, msg: string): void => {
    if (reported.has(key)) return;
    reported.add(key);
    deps.logger.warn(msg);
  };
  const sessionId = deps.sessionId ?? 'unknown';
  let failOpenMarked = false;
  /** Calls answered without a row under fail-open, not yet recorded by an `audit:gap` marker. */
  let gap: { count: number; first: string; last: string; kind: AuditErrorKind } | null = null;
  let head: { seq: number; hash: string } | null = null;
  let candidateSeq = 0;

  const marker = (tool: string, time: string, fields: { status: Status; errorKind: string | null; rowCount: number | null; detail: Record<string, unknown> }) =>
    deps.audit!.append({
      time,
      sessionId,
      clientName: null,
      clientVersion: null,
      tool,
      status: fields.status,
      errorKind: fields.errorKind,
      piiCategories: [],
      argsFingerprint: sha256Hex(canonicalJson(fields.detail)),
      sqlFingerprint: null,
      rowCount: fields.rowCount,
      truncated: null,
      durationMs: 0,
      catalogGeneration: null,
    });

  /** Under fail-open, the markers that must precede the next row: the mode itself (once), then any gap. */
  const writeMarkers = async (time: string): Promise<void> => {
    if (!deps.failOpen) return;
    // Claimed before the await, so concurrent calls write each marker once; given back if the write fails.
    if (!failOpenMarked) {
      failOpenMarked = true;
      try {
        await marker(AUDIT_MARKER_FAIL_OPEN, time, { status: 'success', errorKind: null, rowCount: null, detail: { fail_open: true } });
      } catch (e) {
        failOpenMarked = false;
        throw e;
      }
    }
    if (gap) {
      const g = gap;
      gap = null;
      try {
        await marker(AUDIT_MARKER_GAP, time, { status: 'error', errorKind: 'audit_unavailable', rowCount: g.count, detail: { first: g.first, last: g.last, kind: g.kind } });
      } catch (e) {
        const later = gap as typeof g | null;
        gap = later ? { ...g, count: g.count + later.count, last: later.last } : g;
        throw e;
      }
      deps.events?.emit(serverEvent(sessionId, 'audit_unavailable', JSON.stringify({ recovered: true, unaudited_calls: g.count, kind: g.kind })));
    }
  };

  const emitCandidate = (seq: number, hash: string): void => {
    if (!deps.audit || seq <= candidateSeq) return;
    candidateSeq = seq;
    deps.events?.emit(serverEvent(sessionId, 'audit_checkpoint', JSON.stringify({ seq, hash, path: deps.audit.path })));
  };

  return {
    async record(call: ToolCallRecord): Promise<RecordOutcome> {
      const time = isoMicros();
      let outcome: RecordOutcome = {};
      if (deps.audit) {
        try {
          await writeMarkers(time);
          const rec = await deps.audit.append({
            time,
            sessionId: call.sessionId,
            clientName: clientText(call.client?.name),
            clientVersion: clientText(call.client?.version),
            tool: call.tool,
            status: call.status,
            errorKind: call.errorKind,
            piiCategories: call.piiCategories,
            argsFingerprint: argsFingerprint(call.args),
            sqlFingerprint: sqlFingerprint(call.sql),
            rowCount: call.rowCount ?? null,
            truncated: call.truncated ?? null,
            durationMs: call.durationMs,
            catalogGeneration: call.generation,
          });
          outcome = { auditHash: rec.hash, auditSeq: rec.seq };
          head = { seq: rec.seq, hash: rec.hash };
          if (Math.floor(rec.seq / CHECKPOINT_CANDIDATE_EVERY) > Math.floor(candidateSeq / CHECKPOINT_CANDIDATE_EVERY)) emitCandidate(rec.seq, rec.hash);
        } catch (err) {
          const kind: AuditErrorKind = err instanceof AuditError ? err.kind : 'io';
          const msg = err instanceof AuditError ? err.message : 'audit: append failed';
          if (deps.failOpen) {
            gap = gap ? { ...gap, count: gap.count + 1, last: time } : { count: 1, first: time, last: time, kind };
            once(`audit:${kind}`, `${msg}; --audit-fail-open: tool calls are answered unaudited until it recovers, then an audit:gap row records how many (further ${kind} failures are not reported)`);
          } else {
            outcome = { auditFailure: { kind, message: msg } };
            once(`audit:${kind}`, `${msg}; tool calls are answered with a retryable audit_unavailable error until it recovers (further ${kind} failures are not reported)`);
          }
          if (!reported.has(`event:${kind}`)) {
            reported.add(`event:${kind}`);
            deps.events?.emit(serverEvent(sessionId, 'audit_unavailable', JSON.stringify({ kind, fail_open: deps.failOpen === true })));
          }
        }
      }
      const resultSummary: ResultSummary = outcome.auditSeq !== undefined ? { ...call.resultSummary, audit_seq: outcome.auditSeq } : { ...call.resultSummary };
      try {
        deps.events?.emit(
          toolCallEvent({
            timestamp: time,
            sessionId: call.sessionId,
            tool: call.tool,
            args: call.args,
            status: call.status,
            errorKind: call.errorKind,
            durationMs: call.durationMs,
            resultSummary,
          }),
        );
      } catch {
        once('events', 'events: emitting failed; events are dropped');
      }
      deps.telemetry?.recordToolCall({
        sessionId: call.sessionId,
        tool: call.tool,
        status: call.status,
        errorKind: call.errorKind,
        durationMs: call.durationMs,
        resultSummary,
        ...(outcome.auditHash ? { callId: outcome.auditHash } : {}),
      });
      return outcome;
    },
    serverEvent(subtype: ServerEventSubtype, detail?: Record<string, unknown>): void {
      const message = detail && Object.keys(detail).length ? JSON.stringify(redactArgs(detail)) : null;
      deps.events?.emit(serverEvent(deps.sessionId ?? 'unknown', subtype, message));
    },
    async close(): Promise<void> {
      if (deps.audit && gap) await writeMarkers(isoMicros()).catch(() => undefined);
      if (head) emitCandidate(head.seq, head.hash);
      await deps.audit?.close().catch(() => undefined);
      deps.events?.close();
      await deps.telemetry?.shutdown();
    },
  };
}

export interface OpenRecorderOptions {
  readonly sessionId: string;
  /** null: auditing off. */
  readonly auditPath: string | null;
  /** null: events off. Resolve it with resolveEventsPath (flag > SCHEMABRAIN_EVENTS_PATH > default). */
  readonly eventsPath: string | null;
  /** Read for OTEL_EXPORTER_OTLP_ENDPOINT and friends. */
  readonly env: NodeJS.ProcessEnv;
  readonly logger: Logger;
  /** `--audit-fail-open` (see CallRecorderDeps.failOpen). */
  readonly failOpen?: boolean;
}

/** Wires the three sinks for one server session; touches no file until the first call. */
export function openRecorder(opts: OpenRecorderOptions): CallRecorder {
  return createCallRecorder({
    sessionId: opts.sessionId,
    audit: opts.auditPath ? openAuditLog(opts.auditPath) : null,
    events: opts.eventsPath ? createEventBus({ path: opts.eventsPath, logger: opts.logger }) : null,
    telemetry: createTelemetry(opts.env, opts.logger),
    logger: opts.logger,
    failOpen: opts.failOpen === true,
  });
}

/**
 * A client's self-description as an audit row keeps it: the client writes it, so it is redacted like arguments (a
 * connection URL, a password setting) and cut to 256 characters (every row of a session repeats it, and the hash
 * chain keeps every row for good).
 */
function clientText(value: string | null | undefined): string | null {
  if (value === undefined || value === null) return null;
  const text = redactString(String(value));
  return text.length > 256 ? `${text.slice(0, 255)}…` : text;
}
