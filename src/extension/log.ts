import * as vscode from 'vscode';
import { logLine } from './ui-text';

/**
 * The extension's own diagnostics (a LogOutputChannel); never receives secrets. Each message is one line: control
 * characters in it (a driver's error, a principal from a team server) are shown as escapes, so none can forge a line.
 */
export interface Log {
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string): void;
  /** Reveals the channel (the "Show Log" button of error toasts). */
  show(): void;
}

export function createLog(channel: vscode.LogOutputChannel): Log {
  return {
    info: (m) => channel.info(logLine(m)),
    warn: (m) => channel.warn(logLine(m)),
    error: (m) => channel.error(logLine(m)),
    show: () => channel.show(true),
  };
}
