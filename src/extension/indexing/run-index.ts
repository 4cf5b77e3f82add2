import { spawn } from 'node:child_process';
import readline from 'node:readline';
import { createSecretChannel } from '../../core/secrets';

export interface IndexProgress {
  readonly phase?: string;
  readonly message?: string;
  readonly done?: number;
  readonly total?: number;
  /** 0..100 over the whole run, when the indexer reports it. */
  readonly percent?: number;
}

export type IndexOutcome =
  | {
      readonly status: 'succeeded';
      readonly result: Readonly<Record<string, unknown>>;
      /** Cancel was asked for after the indexer had written the catalog: the new index stands. */
      readonly cancelTooLate?: boolean;
    }
  | { readonly status: 'failed'; readonly kind: string; readonly message: string; readonly hint?: string }
  | { readonly status: 'cancelled' };

export interface IndexRequest {
  /** Node binary: the editor's own (process.execPath) with ELECTRON_RUN_AS_NODE=1 in env. */
  readonly nodePath: string;
  readonly cliPath: string;
  readonly name: string;
  /** Credential-free locator: postgres URL without password, or SQLite file path. */
  readonly source: string;
  readonly catalogPath: string;
  /** Passed over the per-launch secret channel, keyed by connection name; never in argv or env. */
  readonly password?: string;
  readonly env: Readonly<Record<string, string>>;
  readonly onProgress?: (p: IndexProgress) => void;
  readonly onStderr?: (line: string) => void;
  /** Aborting kills the indexer; it writes the catalog by atomic rename, so the previous file stays intact. */
  readonly signal?: AbortSignal;
}

/** Runs `cli.js index … --json` and reads its JSON-lines progress. */
export async function runIndex(req: IndexRequest): Promise<IndexOutcome> {
  const channel = req.password !== undefined ? await createSecretChannel(new Map([[req.name, req.password]])) : undefined;
  const args = [req.cliPath, 'index', '--source', req.source, '--name', req.name, '--catalog', req.catalogPath, '--json'];
  const child = spawn(req.nodePath, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...req.env, ...(channel?.env ?? {}) },
  });
  let outcome: IndexOutcome | undefined;
  let cancelled = false;
  const onAbort = (): void => {
    cancelled = true;
    child.kill('SIGTERM');
    setTimeout(() => child.exitCode === null && child.kill('SIGKILL'), 2000).unref();
  };
  if (req.signal?.aborted) onAbort();
  else req.signal?.addEventListener('abort', onAbort, { once: true });

  const stderrTail: string[] = [];
  readline.createInterface({ input: child.stderr }).on('line', (line) => {
    stderrTail.push(line);
    if (stderrTail.length > 20) stderrTail.shift();
    req.onStderr?.(line);
  });
  readline.createInterface({ input: child.stdout }).on('line', (line) => {
    let msg: Record<string, unknown>;
    try {
      msg = JSON.parse(line) as Record<string, unknown>;
    } catch {
      return;
    }
    if (msg.type === 'progress') req.onProgress?.(msg as IndexProgress);
    else if (msg.type === 'result') outcome = { status: 'succeeded', result: msg };
    else if (msg.type === 'error') {
      outcome = {
        status: 'failed',
        kind: String(msg.kind ?? 'unknown'),
        message: String(msg.message ?? 'indexing failed'),
        hint: typeof msg.hint === 'string' ? msg.hint : undefined,
      };
    }
  });

  const code = await new Promise<number | null>((resolve) => {
    child.on('error', (e) => {
      outcome ??= { status: 'failed', kind: 'spawn_failed', message: `could not start the indexer: ${e.message}` };
      resolve(null);
    });
    child.on('close', (c) => resolve(c));
  });
  req.signal?.removeEventListener('abort', onAbort);
  channel?.dispose();
  // A result line means the catalog was written: a cancel that arrived afterwards did not undo it.
  if (cancelled && outcome?.status === 'succeeded') return { ...outcome, cancelTooLate: true };
  if (cancelled) return { status: 'cancelled' };
  if (outcome) return outcome;
  return {
    status: 'failed',
    kind: 'indexer_crashed',
    message: `the indexer exited with code ${code} without a result${stderrTail.length ? `: ${stderrTail.slice(-3).join(' | ')}` : ''}`,
  };
}
