import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { createServer } from './create-server';
import type { ServerDeps } from './deps';
import { SessionEventStore } from './event-store';
import { paramsShapeProblem } from './stdio-input';

/** A session nobody has used for this long is closed (its client re-initialises on the 404). */
export const SESSION_IDLE_MS = 30 * 60_000;
const MAX_BODY_BYTES = 4 * 1024 * 1024;
/** The `retry:` a resumable stream announces: how long a client waits before reconnecting with Last-Event-ID. */
export const SSE_RETRY_MS = 1000;

/**
 * What one server holds at most, so that no client (a token of the lowest role included) can exhaust its memory or
 * descriptors: sessions per owner (the token on a team server; everyone on a single-user one), sessions in all, the
 * size of a client's self-description, open connections in all and per peer address, and the time a client may
 * take to send its request headers and body.
 */
export const MAX_SESSIONS_PER_OWNER = 32;
export const MAX_SESSIONS = 1024;
const MAX_CLIENT_INFO_CHARS = 512;
const MAX_CONNECTIONS = 4096;
export const MAX_CONNECTIONS_PER_PEER = 512;
const HEADERS_TIMEOUT_MS = 10_000;
const REQUEST_TIMEOUT_MS = 60_000;

interface Session {
  readonly transport: StreamableHTTPServerTransport;
  readonly close: () => Promise<void>;
  /** Who opened it (HttpHooks.owner), '' on a single-user server. */
  readonly owner: string;
  /** Whether its credential still holds (HttpHooks.validity); absent on a single-user server. */
  readonly valid?: () => Promise<boolean>;
  lastSeen: number;
  /** Ids (as JSON) of this session's requests whose POST is still open. */
  readonly inFlight: Set<string>;
}

/**
 * What a team server adds to the HTTP layer (see src/server/team): `route` answers paths outside /mcp (health,
 * metrics, OAuth metadata) before any other check; `authenticate` runs after the Host and Origin checks and either
 * answers the request itself (401, 403) and returns null, or returns the function that runs the request as its
 * principal.
 */
export interface HttpHooks {
  route?(req: http.IncomingMessage, res: http.ServerResponse): boolean;
  /**
   * Idle keep-alive sockets are closed after this long (Node's default is 5 s). Behind a load balancer, or with
   * busy clients, it must outlast the peer's idle timeout, or a request sent on a socket the server is closing
   * fails with ECONNRESET.
   */
  keepAliveMs?: number;
  authenticate?(req: http.IncomingMessage, res: http.ServerResponse): Promise<(<T>(fn: () => T) => T) | null>;
  /** Who the request being served runs as (inside `authenticate`'s runner): the owner sessions are counted by. */
  owner?(): string | undefined;
  /**
   * For the request that opens a session: whether the credential it came with still holds (not revoked, not
   * expired). Checked every few seconds; a session whose credential no longer holds ends, and with it any stream a
   * GET holds open (requests are checked one by one; a stream is one request that never ends).
   */
  validity?(req: http.IncomingMessage): (() => Promise<boolean>) | undefined;
}

/** How often the sessions' credentials are checked again. */
export const SESSION_RECHECK_MS = 5000;

export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127\./.test(host);
}

function jsonError(res: http.ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  rpcError(res, status, null, -32000, message, headers);
}

/** A JSON-RPC error answer for a request refused before the transport saw it. */
function rpcError(res: http.ServerResponse, status: number, id: string | number | null, code: number, message: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id }));
}

/** The id of the first message that has a usable one. */
function firstId(messages: readonly unknown[]): string | number | null {
  for (const m of messages) {
    const id = m !== null && typeof m === 'object' ? (m as { id?: unknown }).id : undefined;
    if (typeof id === 'string' || typeof id === 'number') return id;
  }
  return null;
}

/** A request body over MAX_BODY_BYTES: answered 413, and the connection closed. */
class BodyTooLarge extends Error {}

/** How much of a refused body is read and dropped so that its client, still sending, gets the 413 and no reset. */
const DISCARD_MAX_BYTES = 64 * 1024 * 1024;

/**
 * Answers 413 to a body past the limit. A client that is still sending would meet a reset instead of the answer if
 * the connection closed at once, so the rest of the body is read and dropped first (up to DISCARD_MAX_BYTES, then
 * the answer goes and the connection is closed), and the connection closes after the answer.
 */
function refuseLargeBody(req: http.IncomingMessage, res: http.ServerResponse, what: string): void {
  let answered = false;
  const answer = (): void => {
    if (answered) return;
    answered = true;
    jsonError(res, 413, `Payload Too Large: ${what}; the limit is ${MAX_BODY_BYTES} bytes.`, { connection: 'close' });
  };
  if (req.complete) return answer();
  let dropped = 0;
  req.on('data', (c: Buffer) => {
    dropped += c.length;
    if (dropped > DISCARD_MAX_BYTES) {
      answer();
      res.once('finish', () => req.destroy());
    }
  });
  req.on('end', answer);
  req.on('error', () => undefined);
  req.resume();
}

function readBody(req: http.IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > MAX_BODY_BYTES) {
      reject(new BodyTooLarge(`a request body of ${declared} bytes`));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (c: Buffer) => {
      if (over) return;
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        over = true;
        chunks.length = 0;
        reject(new BodyTooLarge(`a request body of more than ${MAX_BODY_BYTES} bytes`));
      } else chunks.push(c);
    });
    req.on('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch {
        resolve(undefined);
      }
    });
    req.on('error', reject);
  });
}

/**
 * Streamable HTTP with sessions: `initialize` (a POST without `Mcp-Session-Id`) opens a session with its own protocol
 * server over the shared deps; later POSTs, the GET stream that carries server notifications (list_changed, log
 * messages) and DELETE use its id. Streams are resumable: each SSE event has an id, and a GET with `Last-Event-ID`
 * replays the events of that stream the client missed, from a bounded per-session buffer (src/server/event-store.ts).
 * Every request's `Host` must name this server and a browser's `Origin` must be this
 * server, which stops DNS-rebinding and cross-site pages. Binding off loopback is allowed with `--host`, with a
 * warning: there is no authentication, so anyone who can reach the port can read the catalog.
 */
export async function startHttpServer(deps: ServerDeps, opts: { port: number; host?: string; hooks?: HttpHooks }): Promise<{ url: string; sessions(): number; close(): Promise<void> }> {
  const host = opts.host ?? '127.0.0.1';
  const sessions = new Map<string, Session>();
  let allowedHosts = new Set<string>();
  let allowedOrigins = new Set<string>();

  /** Ends a session: its transport and its protocol server. */
  function endSession(id: string, s: Session): void {
    sessions.delete(id);
    void s.transport.close().catch(() => undefined);
    void s.close().catch(() => undefined);
  }

  /**
   * Room for one more session of `owner`: past the owner's cap its least recently used session ends (a client that
   * opens sessions without closing them only ever displaces its own); past the server's cap, the least recently
   * used session idle for a minute ends, and without one the request is refused.
   */
  function makeRoom(owner: string): boolean {
    const lru = (list: Array<[string, Session]>): [string, Session] | undefined => list.sort((a, b) => a[1].lastSeen - b[1].lastSeen)[0];
    const own = [...sessions].filter(([, x]) => x.owner === owner);
    if (own.length >= MAX_SESSIONS_PER_OWNER) {
      const [id, victim] = lru(own)!;
      endSession(id, victim);
    }
    if (sessions.size < MAX_SESSIONS) return true;
    const idle = lru([...sessions].filter(([, x]) => Date.now() - x.lastSeen > 60_000));
    if (!idle) return false;
    endSession(idle[0], idle[1]);
    return true;
  }

  async function openSession(req: http.IncomingMessage, res: http.ServerResponse, body: unknown): Promise<void> {
    const info = (Array.isArray(body) ? body.find((m) => isInitializeRequest(m)) : body) as { params?: { clientInfo?: unknown } } | undefined;
    if (JSON.stringify(info?.params?.clientInfo ?? null).length > MAX_CLIENT_INFO_CHARS) {
      jsonError(res, 400, `Bad Request: clientInfo is larger than ${MAX_CLIENT_INFO_CHARS} characters.`);
      return;
    }
    const owner = opts.hooks?.owner?.() ?? '';
    if (!makeRoom(owner)) {
      jsonError(res, 503, `Service Unavailable: this server holds ${MAX_SESSIONS} sessions; retry later.`, { 'retry-after': '30' });
      return;
    }
    const valid = opts.hooks?.validity?.(req);
    const { server } = createServer(deps);
    let session: Session | undefined;
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      // Resumability: SSE events carry ids, and a reconnect with Last-Event-ID replays what the client missed.
      eventStore: new SessionEventStore(),
      retryInterval: SSE_RETRY_MS,
      onsessioninitialized: (id) => {
        session = { transport, close: () => server.close(), owner, ...(valid ? { valid } : {}), lastSeen: Date.now(), inFlight: new Set<string>() };
        sessions.set(id, session);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = req.url ?? '';
    if (opts.hooks?.route?.(req, res)) return;
    if (!(url === '/mcp' || url.startsWith('/mcp?') || url.startsWith('/mcp/'))) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'not found; the MCP endpoint is /mcp' }));
      return;
    }
    const hostHeader = (req.headers.host ?? '').toLowerCase();
    // With bearer authentication (team servers behind a load balancer, whose public name is not known here) a
    // rebound DNS name gains nothing: the browser does not hold the token. The Origin check still applies.
    if (!opts.hooks?.authenticate && !allowedHosts.has(hostHeader)) {
      jsonError(res, 403, `Invalid Host header: ${hostHeader.slice(0, 100)}`);
      return;
    }
    const origin = req.headers.origin;
    if (origin !== undefined && !allowedOrigins.has(origin.toLowerCase())) {
      jsonError(res, 403, `Invalid Origin header: ${origin.slice(0, 100)}`);
      return;
    }
    if (opts.hooks?.authenticate) {
      const runAs = await opts.hooks.authenticate(req, res);
      if (!runAs) return;
      return runAs(() => serve(req, res));
    }
    return serve(req, res);
  }

  async function serve(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const sid = req.headers['mcp-session-id'];
    const sessionId = Array.isArray(sid) ? sid[0] : sid;
    if (req.method === 'POST') {
      let body: unknown;
      try {
        body = await readBody(req);
      } catch (e) {
        if (!(e instanceof BodyTooLarge)) throw e;
        deps.logger.warn(`http: refused ${e.message} (the limit is ${MAX_BODY_BYTES})`);
        refuseLargeBody(req, res, e.message);
        return;
      }
      if (!sessionId) {
        if (isInitializeRequest(body) || (Array.isArray(body) && body.some((m) => isInitializeRequest(m)))) return openSession(req, res, body);
        jsonError(res, 400, 'Bad Request: no Mcp-Session-Id header; send initialize first.');
        return;
      }
      const s = sessions.get(sessionId);
      if (!s) {
        jsonError(res, 404, 'Session not found; initialize a new session.');
        return;
      }
      s.lastSeen = Date.now();
      const messages = Array.isArray(body) ? (body as unknown[]) : [body];
      const tooLarge = messages.map(paramsShapeProblem).find((p) => p !== null);
      if (tooLarge) {
        rpcError(res, 400, firstId(messages), -32602, `Invalid params: ${tooLarge}`);
        return;
      }
      // A request id already in flight in this session: the transport keeps one stream per id, so the first of two
      // such requests would never be answered and its connection would stay open.
      const ids = messages.flatMap((m) => (m !== null && typeof m === 'object' && typeof (m as { method?: unknown }).method === 'string' && (m as { id?: unknown }).id !== undefined ? [JSON.stringify((m as { id: unknown }).id)] : []));
      const busy = ids.find((id, k) => s.inFlight.has(id) || ids.indexOf(id) !== k);
      if (busy !== undefined) {
        rpcError(res, 409, JSON.parse(busy) as string | number, -32600, `Invalid Request: id ${busy.slice(0, 40)} is already used by a request of this session still in flight; give each request its own id`);
        return;
      }
      for (const id of ids) s.inFlight.add(id);
      res.once('close', () => {
        for (const id of ids) s.inFlight.delete(id);
      });
      return s.transport.handleRequest(req, res, body);
    }
    if (req.method === 'GET' || req.method === 'DELETE') {
      const s = sessionId ? sessions.get(sessionId) : undefined;
      if (!s) {
        jsonError(res, sessionId ? 404 : 400, sessionId ? 'Session not found; initialize a new session.' : 'Bad Request: no Mcp-Session-Id header.');
        return;
      }
      s.lastSeen = Date.now();
      return s.transport.handleRequest(req, res);
    }
    jsonError(res, 405, 'Method not allowed.', { allow: 'GET, POST, DELETE' });
  }

  // Timeouts are checked every second (Node's default, 30 s, let a slow client hold its socket 40 s past the
  // header timeout).
  const httpServer = http.createServer({ connectionsCheckingInterval: 1000 }, (req, res) => {
    handle(req, res).catch((e: unknown) => {
      deps.logger.error(`http request failed: ${(e as Error).message}`);
      if (!res.headersSent) jsonError(res, 500, 'Internal server error');
      else res.end();
    });
  });
  // A client that sends its headers or body a byte at a time (slowloris) is cut off, and no peer holds more than its
  // share of the descriptors.
  httpServer.headersTimeout = HEADERS_TIMEOUT_MS;
  httpServer.requestTimeout = REQUEST_TIMEOUT_MS;
  httpServer.maxConnections = MAX_CONNECTIONS;
  if (opts.hooks?.keepAliveMs) {
    httpServer.keepAliveTimeout = opts.hooks.keepAliveMs;
    httpServer.headersTimeout = Math.max(HEADERS_TIMEOUT_MS, opts.hooks.keepAliveMs + 1000);
  }
  const perPeer = new Map<string, number>();
  httpServer.on('connection', (socket) => {
    const peer = socket.remoteAddress ?? '';
    const n = (perPeer.get(peer) ?? 0) + 1;
    if (n > MAX_CONNECTIONS_PER_PEER) {
      socket.destroy();
      return;
    }
    perPeer.set(peer, n);
    socket.once('close', () => {
      const left = (perPeer.get(peer) ?? 1) - 1;
      if (left <= 0) perPeer.delete(peer);
      else perPeer.set(peer, left);
    });
  });
  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(opts.port, host, () => resolve());
  });
  const { port } = httpServer.address() as AddressInfo;
  const names = ['127.0.0.1', 'localhost', '[::1]'];
  if (!isLoopback(host)) names.push(host.includes(':') ? `[${host}]` : host, os.hostname().toLowerCase());
  if (!isLoopback(host) && !opts.hooks?.authenticate) {
    deps.logger.warn(
      `listening on ${host}:${port}, beyond this machine: the MCP endpoint has no authentication, so anyone who can reach this port can read the catalog and run read-only queries. Put an authenticating proxy in front, or bind 127.0.0.1.`,
    );
  }
  allowedHosts = new Set(names.map((n) => `${n}:${port}`));
  allowedOrigins = new Set(names.map((n) => `http://${n}:${port}`));

  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [id, s] of sessions) if (now - s.lastSeen > SESSION_IDLE_MS) endSession(id, s);
  }, 60_000);
  sweep.unref();
  let rechecking = false;
  const recheck = setInterval(() => {
    if (rechecking) return;
    rechecking = true;
    void (async () => {
      for (const [id, s] of [...sessions]) {
        if (!s.valid) continue;
        const ok = await s.valid().catch(() => true); // a store outage is not a revocation
        if (!ok && sessions.get(id) === s) endSession(id, s);
      }
    })().finally(() => (rechecking = false));
  }, SESSION_RECHECK_MS);
  recheck.unref();

  const shown = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shown}:${port}/mcp`,
    sessions: () => sessions.size,
    close: async () => {
      clearInterval(sweep);
      clearInterval(recheck);
      for (const s of sessions.values()) {
        await s.transport.close().catch(() => undefined);
        await s.close().catch(() => undefined);
      }
      sessions.clear();
      httpServer.closeAllConnections();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    },
  };
}
