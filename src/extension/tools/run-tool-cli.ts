import { spawn } from 'node:child_process';
import readline from 'node:readline';
import type { Envelope } from '../../core/envelope';
import { createSecretChannel } from '../../core/secrets';

/**
 * Runs a tool-running CLI verb (`dist/cli.js metric … --json`, `profile … --json`) as a child process, the way the
 * indexer runner does: the editor's own Node (ELECTRON_RUN_AS_NODE), settings as flags and env, passwords over a
 * one-shot secret channel (never argv or env). The verb prints one charter envelope on stdout.
 */

export interface ToolCliRequest {
  readonly nodePath: string;
  readonly cliPath: string;
  /** The verb and its arguments, without --json (added here). No secrets. */
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  /** Passwords by source name, offered over the secret channel; empty means no channel. */
  readonly passwords: ReadonlyMap<string, string>;
  readonly signal?: AbortSignal;
  readonly onStderr?: (line: string) => void;
  /** Killed after this long (default 120 s). */
  readonly timeoutMs?: number;
}

export type ToolCliOutcome =
  | { readonly ok: true; readonly envelope: Envelope<unknown>; readonly exitCode: number | null; readonly ms: number }
  | { readonly ok: false; readonly kind: 'spawn_failed' | 'crashed' | 'cancelled' | 'timeout'; readonly message: string };

export async function runToolCli(req: ToolCliRequest): Promise<ToolCliOutcome> {
  const t0 = performance.now();
  const channel = req.passwords.size > 0 ? await createSecretChannel(req.passwords) : undefined;
  const child = spawn(req.nodePath, [req.cliPath, ...req.args, '--json'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...req.env, ...(channel?.env ?? {}) },
  });
  let envelope: Envelope<unknown> | undefined;
  let stopped: 'cancelled' | 'timeout' | undefined;
  const stop = (why: 'cancelled' | 'timeout'): void => {
    stopped ??= why;
    child.kill('SIGTERM');
    setTimeout(() => child.exitCode === null && child.kill('SIGKILL'), 2000).unref();
  };
  const onAbort = (): void => stop('cancelled');
  if (req.signal?.aborted) onAbort();
  else req.signal?.addEventListener('abort', onAbort, { once: true });
  const timer = setTimeout(() => stop('timeout'), req.timeoutMs ?? 120_000);

  const stderrTail: string[] = [];
  readline.createInterface({ input: child.stderr }).on('line', (line) => {
    stderrTail.push(line);
    if (stderrTail.length > 20) stderrTail.shift();
    req.onStderr?.(line);
  });
  readline.createInterface({ input: child.stdout }).on('line', (line) => {
    if (!line.startsWith('{')) return;
    try {
      const parsed = JSON.parse(line) as Envelope<unknown>;
      if (typeof parsed.status === 'string') envelope = parsed;
    } catch {
      // not the envelope line
    }
  });

  let spawnError: Error | undefined;
  const code = await new Promise<number | null>((resolve) => {
    child.on('error', (e) => {
      spawnError = e;
      resolve(null);
    });
    child.on('close', (c) => resolve(c));
  });
  clearTimeout(timer);
  req.signal?.removeEventListener('abort', onAbort);
  channel?.dispose();
  if (stopped === 'cancelled') return { ok: false, kind: 'cancelled', message: 'cancelled' };
  if (stopped === 'timeout') return { ok: false, kind: 'timeout', message: `the CLI did not answer within ${Math.round((req.timeoutMs ?? 120_000) / 1000)} s` };
  if (spawnError) return { ok: false, kind: 'spawn_failed', message: `could not start the CLI: ${spawnError.message}` };
  if (envelope) return { ok: true, envelope, exitCode: code, ms: performance.now() - t0 };
  return { ok: false, kind: 'crashed', message: `the CLI exited with code ${code} without an answer${stderrTail.length ? `: ${stderrTail.slice(-3).join(' | ')}` : ''}` };
}
