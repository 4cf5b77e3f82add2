import type { ErrorKind, Status } from '../envelope/kinds';
import type { Redacted } from './redact';

/**
 * The events-file wire shape of seed 002, field for field. These types describe JSON lines on disk that
 * other tools (log shippers, `jq`) read, which is why their members are snake_case like the seed.
 */

/**
 * `audit_unavailable`: an audit row could not be made durable (the call was answered with an error, or unaudited
 * under --audit-fail-open); `audit_checkpoint`: a checkpoint candidate (seq and hash of a durable row) for an
 * external witness or SIEM to keep out of the log writer's reach.
 */
export const SERVER_EVENT_SUBTYPES = ['server_start', 'server_stop', 'schema_version_mismatch', 'events_path_init', 'audit_unavailable', 'audit_checkpoint'] as const;
export type ServerEventSubtype = (typeof SERVER_EVENT_SUBTYPES)[number];

/** Counts and fingerprints only, never row data. */
export type ResultSummary = Readonly<Record<string, string | number | boolean | null>>;

export interface ToolCallEvent {
  readonly timestamp: string;
  readonly server_session_id: string;
  readonly kind: 'tool_call';
  readonly tool_name: string;
  readonly args_summary: Redacted;
  readonly status: Status;
  readonly error_kind: ErrorKind | string | null;
  readonly duration_ms: number;
  readonly result_summary: ResultSummary;
}

export interface ServerEvent {
  readonly timestamp: string;
  readonly server_session_id: string;
  readonly kind: 'server_event';
  readonly event_subtype: ServerEventSubtype;
  readonly message: string | null;
}

export type BusEvent = ToolCallEvent | ServerEvent;

export function isBusEvent(value: unknown): value is BusEvent {
  if (value === null || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  if (typeof v.timestamp !== 'string' || typeof v.server_session_id !== 'string') return false;
  if (v.kind === 'tool_call') return typeof v.tool_name === 'string' && typeof v.status === 'string';
  if (v.kind === 'server_event') return typeof v.event_subtype === 'string';
  return false;
}

/** Numbers, strings and booleans at the top level of a tool's `data`, and the length of every array: a generic extractor for tools without their own. */
export function summarizeData(data: unknown): ResultSummary {
  if (data === null || typeof data !== 'object') return {};
  if (Array.isArray(data)) return { items: data.length };
  const out: Record<string, number | boolean> = {};
  for (const [k, v] of Object.entries(data as Record<string, unknown>)) {
    if (Array.isArray(v)) out[k] = v.length;
    else if (typeof v === 'number' && Number.isFinite(v)) out[k] = v;
    else if (typeof v === 'boolean') out[k] = v;
  }
  return out;
}
