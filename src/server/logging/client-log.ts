import type { LoggingLevel } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../../core/util/logger';

/**
 * Server warnings and errors for MCP clients (`notifications/message`): what a user should see in the editor's
 * server output (a source became unreachable, definition files failed to load, auditing is off or failing).
 * Messages are cut to their first line and scrubbed of anything that could be a secret or a data value before they
 * leave: credentials in URLs, quoted literals, long numbers. The full text stays on stderr.
 */
export interface ClientLogEntry {
  readonly level: LoggingLevel;
  readonly message: string;
}

/** Recent warnings kept for sessions that connect later (e.g. "auditing is off", logged at start-up). */
const REPLAY = 20;

export class ClientLogBus {
  private readonly listeners = new Set<(e: ClientLogEntry) => void>();
  private readonly recentEntries: ClientLogEntry[] = [];

  emit(level: LoggingLevel, message: string): void {
    const entry = { level, message: scrubForClient(message) };
    this.recentEntries.push(entry);
    if (this.recentEntries.length > REPLAY) this.recentEntries.shift();
    for (const fn of this.listeners) fn(entry);
  }

  recent(): readonly ClientLogEntry[] {
    return [...this.recentEntries];
  }

  subscribe(fn: (e: ClientLogEntry) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }
}

/** First line, credentials and literal values removed, capped: safe to show a client. */
export function scrubForClient(message: string): string {
  const first = message.split('\n')[0] ?? '';
  return first
    .replace(/([a-z][a-z0-9+.-]*:\/\/)[^/\s@]*@/gi, '$1***@')
    .replace(/\b(password|pwd|secret|token|api[_-]?key)\s*[=:]\s*\S+/gi, '$1=***')
    .replace(/'(?:[^'\\]|\\.)*'/g, "'…'")
    .replace(/\b\d{6,}\b/g, '…')
    .slice(0, 400);
}

/** A logger that writes to `base` and forwards warnings and errors to MCP clients through `bus`. */
export function teeLogger(base: Logger, bus: ClientLogBus): Logger {
  return {
    debug: (m) => base.debug(m),
    info: (m) => base.info(m),
    warn: (m) => {
      base.warn(m);
      bus.emit('warning', m);
    },
    error: (m) => {
      base.error(m);
      bus.emit('error', m);
    },
  };
}

const SEVERITY: readonly LoggingLevel[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

/** True when a message of `level` passes a client's `logging/setLevel` threshold. */
export function passes(level: LoggingLevel, threshold: LoggingLevel): boolean {
  return SEVERITY.indexOf(level) >= SEVERITY.indexOf(threshold);
}
