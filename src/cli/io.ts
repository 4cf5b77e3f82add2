/** Reads all of standard input (used by --password-stdin, so a password never lands in argv or the environment). */
export async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) {
    throw new Error('--password-stdin expects the password on standard input (pipe it in)');
  }
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

/** Set on `process` once the handler below is installed (the quick index bundle and the full CLI share a process). */
const CLOSED_OUTPUT = Symbol.for('schemabrain.cli.closedOutput');

/** The exit status of a command whose output was closed and that has no job to stop: the shell's 128 + SIGPIPE. */
export const EXIT_CLOSED_OUTPUT = 141;

/**
 * A reader that goes away (`schemabrain index … | head -1`, `schemabrain tail | grep -m1 x`) makes the next write to
 * standard output or error fail with EPIPE, which Node raises as an uncaught stream error and a stack trace. Here it
 * ends the command as Ctrl-C would: a command that handles SIGINT (an index, `tail --follow`, the server) stops through
 * its own handler, so a job is abandoned cleanly and the catalog is left as it was; anything else exits at once. A
 * command that would have ended with 0 ends with 141 instead (its output was cut short, as `yes | head` reports), one
 * that failed or was cancelled keeps its own status. Later write errors on the closed streams are ignored; any other
 * stream error is thrown as before.
 */
export function endOnClosedOutput(proc: NodeJS.Process = process): void {
  const marked = proc as NodeJS.Process & { [CLOSED_OUTPUT]?: true };
  if (marked[CLOSED_OUTPUT]) return;
  marked[CLOSED_OUTPUT] = true;
  let closed = false;
  const onError = (e: NodeJS.ErrnoException): void => {
    if (closed) return;
    if (e.code !== 'EPIPE') throw e;
    closed = true;
    if (proc.listenerCount('SIGINT') > 0) proc.emit('SIGINT', 'SIGINT');
    else proc.exit(EXIT_CLOSED_OUTPUT);
  };
  proc.once('exit', () => {
    if (closed && !proc.exitCode) proc.exitCode = EXIT_CLOSED_OUTPUT;
  });
  proc.stdout.on('error', onError);
  proc.stderr.on('error', onError);
}
