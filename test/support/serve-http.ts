import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { DIST_CLI } from './build';

export interface HttpServerProcess {
  readonly child: ChildProcessWithoutNullStreams;
  /** The MCP endpoint the server printed once listening. */
  readonly url: string;
  /** Everything it wrote to stderr so far. */
  stderr(): string;
}

/** Starts the built `schemabrain serve` with `args` (`--http 0 …`) and resolves once it prints where it listens. */
export function serveHttp(args: readonly string[]): Promise<HttpServerProcess> {
  const child = spawn(process.execPath, [DIST_CLI, 'serve', ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  let err = '';
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`no listening line: ${err}`)), 30_000);
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(err);
      if (m) {
        clearTimeout(t);
        resolve({ child, url: m[1]!, stderr: () => err });
      }
    });
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${err}`)));
  });
}
