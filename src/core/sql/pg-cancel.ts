import net from 'node:net';
import type { ClientBase } from 'pg';

/**
 * Sends a protocol-level CancelRequest for whatever `client`'s backend is running: a separate 16-byte message on a
 * new socket, authenticated by the backend key the server gave this session, so no credentials are needed.
 * https://www.postgresql.org/docs/current/protocol-flow.html#PROTOCOL-FLOW-CANCELING-REQUESTS
 * Best effort by design: the caller still has statement_timeout if the request is lost.
 */
export function sendCancelRequest(client: ClientBase, timeoutMs = 2000): Promise<boolean> {
  const c = client as unknown as { processID?: number | null; secretKey?: number | null; host?: string; port?: number };
  if (typeof c.processID !== 'number' || typeof c.secretKey !== 'number') return Promise.resolve(false);
  const msg = Buffer.alloc(16);
  msg.writeInt32BE(16, 0);
  msg.writeInt32BE(80877102, 4); // CancelRequest code
  msg.writeInt32BE(c.processID, 8);
  msg.writeInt32BE(c.secretKey, 12);
  const host = c.host ?? 'localhost';
  const port = c.port ?? 5432;
  return new Promise((resolve) => {
    const socket = host.startsWith('/') ? net.connect(`${host}/.s.PGSQL.${port}`) : net.connect(port, host);
    const done = (ok: boolean): void => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.end(msg));
    socket.once('close', () => done(true));
  });
}
