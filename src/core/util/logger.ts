import { terminalSafeLines } from './terminal-text';

/** stderr logger: stdout of the MCP server is the protocol, so nothing in core or server writes there. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface Logger {
  debug(msg: string): void;
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string): void;
}

const ORDER: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };

export function createStderrLogger(prefix = 'schemabrain', level: LogLevel = (process.env.SCHEMABRAIN_LOG_LEVEL as LogLevel) || 'info'): Logger {
  const min = ORDER[level] ?? 1;
  const write = (l: LogLevel, msg: string): void => {
    if (ORDER[l] >= min) process.stderr.write(`[${prefix}] ${l}: ${terminalSafeLines(msg)}\n`);
  };
  return {
    debug: (m) => write('debug', m),
    info: (m) => write('info', m),
    warn: (m) => write('warn', m),
    error: (m) => write('error', m),
  };
}

export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };
