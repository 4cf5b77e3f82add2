import fs from 'node:fs';
import path from 'node:path';
import { defaultEventsPath } from '../util/home';
import { isBusEvent, type BusEvent } from './event';
import { isAtOrAfter } from './time';

/** Seed 002 precedence: `--events-path` flag, then `SCHEMABRAIN_EVENTS_PATH`, then `~/.schemabrain/events.jsonl`. */
export function resolveEventsPath(flag: string | undefined, env: NodeJS.ProcessEnv): string {
  if (flag !== undefined && flag.trim()) return path.resolve(flag);
  return defaultEventsPath(env);
}

export interface ReadEventsOptions {
  /** ISO cut-off (see parseSince); events strictly older are skipped. */
  readonly since?: string;
  /** Also read the rotated `.1` generation first (default true), so a window that spans a rotation is complete. */
  readonly includeRotated?: boolean;
}

/** Splits a chunk into complete lines; returns the unterminated remainder to carry into the next read. */
function splitLines(carry: string, chunk: string, onLine: (line: string) => void): string {
  const text = carry + chunk;
  let start = 0;
  for (let nl = text.indexOf('\n', start); nl !== -1; nl = text.indexOf('\n', start)) {
    const line = text.slice(start, nl);
    if (line.trim()) onLine(line);
    start = nl + 1;
  }
  return text.slice(start);
}

function parseLine(line: string): BusEvent | undefined {
  try {
    const v: unknown = JSON.parse(line);
    return isBusEvent(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

function readFileEvents(file: string, since: string | undefined, out: BusEvent[]): void {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  // A final line without newline is an emit in progress (or torn): not an event yet.
  splitLines('', text, (line) => {
    const e = parseLine(line);
    if (e && (!since || isAtOrAfter(e.timestamp, since))) out.push(e);
  });
}

/** Every well-formed event in the files (`.1` first, then the active file), oldest first. Used by `tail --no-follow`. */
export function readEvents(file: string, opts: ReadEventsOptions = {}): BusEvent[] {
  const out: BusEvent[] = [];
  if (opts.includeRotated !== false) readFileEvents(`${file}.1`, opts.since, out);
  readFileEvents(file, opts.since, out);
  return out;
}

export interface FollowOptions {
  /** Replay the whole active file (and `.1`) before following; otherwise start at its end unless `since` is given. */
  readonly fromStart?: boolean;
  /** Replay events at or after this ISO instant from `.1` and the active file, then follow. */
  readonly since?: string;
  readonly onEvent: (event: BusEvent) => void;
  /** Unreadable files and malformed lines; following continues. */
  readonly onError?: (err: Error) => void;
  readonly signal: AbortSignal;
  /** Poll interval; seed 002's tail polls every 100 ms. */
  readonly pollMs?: number;
  /**
   * Subscribes to change notifications (e.g. fs.watch on the folder) that end the wait between polls early, so a
   * follower can poll slowly and still see lines at once; returns the unsubscribe function.
   */
  readonly wake?: (notify: () => void) => () => void;
}

/**
 * Follows the active events file like `tail -F`: polls its size, and when the inode at the path changes
 * (the bus renamed it to `.1`) drains what is left of the old file, then reads the new one from the start.
 * Resolves when `signal` aborts. Shared by `schemabrain tail` and the extension's output channel.
 */
export async function followEvents(file: string, opts: FollowOptions): Promise<void> {
  const pollMs = opts.pollMs ?? 100;
  const report = (err: unknown): void => opts.onError?.(err instanceof Error ? err : new Error(String(err)));
  const deliver = (line: string): void => {
    const e = parseLine(line);
    if (!e) {
      report(new Error(`skipping a malformed events line (${line.length} chars)`));
      return;
    }
    if (opts.since && !isAtOrAfter(e.timestamp, opts.since)) return;
    opts.onEvent(e);
  };

  let fd: number | null = null;
  let ino = -1;
  let offset = 0;
  let pending: Buffer = Buffer.alloc(0);
  const buf = Buffer.alloc(256 * 1024);

  const drain = (): void => {
    if (fd === null) return;
    for (;;) {
      const n = fs.readSync(fd, buf, 0, buf.length, offset);
      if (n <= 0) break;
      offset += n;
      // Lines are cut as bytes so a read that ends inside a UTF-8 sequence is decoded only once complete.
      const data = pending.length ? Buffer.concat([pending, buf.subarray(0, n)]) : buf.subarray(0, n);
      let start = 0;
      for (let nl = data.indexOf(0x0a, start); nl !== -1; nl = data.indexOf(0x0a, start)) {
        if (nl > start) deliver(data.toString('utf8', start, nl));
        start = nl + 1;
      }
      pending = Buffer.from(data.subarray(start));
    }
  };

  const closeFd = (): void => {
    if (fd !== null) fs.closeSync(fd);
    fd = null;
    ino = -1;
    offset = 0;
    pending = Buffer.alloc(0);
  };

  const openAt = (atEnd: boolean): void => {
    try {
      const d = fs.openSync(file, 'r');
      const st = fs.fstatSync(d);
      fd = d;
      ino = st.ino;
      offset = atEnd ? st.size : 0;
      pending = Buffer.alloc(0);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') report(err);
    }
  };

  const replay = opts.fromStart || opts.since !== undefined;
  if (replay) {
    try {
      const rotatedFile = `${file}.1`;
      const text = fs.existsSync(rotatedFile) ? fs.readFileSync(rotatedFile, 'utf8') : '';
      splitLines('', text, deliver);
    } catch (err) {
      report(err);
    }
  }
  openAt(!replay);

  const tick = (): void => {
    let st: fs.Stats | undefined;
    try {
      st = fs.statSync(file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') report(err);
    }
    if (fd !== null && (!st || st.ino !== ino)) {
      // Rotated (or removed): finish the old generation through the descriptor we still hold.
      drain();
      closeFd();
    }
    if (fd === null && st) openAt(false);
    else if (fd !== null && st && st.size < offset) {
      // Truncated in place: start over.
      offset = 0;
      pending = Buffer.alloc(0);
    }
    drain();
  };

  let nudge: (() => void) | undefined;
  const unwake = opts.wake?.(() => nudge?.());
  try {
    while (!opts.signal.aborted) {
      try {
        tick();
      } catch (err) {
        report(err);
      }
      await (opts.wake ? Promise.race([sleep(pollMs, opts.signal), new Promise<void>((r) => (nudge = r))]) : sleep(pollMs, opts.signal));
    }
  } finally {
    unwake?.();
    if (fd !== null) fs.closeSync(fd);
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done(): void {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
