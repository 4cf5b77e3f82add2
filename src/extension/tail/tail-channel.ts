import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { followEvents, formatEventLine, isBusEvent, type BusEvent } from '../../core/events';
import { OUTPUT_CHANNEL_NAME, TAIL_LANGUAGE_ID } from '../constants';

/**
 * The `tail` output channel: follows the events file live (rotation-aware, through core's followEvents) and writes
 * one plain line per event, coloured by the contributed TextMate grammar of its own language id.
 */
export class TailChannel implements vscode.Disposable {
  readonly channel: vscode.OutputChannel;
  private abort: AbortController | undefined;
  private followedPath: string | undefined;
  private readonly emitter = new vscode.EventEmitter<BusEvent>();
  /** Fires after each event line is appended (tests and the audit view listen). */
  readonly onDidAppend = this.emitter.event;
  /** The text appended so far, bounded; lets checks read what the channel shows. */
  private readonly recent: string[] = [];
  private warnedMalformed = false;

  constructor() {
    this.channel = vscode.window.createOutputChannel(OUTPUT_CHANNEL_NAME, TAIL_LANGUAGE_ID);
  }

  /**
   * Starts (or moves) following `eventsPath`. The last `replay` events already in the file are shown first (so a
   * reloaded window is not blank); new lines arrive when a file-system watcher on the folder says the file changed,
   * with a slow poll as a backstop for file systems without change notifications.
   */
  follow(eventsPath: string, replay = 50): void {
    if (this.followedPath === eventsPath && this.abort) return;
    this.abort?.abort();
    this.followedPath = eventsPath;
    const abort = new AbortController();
    this.abort = abort;
    this.appendLine(`# following ${eventsPath}`);
    const earlier = lastEvents(eventsPath, replay);
    if (earlier.length) {
      this.appendLine(`# the last ${earlier.length} event${earlier.length === 1 ? '' : 's'} before this window opened:`);
      for (const e of earlier) this.appendLine(formatEventLine(e, { color: false }));
      this.appendLine('# live:');
    }
    void followEvents(eventsPath, {
      signal: abort.signal,
      pollMs: 5_000,
      wake: (notify) => watchFolderOf(eventsPath, notify),
      onEvent: (e) => {
        this.appendLine(formatEventLine(e, { color: false }));
        this.emitter.fire(e);
      },
      onError: (err) => {
        if (/malformed/.test(err.message)) {
          if (this.warnedMalformed) return;
          this.warnedMalformed = true;
        }
        this.appendLine(`# ${err.message}`);
      },
    }).catch((err: Error) => this.appendLine(`# tail stopped: ${err.message}`));
  }

  show(): void {
    this.channel.show(true);
  }

  text(): string {
    return this.recent.join('\n');
  }

  private appendLine(line: string): void {
    this.channel.appendLine(line);
    this.recent.push(line);
    if (this.recent.length > 2000) this.recent.splice(0, this.recent.length - 2000);
  }

  dispose(): void {
    this.abort?.abort();
    this.channel.dispose();
    this.emitter.dispose();
  }
}

/** The last `n` well-formed events of the file, read from its end (the file can hold megabytes). */
export function lastEvents(file: string, n: number): BusEvent[] {
  if (n <= 0) return [];
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, 'r');
    const size = fs.fstatSync(fd).size;
    const len = Math.min(size, 512 * 1024);
    const buf = Buffer.alloc(len);
    fs.readSync(fd, buf, 0, len, size - len);
    const lines = buf.toString('utf8').split('\n');
    // The first line may be cut by the window, the last one may be an emit in progress: both are dropped.
    if (len < size) lines.shift();
    lines.pop();
    const out: BusEvent[] = [];
    for (const line of lines.slice(-n * 2)) {
      try {
        const v: unknown = JSON.parse(line);
        if (isBusEvent(v)) out.push(v);
      } catch {
        // malformed: the live follower reports those
      }
    }
    return out.slice(-n);
  } catch {
    return [];
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** Calls `notify` when anything in the file's folder changes; returns the stop function (no-op where watching fails). */
function watchFolderOf(file: string, notify: () => void): () => void {
  try {
    const name = path.basename(file);
    const w = fs.watch(path.dirname(file), { persistent: false }, (_event, changed) => {
      if (!changed || String(changed).startsWith(name)) notify();
    });
    w.on('error', () => undefined);
    return () => w.close();
  } catch {
    return () => undefined;
  }
}
