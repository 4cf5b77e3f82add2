import fs from 'node:fs';
import type http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createCallRecorder, type CallRecorder } from '../../core/audit/recorder';
import { createTelemetry } from '../../core/telemetry/telemetry';
import { openPgAuditLog } from '../../core/store/pg-audit';
import { currentPrincipal } from '../../core/store/principal';
import { openPgStore, type PgStore } from '../../core/store/pg-store';
import { currentDefinitions, downloadCatalog, materializeDefinitions } from '../../core/store/shared-state';
import { createPgEventBus, currentPiiPolicy, type StoredPiiPolicy } from '../../core/store/team-state';
import { TokenVerifier } from '../../core/store/tokens';
import { loadPolicy } from '../../core/pii';
import { teeLogger } from '../logging/client-log';
import { SemanticModels } from '../semantic-model';
import { createJsonLogger, requestIdFor, runWithRequestId } from './json-log';
import { handleTeamApi, TEAM_API_PREFIX } from './team-api';
import { TeamPiiPolicy } from './team-pii';
import { StoreConfigError } from '../../core/store/url';
import { SEMANTIC_FOLDER } from '../semantic-model';
import type { ServerDeps } from '../deps';
import { startHttpServer } from '../http';
import type { ServerOptions } from '../options';
import { buildServerDeps } from '../run';
import { createAccessControl, createRateLimiter } from './access';
import { createBearerAuth } from './auth';
import { createJwtCheck } from './jwt';
import { TeamMetrics } from './metrics';
import { ScopedCatalogProvider } from './scoped-catalog';
import { terminalSafeLines } from '../../core/util/terminal-text';
import { makeDirs } from '../../core/util/make-dirs';

/** How long SIGTERM waits for calls in flight before closing anyway. */
const SHUTDOWN_DRAIN_MS = 20_000;
/** Fallback poll for a new generation or definitions when a notification was missed. */
const POLL_MS = 5_000;

/**
 * Keeps a replica's local copy of the shared state: the newest catalog generation as a catalog file and the
 * published definitions as a `.schemabrain/` folder, both replaced atomically (rename), so the ordinary providers
 * (which re-stat per call) pick them up on the next call while calls in flight finish on the view they hold.
 */
export class ReplicaSync {
  private generation = 0;
  private definitionsId = -1;
  private running: Promise<void> | null = null;
  private again = false;

  constructor(
    private readonly store: PgStore,
    readonly catalogPath: string,
    readonly definitionsDir: string,
    private readonly onGeneration: (g: number) => void,
    private readonly onDefinitions: (id: number) => void = () => undefined,
    private readonly onPiiPolicy: (policy: StoredPiiPolicy | null) => void = () => undefined,
  ) {}

  private piiId = -1;

  /** Runs one sync, or queues exactly one more behind a running one (notifications arrive in bursts). */
  sync(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          await this.once();
        } while (this.again);
      } finally {
        this.running = null;
      }
    })();
    return this.running;
  }

  private async once(): Promise<void> {
    // One round trip says whether anything changed (a busy replica's event loop makes each round trip costly).
    const r = await this.store.control.query<{ g: string | null; d: string | null; p: string | null }>(
      'SELECT (SELECT max(generation) FROM schemabrain.catalog_generation) AS g, (SELECT max(id) FROM schemabrain.definition) AS d, (SELECT max(id) FROM schemabrain.pii_policy) AS p',
    );
    const piiId = r.rows[0]?.p ? Number(r.rows[0].p) : 0;
    if (piiId !== this.piiId) {
      // The PII policy first: a new catalog generation is never served under an older policy than the store holds.
      this.onPiiPolicy(piiId ? await currentPiiPolicy(this.store.control) : null);
      this.piiId = piiId;
    }
    const latest = r.rows[0]?.g ? Number(r.rows[0].g) : 0;
    const maxId = r.rows[0]?.d ? Number(r.rows[0].d) : 0;
    if (latest && latest !== this.generation) {
      const got = await downloadCatalog(this.store.control, this.catalogPath, latest);
      if (got) {
        this.generation = got.generation;
        this.onGeneration(got.generation);
      }
    }
    if (maxId !== this.definitionsId) {
      materializeDefinitions(this.definitionsDir, await currentDefinitions(this.store.control));
      this.definitionsId = maxId;
      this.onDefinitions(maxId);
    }
  }
}

export interface TeamServer {
  readonly url: string;
  readonly store: PgStore;
  readonly deps: ServerDeps;
  stop(reason: string): Promise<void>;
}

/**
 * A stateless team replica: Streamable HTTP with bearer authentication, the catalog, definitions and audit chain
 * in the PostgreSQL store, health and metrics endpoints. Start several on one store behind a load balancer.
 */
export async function startTeamServer(options: ServerOptions & { readonly store: string }, env: NodeJS.ProcessEnv = process.env): Promise<TeamServer> {
  if (options.httpPort === null) throw new StoreConfigError('--store serves over Streamable HTTP: add --http PORT');
  if (options.oauthIssuer && !options.oauthAudience) throw new StoreConfigError('--oauth-issuer needs --oauth-audience (this server\'s resource URL, e.g. https://schemabrain.example/mcp)');
  const store = await openPgStore(options.store, { env });
  const cacheDir = options.teamCacheDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'schemabrain-replica-'));
  makeDirs(cacheDir, 0o700);
  const catalogPath = path.join(cacheDir, 'catalog.sqlite');
  const workspaceDir = path.join(cacheDir, 'workspace');
  const metrics = new TeamMetrics();
  const json = createJsonLogger({ component: 'schemabrain-team' });
  // The store's PII policy (with per-role blocks) replaces the replica's own file once one is published.
  const teamPii = new TeamPiiPolicy(loadPolicy({ file: options.piiPolicyPath, extraBlock: options.piiBlock, env }), options.piiBlock);
  const sync = new ReplicaSync(
    store,
    catalogPath,
    path.join(workspaceDir, SEMANTIC_FOLDER),
    (g) => (metrics.generation = g),
    (id) => {
      metrics.definitions = id;
      metrics.definitionsAt = Date.now();
    },
    (policy) => {
      try {
        teamPii.load(policy);
        json.info(`PII policy ${policy ? `version ${policy.id} from the store` : 'from this replica'} in force`);
      } catch (e) {
        // A version that does not parse keeps the previous policy (publish validates, so this is a hand-edited row).
        json.error(`PII policy version ${policy?.id ?? '?'} in the store cannot be used (${(e as Error).message}); keeping the previous policy`);
      }
    },
  );
  await sync.sync();

  const base = await buildServerDeps({ ...options, catalogPath, workspaceDir, auditPath: null, noAudit: false }, env);
  const logger = base.clientLog ? teeLogger(json, base.clientLog) : json;
  const audit = openPgAuditLog(store.pool, store.url, { onCommit: (rows, ms) => metrics.auditCommit(rows, ms) });
  const events = createPgEventBus(store.pool, store.url, { logger });
  const inner = createCallRecorder({ audit, events, telemetry: createTelemetry(env, logger), logger, sessionId: base.sessionId, failOpen: options.auditFailOpen === true });
  const recorder: CallRecorder = {
    async record(call) {
      const outcome = await inner.record(call);
      const status = outcome.auditFailure ? 'audit_unavailable' : call.status;
      metrics.call(call.tool, status, call.durationMs);
      json.line(status === 'error' || status === 'audit_unavailable' ? 'warn' : 'info', 'tool call', {
        tool: call.tool,
        status,
        error_kind: call.errorKind,
        duration_ms: Math.round(call.durationMs * 10) / 10,
        rows: call.rowCount ?? null,
      });
      return outcome;
    },
    serverEvent: (s, d) => inner.serverEvent(s, d),
    close: () => inner.close(),
  };
  const deps: ServerDeps = {
    ...base,
    logger,
    pii: teamPii.gate(),
    semantic: new SemanticModels(workspaceDir, logger),
    catalog: new ScopedCatalogProvider(catalogPath, (view) => logger.info(`catalog generation ${view.generation} loaded (${view.entries.length} relations)`), teamPii),
    recorder,
    access: createAccessControl({ limiter: createRateLimiter(options.rateLimit ?? 50), onRefusal: (r) => metrics.refusal(r) }),
    clientLogVisible: () => currentPrincipal()?.role === 'admin',
  };
  metrics.inflight = () => deps.gate?.inFlight ?? 0;

  const tokens = new TokenVerifier(store.pool);
  const stopListening = store.listen(
    (payload) => {
      tokens.invalidate(payload);
      if (!payload.startsWith('tokens:')) void sync.sync().catch((e: unknown) => logger.warn(`store sync failed: ${(e as Error).message}`));
    },
    (e) => logger.warn(`store notifications interrupted (${e.message}); reconnecting`),
  );
  const poll = setInterval(() => void sync.sync().catch(() => undefined), POLL_MS);
  poll.unref();

  let ready = true;
  // Where clients reach this server, as discovery documents name it: with OAuth, the audience configured for it (the
  // resource's canonical URL), never what a request's Host header claims (a forged Host would be named back to every
  // client of a shared cache); without it, the Host header when it is a plain host name, else the listening address.
  const audienceOrigin = (() => {
    try {
      return options.oauthAudience ? new URL(options.oauthAudience).origin : null;
    } catch {
      return null;
    }
  })();
  const publicUrl = (req: http.IncomingMessage): string => {
    if (audienceOrigin) return audienceOrigin;
    const host = req.headers.host ?? '';
    return `http://${/^(?:[A-Za-z0-9-]{1,63}\.){0,10}[A-Za-z0-9-]{1,63}(?::\d{1,5})?$|^\[[0-9A-Fa-f:.]{2,45}\](?::\d{1,5})?$/.test(host) ? host : `127.0.0.1:${options.httpPort}`}`;
  };
  const route = (req: http.IncomingMessage, res: http.ServerResponse): boolean => {
    const p = (req.url ?? '').split('?')[0]!;
    if (p.startsWith(TEAM_API_PREFIX)) {
      // The editor's views: the same bearer check as /mcp, then JSON read from this replica's catalog and the store.
      const rid = requestIdFor(req.headers['x-request-id']);
      res.setHeader('x-request-id', rid);
      void runWithRequestId(rid, async () => {
        const runAs = await authenticate(req, res);
        if (!runAs) return;
        const started = performance.now();
        await runAs(async () => {
          await handleTeamApi(p, req, res, { deps, store, metrics, pii: teamPii, logger: json });
          json.line('info', 'team api request', { path: p.slice(0, 80), status: res.statusCode, duration_ms: Math.round((performance.now() - started) * 10) / 10 });
        });
      }).catch((e: unknown) => {
        json.error(`team api request failed: ${(e as Error).message}`);
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'internal', message: 'the request failed; see the server log' }));
      });
      return true;
    }
    if (p === '/healthz') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok\n');
      return true;
    }
    if (p === '/readyz') {
      // Ready once the store answers and a catalog generation is loaded; not ready while draining.
      res.writeHead(ready && metrics.generation > 0 ? 200 : 503, { 'content-type': 'text/plain' }).end(ready ? (metrics.generation > 0 ? 'ready\n' : 'no catalog generation in the store yet\n') : 'shutting down\n');
      return true;
    }
    if (p === '/metrics') {
      res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' }).end(metrics.render());
      return true;
    }
    if (p === '/.well-known/oauth-protected-resource' || p === '/.well-known/oauth-protected-resource/mcp') {
      const body: Record<string, unknown> = { resource: `${publicUrl(req)}/mcp`, bearer_methods_supported: ['header'], resource_name: 'SchemaBrain team server' };
      if (options.oauthIssuer) body.authorization_servers = [options.oauthIssuer];
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      return true;
    }
    return false;
  };
  // Store tokens (`sbt_…`) always; JWT access tokens from the configured issuer in OAuth resource-server mode.
  const jwt = options.oauthIssuer ? createJwtCheck({ issuer: options.oauthIssuer, audience: options.oauthAudience!, ...(options.oauthJwks ? { jwksUrl: options.oauthJwks } : {}) }) : null;
  const credentialCheck = (t: string): ReturnType<typeof tokens.check> | ReturnType<NonNullable<typeof jwt>> => (jwt && !t.startsWith('sbt_') ? jwt(t) : tokens.check(t));
  const bearer = createBearerAuth({
    check: credentialCheck,
    resourceMetadataUrl: (req) => `${publicUrl(req)}/.well-known/oauth-protected-resource`,
    onRefusal: (r) => {
      metrics.refusal(r.split(':')[0]!);
      json.line('warn', 'request refused', { status: 401, reason: r });
    },
  });
  // While draining, new requests are turned away (503 + Retry-After, so a client or balancer goes to another
  // replica) and the calls already running finish with their responses and audit rows.
  const authenticate: typeof bearer = async (req, res) => {
    if (!ready) {
      res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'This replica is shutting down; retry on another.' }, id: null }));
      return null;
    }
    // Every line logged while the request runs carries its id (the caller's x-request-id when it sent one).
    const rid = requestIdFor(req.headers['x-request-id']);
    if (!res.headersSent) res.setHeader('x-request-id', rid);
    const runAs = await runWithRequestId(rid, () => bearer(req, res));
    return runAs ? <T>(fn: () => T): T => runWithRequestId(rid, () => runAs(fn)) : null;
  };
  const http = await startHttpServer(deps, { port: options.httpPort, host: options.httpHost, hooks: {
      route,
      authenticate,
      keepAliveMs: 65_000,
      owner: () => currentPrincipal()?.tokenId,
      validity: (req) => {
        const m = /^Bearer\s+(\S+)\s*$/i.exec(String(req.headers.authorization ?? ''));
        if (!m) return undefined;
        const token = m[1]!;
        return async () => (await credentialCheck(token)).ok;
      },
    },
  });
  recorder.serverEvent('server_start', { store: store.url });
  logger.info(`team server listening on ${http.url} (store ${store.url}, catalog generation ${metrics.generation || 'none yet'})`);

  let stopping: Promise<void> | null = null;
  return {
    url: http.url,
    store,
    deps,
    stop(reason) {
      return (stopping ??= (async () => {
        ready = false;
        const left = await deps.gate!.drain(SHUTDOWN_DRAIN_MS);
        if (left) logger.warn(`shutdown (${reason}): ${left} tool call(s) still running after ${SHUTDOWN_DRAIN_MS} ms; closing anyway`);
        // Give the drained calls' responses a moment to leave before the connections are closed.
        await new Promise((r) => setTimeout(r, 100));
        await Promise.race([http.close().catch(() => undefined), new Promise((r) => setTimeout(r, 2000))]);
        clearInterval(poll);
        await stopListening();
        await recorder.close();
        await events.flush().catch(() => undefined);
        await deps.connections.close();
        await store.close();
      })());
    },
  };
}

/** `schemabrain serve --http PORT --store postgres://…`: runs until SIGTERM/SIGINT, then drains and exits 0. */
export async function runTeamServer(options: ServerOptions & { readonly store: string }): Promise<number> {
  let server: TeamServer | undefined;
  let requested: string | undefined;
  const stop = (signal: string): void => {
    if (server === undefined) {
      // Still starting (opening the store is bounded by its connect timeout): the first signal stops the server
      // once it is up, a second one ends the process at once.
      if (requested !== undefined) process.exit(1);
      requested = signal;
      return;
    }
    void server.stop(signal).then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  // Installed before the server starts: a signal sent as soon as it announces itself drains it instead of killing
  // the process with its start recorded and no stop.
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGHUP', () => stop('SIGHUP')); // drained as SIGTERM is, never a stop with calls in flight
  process.on('SIGINT', () => stop('SIGINT'));
  try {
    server = await startTeamServer(options);
  } catch (e) {
    process.stderr.write(`schemabrain serve: ${terminalSafeLines(e instanceof StoreConfigError ? e.message : `the team store cannot be opened: ${(e as Error).message}`)}\n`);
    return 2;
  }
  if (requested !== undefined) stop(requested);
  return -1;
}
