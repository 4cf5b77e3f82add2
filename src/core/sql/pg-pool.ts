import type { Duplex } from 'node:stream';
import type pg from 'pg';
import type { PoolClient } from 'pg';
import { pgDriver } from './pg-driver';
import { DEFAULT_FUNCTION_POLICY, type FunctionPolicy } from './function-policy';

/**
 * Connection pool for one PostgreSQL source, used by guarded queries. A fourth belt under the three layers:
 * every session starts with `default_transaction_read_only=on`, so even a statement that escaped the explicit
 * `BEGIN READ ONLY` would run read-only. https://www.postgresql.org/docs/current/runtime-config-client.html
 * The password is supplied by a callback at connect time (SecretStorage, pgpass, an env reference), so it never
 * sits in this config, argv, env or logs. Pools are created by the caller and passed in; nothing here is global.
 *
 * Every client is a `FrameLimitedClient`: it reads the length header of each protocol message as the bytes arrive
 * and closes the socket when one message (a row, an error text) would exceed `maxMessageBytes`, before the driver
 * has buffered or decoded it. Without this, `SELECT repeat('x', 540000000)` made node-postgres build a 540 MB
 * string inside a socket callback, where V8's string limit threw ERR_STRING_TOO_LONG outside any try and the
 * process exited. https://www.postgresql.org/docs/current/protocol-message-formats.html
 */
export interface PostgresSourceConfig {
  readonly host: string;
  readonly port?: number;
  readonly database: string;
  readonly user: string;
  /** Called for each new connection; return undefined for trust/peer auth. */
  readonly password?: () => Promise<string | undefined> | string | undefined;
  readonly ssl?: pg.PoolConfig['ssl'];
  /** Connections at most (default 2). `SourcePool` uses 4: three for any query, one kept for short ones. */
  readonly maxConnections?: number;
  readonly connectTimeoutMs?: number;
  readonly idleTimeoutMs?: number;
  readonly applicationName?: string;
  /** One protocol message (one row, one error) at most; default 32 MiB, far below V8's 512 MiB string limit. */
  readonly maxMessageBytes?: number;
}

export const DEFAULT_MAX_MESSAGE_BYTES = 32 * 1024 * 1024;

/** Why a client's socket was closed by the frame limit. */
export interface OversizeMessage {
  /** Protocol message type: `D` a data row, `E` an error, `N` a notice, … */
  readonly type: string;
  readonly bytes: number;
  readonly limit: number;
}

const oversized = new WeakMap<object, OversizeMessage>();

/** The oversize record of a client whose socket the frame limit closed, if it did. */
export function oversizeOf(client: object): OversizeMessage | undefined {
  return oversized.get(client);
}

/**
 * The data-row bytes one statement may bring in before its result is cut on the wire, whatever the size of the
 * batches it is fetched in: set by `limitResult` for the statement's run, cleared after it.
 */
interface ResultBudget {
  readonly limit: number;
  seen: number;
}

const budgets = new WeakMap<object, ResultBudget>();
const overBudget = new WeakSet<object>();

/**
 * Caps the data rows `client` reads until `release` is called: past `bytes` of them, its socket is closed before the
 * rows are parsed, so a statement whose rows are large holds at most about `bytes` (plus one message) in memory,
 * however many rows a batch asked for. `cut()` then says the result was cut this way (the connection is gone).
 */
export function limitResult(client: object, bytes: number): { cut(): boolean; release(): void } {
  const budget: ResultBudget = { limit: bytes, seen: 0 };
  budgets.set(client, budget);
  overBudget.delete(client);
  return {
    cut: () => overBudget.has(client),
    release: () => {
      if (budgets.get(client) === budget) budgets.delete(client);
    },
  };
}

/** Follows the backend message framing (1-byte type, 4-byte length including itself) without buffering bodies. */
class FrameLimiter {
  private readonly header = Buffer.alloc(5);
  private have = 0;
  private skip = 0;

  constructor(
    private readonly limit: number,
    private readonly budget: () => ResultBudget | undefined = () => undefined,
  ) {}

  /** Returns the first message whose declared length exceeds the limit, or that takes the data rows past the budget. */
  feed(chunk: Buffer): { type: string; bytes: number; budget?: true } | null {
    let i = 0;
    while (i < chunk.length) {
      if (this.skip > 0) {
        const n = Math.min(this.skip, chunk.length - i);
        this.skip -= n;
        i += n;
        continue;
      }
      const n = Math.min(5 - this.have, chunk.length - i);
      chunk.copy(this.header, this.have, i, i + n);
      this.have += n;
      i += n;
      if (this.have === 5) {
        this.have = 0;
        const len = this.header.readUInt32BE(1);
        const type = String.fromCharCode(this.header[0]!);
        if (len - 4 > this.limit) return { type, bytes: len - 4 };
        const budget = type === 'D' ? this.budget() : undefined;
        if (budget) {
          budget.seen += len + 1;
          if (budget.seen > budget.limit) return { type, bytes: budget.seen, budget: true };
        }
        this.skip = Math.max(0, len - 4);
      }
    }
    return null;
  }
}

function limitStream(owner: object, stream: Duplex, limit: number): void {
  const limiter = new FrameLimiter(limit, () => budgets.get(owner));
  const onData = (chunk: Buffer | string): void => {
    const over = limiter.feed(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    if (!over) return;
    stream.removeListener('data', onData);
    if (over.budget) {
      overBudget.add(owner);
      stream.destroy(new Error(`the result's rows passed ${over.bytes} bytes on the wire, over what the answer may hold`));
      return;
    }
    oversized.set(owner, { type: over.type, bytes: over.bytes, limit });
    stream.destroy(new Error(`a single result message of ${over.bytes} bytes exceeds the ${limit}-byte limit`));
  };
  // Prepended, so the limit sees every chunk before node-postgres's parser does.
  stream.prependListener('data', onData);
}

type ClientCtor = typeof pg.Client;

/** A pg.Client subclass with the frame limit on its socket (TLS: on the decrypted stream once TLS is up). */
function frameLimitedClient(limit: number): ClientCtor {
  const Base = pgDriver().Client;
  class FrameLimitedClient extends Base {
    constructor(config?: string | pg.ClientConfig) {
      super(config);
      const conn = (this as unknown as { connection: { stream: Duplex; ssl?: unknown; on(ev: string, fn: () => void): void } }).connection;
      if (conn.ssl) conn.on('sslconnect', () => limitStream(this, conn.stream, limit));
      else limitStream(this, conn.stream, limit);
      // A socket closed under a checked-out client surfaces as the running query's error; without a listener here
      // the client's own 'error' event would be unhandled and end the process.
      this.on('error', () => undefined);
    }
  }
  return FrameLimitedClient as unknown as ClientCtor;
}

export function createReadOnlyPool(cfg: PostgresSourceConfig): pg.Pool {
  const password = cfg.password;
  const pool = new (pgDriver().Pool)({
    Client: frameLimitedClient(cfg.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES),
    host: cfg.host,
    port: cfg.port ?? 5432,
    database: cfg.database,
    user: cfg.user,
    ...(password ? { password: async () => (await password()) ?? '' } : {}),
    ssl: cfg.ssl,
    max: Math.max(1, Math.min(cfg.maxConnections ?? 2, 10)),
    connectionTimeoutMillis: cfg.connectTimeoutMs ?? 10_000,
    idleTimeoutMillis: cfg.idleTimeoutMs ?? 30_000,
    application_name: cfg.applicationName ?? 'schemabrain',
    options: '-c default_transaction_read_only=on',
  });
  // An idle client that dies (server restart) emits on the pool; without a listener Node would crash the process.
  pool.on('error', () => undefined);
  return pool;
}

/** A borrowed connection: `timeoutCapMs` is set when it came from the slot kept for short queries. */
export interface PoolLease {
  readonly client: PoolClient;
  readonly timeoutCapMs: number | null;
  release(destroy: boolean): void;
}

export interface PoolBusy {
  readonly busy: true;
  readonly running: number;
  readonly waiting: number;
  /** When a retry is likely to find a free slot (the longest a running query may still take). */
  readonly retryAfterMs: number;
}

export interface SourcePoolOptions {
  /** Slots kept for short queries: they run with `shortQueryMs` as their statement timeout (default 1). */
  readonly reservedSlots?: number;
  readonly shortQueryMs?: number;
  /** Callers waiting for a slot at most, beyond which a call is answered busy at once (default 16). */
  readonly maxWaiting?: number;
  /** How long a caller waits for a slot before it is answered busy (default 5 s). */
  readonly maxWaitMs?: number;
  readonly policy?: FunctionPolicy;
}

type SlotKind = 'general' | 'reserved';

interface Waiter {
  readonly resolve: (slot: SlotKind | null) => void;
  readonly timer: NodeJS.Timeout;
}

/**
 * One source's pool behind a queue. With a plain pool of 2, two slow queries made every other call wait 10 s for
 * a connection and fail with node-postgres's raw "timeout exceeded when trying to connect". Here:
 * - the pool has `max` connections; `max - reservedSlots` general slots take any query with its own timeout, and
 *   the reserved ones take a query only when the general ones are all busy and cap its statement timeout at
 *   `shortQueryMs`, so while long queries fill the general slots a short query still answers (and a long one that
 *   lands there stops at the short cap instead of taking the last connection for the full timeout);
 * - beyond `max`, callers wait in a FIFO for at most `maxWaitMs`, at most `maxWaiting` of them; a full queue or an
 *   expired wait is a typed busy answer (`PoolBusy`) the tools turn into a retryable error, never a raw message;
 * - catalog tools never come here: they read the catalog file, not the source.
 */
export class SourcePool {
  readonly pool: pg.Pool;
  readonly policy: FunctionPolicy;
  readonly max: number;
  /** Recent verdicts of the live function/view check (pg-exec.ts), keyed by the names and relations checked. */
  readonly objectVerdicts = new Map<string, { readonly at: number; readonly refusal: { readonly name: string; readonly message: string } | null }>();
  private readonly reserved: number;
  private readonly shortQueryMs: number;
  private readonly maxWaiting: number;
  private readonly maxWaitMs: number;
  private general = 0;
  private reservedUsed = 0;
  private readonly waiters: Waiter[] = [];
  private lastStatementTimeoutMs = 15_000;

  constructor(cfg: PostgresSourceConfig, opts: SourcePoolOptions = {}) {
    this.max = Math.max(1, Math.min(cfg.maxConnections ?? 4, 10));
    this.pool = createReadOnlyPool({ ...cfg, maxConnections: this.max });
    this.reserved = this.max >= 2 ? Math.max(0, Math.min(opts.reservedSlots ?? 1, this.max - 1)) : 0;
    this.shortQueryMs = opts.shortQueryMs ?? 1000;
    this.maxWaiting = opts.maxWaiting ?? 16;
    this.maxWaitMs = opts.maxWaitMs ?? 5000;
    this.policy = opts.policy ?? DEFAULT_FUNCTION_POLICY;
  }

  get stats(): { running: number; waiting: number } {
    return { running: this.general + this.reservedUsed, waiting: this.waiters.length };
  }

  /** Waits for a slot (bounded), then borrows a connection. `statementTimeoutMs` feeds the retry hint. */
  async acquire(statementTimeoutMs: number, signal?: AbortSignal): Promise<PoolLease | PoolBusy> {
    this.lastStatementTimeoutMs = statementTimeoutMs;
    let slot = this.takeSlot();
    if (slot === null) {
      if (this.waiters.length >= this.maxWaiting) return this.busy();
      slot = await new Promise<SlotKind | null>((resolve) => {
        const waiter: Waiter = {
          resolve,
          timer: setTimeout(() => {
            const i = this.waiters.indexOf(waiter);
            if (i >= 0) this.waiters.splice(i, 1);
            resolve(null);
          }, Math.min(this.maxWaitMs, statementTimeoutMs)),
        };
        this.waiters.push(waiter);
        signal?.addEventListener(
          'abort',
          () => {
            const i = this.waiters.indexOf(waiter);
            if (i < 0) return;
            this.waiters.splice(i, 1);
            clearTimeout(waiter.timer);
            resolve(null);
          },
          { once: true },
        );
      });
      if (slot === null) return this.busy();
    }
    const kind = slot;
    let client: PoolClient;
    try {
      client = await this.pool.connect();
    } catch (e) {
      this.freeSlot(kind);
      throw e;
    }
    let released = false;
    return {
      client,
      timeoutCapMs: kind === 'reserved' ? this.shortQueryMs : null,
      release: (destroy) => {
        if (released) return;
        released = true;
        client.release(destroy ? true : undefined);
        this.freeSlot(kind);
      },
    };
  }

  async end(): Promise<void> {
    for (const w of this.waiters.splice(0)) {
      clearTimeout(w.timer);
      w.resolve(null);
    }
    await this.pool.end();
  }

  private takeSlot(): SlotKind | null {
    if (this.general < this.max - this.reserved) {
      this.general++;
      return 'general';
    }
    if (this.reservedUsed < this.reserved) {
      this.reservedUsed++;
      return 'reserved';
    }
    return null;
  }

  private freeSlot(kind: SlotKind): void {
    const next = this.waiters.shift();
    if (next) {
      clearTimeout(next.timer);
      next.resolve(kind); // the slot passes to the next caller as it is
      return;
    }
    if (kind === 'general') this.general = Math.max(0, this.general - 1);
    else this.reservedUsed = Math.max(0, this.reservedUsed - 1);
  }

  private busy(): PoolBusy {
    const s = this.stats;
    return { busy: true, running: s.running, waiting: s.waiting, retryAfterMs: Math.max(1000, Math.min(this.lastStatementTimeoutMs, 30_000)) };
  }
}

