import { VERSION } from '../server/version';
import { UsageError } from './args';
import { EXIT_OK, EXIT_OPERATIONAL } from './command';
import type { CliIO } from './command';
import { commands } from './commands';
import type { CommandEntry } from './commands';
import { endOnClosedOutput } from './io';
import { terminalSafeLines, terminalStream } from '../core/util/terminal-text';

/** dist/cli.js: `schemabrain <verb> …`. Exit codes: 0 ok, 1 check failed, 2 operational error. */

function help(io: CliIO): void {
  const width = Math.max(...commands.map((c) => c.name.length));
  io.stdout.write(
    `schemabrain ${VERSION} — agent-first database catalog\n\nusage: schemabrain <command> [options]\n\n` +
      commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join('\n') +
      `\n\nRun 'schemabrain <command> --help' for a command's options. Files live under $SCHEMABRAIN_HOME (default ~/.schemabrain).\n`,
  );
}

export function findCommand(argv: readonly string[]): { entry: CommandEntry; rest: readonly string[] } | null {
  // Longest verb first, so `audit verify` wins over a hypothetical `audit`.
  const sorted = [...commands].sort((a, b) => b.name.split(' ').length - a.name.split(' ').length);
  for (const c of sorted) {
    const words = c.name.split(' ');
    if (words.every((w, i) => argv[i] === w)) return { entry: c, rest: argv.slice(words.length) };
  }
  return null;
}

export async function main(argv: readonly string[], io: CliIO): Promise<number> {
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') {
    help(io);
    return argv.length === 0 ? EXIT_OPERATIONAL : EXIT_OK;
  }
  if (argv[0] === '--version' || argv[0] === '-v') {
    io.stdout.write(`${VERSION}\n`);
    return EXIT_OK;
  }
  const matched = findCommand(argv);
  if (!matched) {
    io.stderr.write(`schemabrain: unknown command '${argv.join(' ')}'\n`);
    help({ ...io, stdout: io.stderr });
    return EXIT_OPERATIONAL;
  }
  const found = { command: matched.entry.load(), rest: matched.rest };
  if (found.rest.includes('--help') || found.rest.includes('-h')) {
    io.stdout.write(`${found.command.summary}\n\nusage: ${found.command.usage}\n`);
    return EXIT_OK;
  }
  try {
    return await found.command.run(found.rest, io);
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr.write(`schemabrain ${found.command.name}: ${e.message}\nusage: ${found.command.usage}\n`);
      return EXIT_OPERATIONAL;
    }
    io.stderr.write(`schemabrain ${found.command.name}: unexpected failure: ${(e as Error).message}\n`);
    return EXIT_OPERATIONAL;
  }
}

/** Runs the CLI in this process with the real streams; `prefetched` comes from the `index` verb's quick check. */
export function runCli(argv: readonly string[], prefetched?: CliIO['prefetchedPassword']): void {
  endOnClosedOutput();
  // Standard error carries text for a person only; standard output does when it is a terminal (otherwise it carries
  // JSON lines, a token or SQL for a program). Text for a person never passes a control character through.
  const stdout = process.stdout.isTTY ? terminalStream(process.stdout) : process.stdout;
  const io: CliIO = { stdout, stderr: terminalStream(process.stderr), env: process.env, isTTY: Boolean(process.stdout.isTTY), ...(prefetched ? { prefetchedPassword: prefetched } : {}) };
  main(argv, io).then(
    (code) => {
      process.exitCode = code;
    },
    (e: unknown) => {
      process.stderr.write(`schemabrain: ${terminalSafeLines((e as Error).message)}\n`);
      process.exitCode = EXIT_OPERATIONAL;
    },
  );
}

if (require.main === module) runCli(process.argv.slice(2));
