import * as vscode from 'vscode';

/** The extension's own diagnostics (a LogOutputChannel); never receives secrets. */
export interface Log {
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string): void;
  /** Reveals the channel (the "Show Log" button of error toasts). */
  show(): void;
}

export function createLog(channel: vscode.LogOutputChannel): Log {
  return {
    info: (m) => channel.info(m),
    warn: (m) => channel.warn(m),
    error: (m) => channel.error(m),
    show: () => channel.show(true),
  };
}
