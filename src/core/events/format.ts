import { terminalSafe } from '../util/terminal-text';
import type { BusEvent } from './event';

const RESET = '\x1b[0m';
const DIM = '\x1b[2m';
const BOLD = '\x1b[1m';
const STATUS_COLOR: Record<string, string> = {
  success: '\x1b[32m',
  empty: '\x1b[36m',
  partial: '\x1b[33m',
  degraded: '\x1b[33m',
  error: '\x1b[31m',
  refused: '\x1b[35m',
};

export interface FormatOptions {
  /** ANSI colours for terminals; the output channel and pipes want plain text. */
  readonly color: boolean;
}

/** `HH:MM:SS.mmm` in UTC, as written in the file: the operator compares lines with the audit log, which is UTC too. */
function clock(timestamp: string): string {
  const m = /T(\d{2}:\d{2}:\d{2})(\.\d{1,3})?/.exec(timestamp);
  return m ? `${m[1]}${(m[2] ?? '.000').padEnd(4, '0')}` : timestamp;
}

function formatDuration(ms: number): string {
  if (!Number.isFinite(ms)) return '?';
  if (ms >= 10_000) return `${(ms / 1000).toFixed(1)}s`;
  if (ms >= 100) return `${Math.round(ms)}ms`;
  return `${ms.toFixed(1)}ms`;
}

/**
 * One line per event: time, tool, status, duration, error kind, result counts.
 * `12:00:01.250  describe_table        success    3.2ms  columns=12 rows=0`
 * Every field read from the event is shown with its control characters escaped: the events file is written by any
 * server sharing the home folder and its fields can echo an agent's input, and the line goes to a terminal (only the
 * colours added here are escape sequences).
 */
export function formatEventLine(event: BusEvent, opts: FormatOptions): string {
  const paint = (code: string, text: string): string => (opts.color ? `${code}${text}${RESET}` : text);
  const time = paint(DIM, terminalSafe(clock(event.timestamp)));
  if (event.kind === 'server_event') {
    const session = terminalSafe(String(event.server_session_id).slice(0, 8));
    const msg = event.message ? `  ${terminalSafe(event.message)}` : '';
    return `${time}  ${paint(BOLD, `[${terminalSafe(event.event_subtype)}]`)}  session=${session}${msg}`;
  }
  const status = paint(STATUS_COLOR[event.status] ?? '', terminalSafe(event.status).padEnd(8));
  const parts = [time, terminalSafe(event.tool_name).padEnd(22), status, formatDuration(event.duration_ms).padStart(7)];
  if (event.error_kind) parts.push(paint(STATUS_COLOR[event.status] ?? '', terminalSafe(event.error_kind)));
  const counts = Object.entries(event.result_summary ?? {})
    .filter(([, v]) => v !== null && v !== undefined)
    .map(([k, v]) => terminalSafe(`${k}=${typeof v === 'string' && v.length > 16 ? `${v.slice(0, 12)}…` : String(v)}`));
  if (counts.length) parts.push(counts.join(' '));
  return parts.join('  ');
}
