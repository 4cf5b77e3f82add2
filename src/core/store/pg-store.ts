import { Client, Pool } from 'pg';
import { migrate } from './migrations';
import { redactStoreUrl, storePoolConfig } from './url';

/** NOTIFY channel: payload `catalog:<generation>`, `definitions:<id>` or `tokens:<id>`. */
export const CHANGE_CHANNEL = 'schemabrain_changed';

export interface PgStore {
  /** The URL without a password, for messages. */
  readonly url: string;
  readonly pool: Pool;
  /**
   * A small pool of its own for reading shared state (new generations, definitions, policies), so a replica whose
   * main pool is queued behind audit appends still learns of a change within milliseconds of its notification.
   */
  readonly control: Pool;
  /**
   * A dedicated connection that LISTENs on CHANGE_CHANNEL and calls `onChange` with each payload; reconnects after
   * a failure (calling `onChange('reconnected')`, since notifications sent meanwhile are lost). Returns a stop function.
   */
  listen(onChange: (payload: string) => void, onError?: (e: Error) => void): () => Promise<void>;
  close(): Promise<void>;
}

export interface OpenStoreOptions {
  readonly env?: NodeJS.ProcessEnv;
  /** Pool size (default 10). */
  readonly max?: number;
}

/** Connects to the team store and applies pending migrations (under an advisory lock) before returning. */
export async function openPgStore(rawUrl: string, opts: OpenStoreOptions = {}): Promise<PgStore> {
  const config = storePoolConfig(rawUrl, opts.env ?? process.env);
  const pool = new Pool({ ...config, max: opts.max ?? 10, idleTimeoutMillis: 30_000, connectionTimeoutMillis: 10_000 });
  // An idle client that loses its connection must not crash the process; the next checkout reconnects.
  pool.on('error', () => undefined);
  const control = new Pool({ ...config, application_name: 'schemabrain-sync', max: 2, idleTimeoutMillis: 30_000, connectionTimeoutMillis: 10_000 });
  control.on('error', () => undefined);
  const client = await pool.connect();
  try {
    await migrate(client);
  } finally {
    client.release();
  }
  let closed = false;
  const listeners = new Set<() => Promise<void>>();
  return {
    url: redactStoreUrl(rawUrl),
    pool,
    control,
    listen(onChange, onError) {
      let stopped = false;
      let client: Client | null = null;
      let timer: NodeJS.Timeout | null = null;
      const connect = async (again: boolean): Promise<void> => {
        if (stopped) return;
        const c = new Client({ ...config, application_name: 'schemabrain-listen' });
        c.on('notification', (n) => {
          if (n.channel === CHANGE_CHANNEL) onChange(n.payload ?? '');
        });
        c.on('error', (e) => {
          onError?.(e);
          void c.end().catch(() => undefined);
          if (client === c) client = null;
          if (!stopped) timer = setTimeout(() => void connect(true), 500);
        });
        try {
          await c.connect();
          await c.query(`LISTEN ${CHANGE_CHANNEL}`);
          client = c;
          if (again) onChange('reconnected');
        } catch (e) {
          onError?.(e as Error);
          await c.end().catch(() => undefined);
          if (!stopped) timer = setTimeout(() => void connect(true), 1000);
        }
      };
      void connect(false);
      const stop = async (): Promise<void> => {
        stopped = true;
        if (timer) clearTimeout(timer);
        await client?.end().catch(() => undefined);
        listeners.delete(stop);
      };
      listeners.add(stop);
      return stop;
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const stop of [...listeners]) await stop();
      await pool.end();
      await control.end();
    },
  };
}
