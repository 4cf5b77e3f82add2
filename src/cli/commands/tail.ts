import fs from 'node:fs';
import type { BusEvent } from '../../core/events/event';
import { formatEventLine } from '../../core/events/format';
import { followEvents, readEvents, resolveEventsPath } from '../../core/events/tail';
import { parseSince } from '../../core/events/time';
import { parseArgs, stringFlag, UsageError } from '../args';
import { EXIT_OK, EXIT_OPERATIONAL, type CliCommand, type CliIO } from '../command';

const USAGE = 'schemabrain tail [--since ISO|DURATION] [--follow | --no-follow] [--json] [--events-path P]';
const DEFAULT_SINCE = '5m';

export interface TailCommandOptions {
  /** Ends `--follow`; by default SIGINT/SIGTERM do. */
  readonly signal?: AbortSignal;
  readonly pollMs?: number;
}

/**
 * `schemabrain tail`: prints events at or after `--since` (default the last 5 minutes, as the original did), then
 * keeps following the live file. `--follow` is the default on a terminal and `--no-follow` otherwise: a person at a
 * terminal wants to watch, while a pipe or script (`schemabrain tail | grep refused`) needs the command to finish.
 * `--json` prints the events as stored (already redacted), one per line, for log shippers.
 */
export function createTailCommand(opts: TailCommandOptions = {}): CliCommand {
  return {
    name: 'tail',
    summary: 'Print tool-call events as they happen (redacted); --no-follow prints and exits',
    usage: USAGE,
    run: (argv, io) => runTail(argv, io, opts),
  };
}

export const tailCommand: CliCommand = createTailCommand();

async function runTail(argv: readonly string[], io: CliIO, opts: TailCommandOptions): Promise<number> {
  let follow: boolean;
  let file: string;
  let since: string;
  let json: boolean;
  let defaultSince = false;
  try {
    const p = parseArgs(argv, { since: 'string', follow: 'boolean', 'no-follow': 'boolean', json: 'boolean', 'events-path': 'string' });
    if (p.positional.length) throw new UsageError(`unexpected argument '${p.positional[0]}'`);
    if (p.flags.follow === true && p.flags['no-follow'] === true) throw new UsageError('--follow and --no-follow exclude each other');
    follow = p.flags.follow === true ? true : p.flags['no-follow'] === true ? false : io.isTTY;
    defaultSince = stringFlag(p, 'since') === undefined;
    const rawSince = stringFlag(p, 'since') ?? DEFAULT_SINCE;
    const parsed = parseSince(rawSince);
    if (!parsed) throw new UsageError(`--since '${rawSince}' is neither an ISO 8601 timestamp nor a duration such as 30s, 5m or 24h`);
    since = parsed;
    json = p.flags.json === true;
    file = resolveEventsPath(stringFlag(p, 'events-path'), io.env);
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr.write(`schemabrain tail: ${e.message}\nusage: ${USAGE}\n`);
      return EXIT_OPERATIONAL;
    }
    throw e;
  }
  const color = io.isTTY && !json && !io.env.NO_COLOR;
  const print = (e: BusEvent): void => {
    io.stdout.write(`${json ? JSON.stringify(e) : formatEventLine(e, { color })}\n`);
  };

  if (!follow) {
    if (!fs.existsSync(file) && !fs.existsSync(`${file}.1`)) {
      io.stderr.write(`schemabrain tail: no events file at ${file} (start 'schemabrain serve' or set --events-path)\n`);
      return EXIT_OPERATIONAL;
    }
    // Never silently: a script reading the output must know that older events were left out.
    if (defaultSince) io.stderr.write(`schemabrain tail: showing events of the last ${DEFAULT_SINCE} (the default); use --since 30d or an ISO time for older ones\n`);
    try {
      readEvents(file, { since }).forEach(print);
    } catch (e) {
      io.stderr.write(`schemabrain tail: cannot read ${file} (${(e as NodeJS.ErrnoException).code ?? 'error'})\n`);
      return EXIT_OPERATIONAL;
    }
    return EXIT_OK;
  }

  const controller = new AbortController();
  const stop = (): void => controller.abort();
  opts.signal?.addEventListener('abort', stop, { once: true });
  if (!opts.signal) {
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  }
  if (!fs.existsSync(file)) io.stderr.write(`schemabrain tail: waiting for ${file} to appear…\n`);
  const reported = new Set<string>();
  try {
    await followEvents(file, {
      since,
      signal: controller.signal,
      pollMs: opts.pollMs,
      onEvent: print,
      onError: (err) => {
        const key = (err as NodeJS.ErrnoException).code ?? err.message.slice(0, 24);
        if (reported.has(key)) return;
        reported.add(key);
        io.stderr.write(`schemabrain tail: ${err.message}\n`);
      },
    });
  } finally {
    process.removeListener('SIGINT', stop);
    process.removeListener('SIGTERM', stop);
    opts.signal?.removeEventListener('abort', stop);
  }
  return EXIT_OK;
}
