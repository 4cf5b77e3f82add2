/**
 * Private per-launch secret channel between the editor (which holds passwords in SecretStorage) and the
 * child processes it starts (the MCP server, the CLI indexer).
 *
 * Why not argv/env/files: argv and the environment of a process are readable by every same-user process
 * through /proc/<pid>/cmdline and /proc/<pid>/environ, and files outlive the process. A unix-domain socket
 * in a fresh 0700 directory is reachable only by the same user (and root), lives only as long as the
 * launch, and nothing of the secret is ever written to disk.
 *
 * Threat model: we defend against other users on the machine, against secrets being captured in logs,
 * crash dumps of argv/env, settings sync, and files. Same-user processes are trusted by the operating
 * system anyway (they can ptrace the editor), so the channel only narrows their window: the socket serves
 * one fetch per token, the token is 32 random bytes compared in constant time, it is useless after its
 * first use, and the channel closes itself after a short time to live. The socket path is not a secret.
 *
 * Protocol (one line each way, JSON): the child sends `{"v":1,"token":"<hex>"}\n`, the server answers
 * `{"v":1,"secrets":{"<source name>":"<password>",...}}\n` or `{"v":1,"error":"<message>"}\n` and closes.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** Env var naming the socket path (not a secret). */
export const SECRET_CHANNEL_ENV = 'SCHEMABRAIN_SECRET_CHANNEL';
/** Env var carrying the one-time token; useless once the child has fetched. */
export const SECRET_TOKEN_ENV = 'SCHEMABRAIN_SECRET_TOKEN';

const PROTOCOL_VERSION = 1;
const MAX_REQUEST_BYTES = 4096;

export interface SecretChannelOptions {
  /** How many successful fetches the channel serves before closing (default 1). */
  readonly maxUses?: number;
  /** The channel closes itself after this many milliseconds even if unused (default 120 000). */
  readonly ttlMs?: number;
}

export interface SecretChannel {
  /** Absolute path of the unix-domain socket. */
  readonly path: string;
  /** One-time token the child must present. */
  readonly token: string;
  /** The two env entries to give the child: `{SCHEMABRAIN_SECRET_CHANNEL, SCHEMABRAIN_SECRET_TOKEN}`. */
  readonly env: Readonly<Record<string, string>>;
  /** Resolves when the channel has closed (used up, expired or disposed). */
  readonly closed: Promise<void>;
  /** Number of successful fetches served so far. */
  uses(): number;
  dispose(): void;
}

interface ChannelRequest {
  readonly v?: unknown;
  readonly token?: unknown;
}

function timingSafeEqualText(a: string, b: string): boolean {
  const ab = Buffer.from(a, 'utf8');
  const bb = Buffer.from(b, 'utf8');
  return ab.length === bb.length && crypto.timingSafeEqual(ab, bb);
}

/**
 * Serves `secrets` (source name → password) to the child processes of one launch.
 * Pass `channel.env` in the child's environment; call `dispose()` when the child is gone.
 */
export async function createSecretChannel(
  secrets: ReadonlyMap<string, string>,
  options: SecretChannelOptions = {},
): Promise<SecretChannel> {
  const maxUses = Math.max(1, options.maxUses ?? 1);
  const ttlMs = Math.max(1000, options.ttlMs ?? 120_000);
  // mkdtemp creates the directory with mode 0700 on POSIX; chmod again in case of an unusual umask.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-sec-'));
  fs.chmodSync(dir, 0o700);
  const socketPath = path.join(dir, 's.sock');
  let token = crypto.randomBytes(32).toString('hex');
  let served = 0;
  let isClosed = false;
  const payload = JSON.stringify({ v: PROTOCOL_VERSION, secrets: Object.fromEntries(secrets) }) + '\n';

  let resolveClosed: () => void = () => undefined;
  const closed = new Promise<void>((r) => (resolveClosed = r));

  const server = net.createServer((sock) => {
    let buf = '';
    sock.setEncoding('utf8');
    sock.setTimeout(5000, () => sock.destroy());
    sock.on('error', () => sock.destroy());
    sock.on('data', (chunk: string) => {
      buf += chunk;
      if (buf.length > MAX_REQUEST_BYTES) {
        sock.destroy();
        return;
      }
      const nl = buf.indexOf('\n');
      if (nl < 0) return;
      let req: ChannelRequest;
      try {
        req = JSON.parse(buf.slice(0, nl)) as ChannelRequest;
      } catch {
        sock.end(JSON.stringify({ v: PROTOCOL_VERSION, error: 'malformed request' }) + '\n');
        return;
      }
      if (isClosed || typeof req.token !== 'string' || !timingSafeEqualText(req.token, token)) {
        sock.end(JSON.stringify({ v: PROTOCOL_VERSION, error: 'token rejected' }) + '\n');
        return;
      }
      served += 1;
      if (served >= maxUses) {
        // Invalidate before answering so a second client racing this one is refused.
        token = crypto.randomBytes(32).toString('hex');
        sock.end(payload, () => dispose());
      } else {
        sock.end(payload);
      }
    });
  });

  const dispose = (): void => {
    if (isClosed) return;
    isClosed = true;
    clearTimeout(timer);
    server.close(() => {
      fs.rmSync(dir, { recursive: true, force: true });
      resolveClosed();
    });
  };
  const timer = setTimeout(dispose, ttlMs);
  timer.unref();

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => {
      server.off('error', reject);
      resolve();
    });
  });
  fs.chmodSync(socketPath, 0o600);
  server.unref();
  const issuedToken = token;
  return {
    path: socketPath,
    token: issuedToken,
    env: { [SECRET_CHANNEL_ENV]: socketPath, [SECRET_TOKEN_ENV]: issuedToken },
    closed,
    uses: () => served,
    dispose,
  };
}

export class SecretChannelError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretChannelError';
  }
}

export interface FetchSecretsOptions {
  readonly timeoutMs?: number;
}

/**
 * Child side: when `SCHEMABRAIN_SECRET_CHANNEL` is set, fetches the source-name → password map once.
 * Returns an empty map when no channel was given (a client other than the editor started us).
 * Rejects with SecretChannelError when a channel was given but cannot be used; the message never
 * contains a secret.
 */
export async function fetchSecretsFromChannel(
  env: NodeJS.ProcessEnv = process.env,
  options: FetchSecretsOptions = {},
): Promise<Map<string, string>> {
  const socketPath = env[SECRET_CHANNEL_ENV];
  if (!socketPath) return new Map();
  const token = env[SECRET_TOKEN_ENV] ?? '';
  const timeoutMs = options.timeoutMs ?? 5000;
  const reply = await new Promise<string>((resolve, reject) => {
    const sock = net.createConnection(socketPath);
    let buf = '';
    let settled = false;
    const finish = (err: Error | null, value?: string): void => {
      if (settled) return;
      settled = true;
      sock.destroy();
      if (err) reject(err);
      else resolve(value ?? '');
    };
    sock.setEncoding('utf8');
    sock.setTimeout(timeoutMs, () => finish(new SecretChannelError(`secret channel timed out after ${timeoutMs} ms`)));
    sock.on('error', (e: NodeJS.ErrnoException) =>
      finish(new SecretChannelError(`secret channel unreachable (${e.code ?? 'error'}); restart the server from the editor`)),
    );
    sock.on('connect', () => sock.write(JSON.stringify({ v: PROTOCOL_VERSION, token }) + '\n'));
    sock.on('data', (chunk: string) => {
      buf += chunk;
      const nl = buf.indexOf('\n');
      if (nl >= 0) finish(null, buf.slice(0, nl));
    });
    sock.on('end', () => finish(null, buf));
  });
  let parsed: { secrets?: Record<string, unknown>; error?: unknown };
  try {
    parsed = JSON.parse(reply) as typeof parsed;
  } catch {
    throw new SecretChannelError('secret channel answered with malformed data');
  }
  if (typeof parsed.error === 'string') throw new SecretChannelError(`secret channel refused: ${parsed.error}`);
  const out = new Map<string, string>();
  for (const [name, value] of Object.entries(parsed.secrets ?? {})) {
    if (typeof value === 'string') out.set(name, value);
  }
  return out;
}

/** Removes the channel variables from an env object so they are not passed on to grandchildren. */
export function scrubSecretChannelEnv(env: NodeJS.ProcessEnv): void {
  delete env[SECRET_CHANNEL_ENV];
  delete env[SECRET_TOKEN_ENV];
}
