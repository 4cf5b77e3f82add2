import * as vscode from 'vscode';
import { followEvents, formatEventLine, type BusEvent } from '../../core/events';
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

  /** Starts (or moves) following `eventsPath`; lines from before this call are not replayed. */
  follow(eventsPath: string): void {
    if (this.followedPath === eventsPath && this.abort) return;
    this.abort?.abort();
    this.followedPath = eventsPath;
    const abort = new AbortController();
    this.abort = abort;
    this.appendLine(`# following ${eventsPath}`);
    void followEvents(eventsPath, {
      signal: abort.signal,
      pollMs: 250,
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
