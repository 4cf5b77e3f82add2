import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { AuditHead, AuditRecord } from '../../core/audit/record';
import type { SourceInfo, TableInfo } from '../../core/catalog/model';
import type { CatalogState } from '../../core/catalog/provider';
import { CatalogView } from '../../core/catalog/view';
import type { AuditPage, AuditQuery, VerificationState } from '../audit/audit-service';
import { COMMAND_IDS } from '../constants';
import type { Log } from '../log';
import { makeDirs } from '../../core/util/make-dirs';

/** Settings and secret keys of the team connection. The token lives only in SecretStorage. */
export const TEAM_URL_SETTING = 'team.url';
export const TEAM_TOKEN_SECRET = 'schemabrain.team.token';
export const TEAM_COMMANDS = { connect: COMMAND_IDS.connectTeamServer, disconnect: COMMAND_IDS.disconnectTeamServer } as const;
export const TEAM_MCP_LABEL = 'SchemaBrain Team';

export class TeamError extends Error {
  constructor(
    readonly kind: 'bad_url' | 'unreachable' | 'unauthorized' | 'forbidden' | 'server',
    message: string,
  ) {
    super(message);
    this.name = 'TeamError';
  }
}

export interface WhoAmI {
  readonly principal: string;
  readonly token_id: string;
  readonly role: string;
  readonly sources: readonly string[] | null;
  readonly pii_blocked_for_role: readonly string[];
  readonly catalog_generation: number;
}

/** `https://host/mcp`, `http://host:8080` (→ `/mcp`): the MCP endpoint; anything else is a TeamError. */
export function normalizeTeamUrl(raw: string): URL {
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    throw new TeamError('bad_url', `'${raw.slice(0, 80)}' is not a URL; give the team server's address, e.g. https://schemabrain.example.com/mcp`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new TeamError('bad_url', `the team server URL must start with https:// (or http:// on a trusted network), got ${u.protocol}`);
  if (u.username || u.password) throw new TeamError('bad_url', 'the team server URL must not carry credentials; the token is asked for separately and kept in the editor\'s secret storage');
  if (u.pathname === '/' || u.pathname === '') u.pathname = '/mcp';
  u.search = '';
  u.hash = '';
  return u;
}

/** The reason a 401 names in its `WWW-Authenticate` challenge (`error_description`). */
function challengeReason(res: Response): string {
  const h = res.headers.get('www-authenticate') ?? '';
  return /error_description="([^"]*)"/.exec(h)?.[1] ?? 'the token was not accepted';
}

/**
 * The editor's link to a team server: its URL in the `schemabrain.team.url` setting, the bearer token in
 * SecretStorage only (never settings, logs or events). Reads the views' data from the server's team API with the
 * token; the MCP provider offers the server to agents over Streamable HTTP with the same token.
 */
export class TeamConnection implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChange = this.emitter.event;
  private hasToken = false;
  /** The last refusal or failure, shown in the views (never contains the token). */
  lastError: TeamError | undefined;
  whoami: WhoAmI | undefined;

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly log: Log,
  ) {}

  /** Reads whether a token is stored (call once at activation). */
  async init(): Promise<void> {
    this.hasToken = Boolean(await this.secrets.get(TEAM_TOKEN_SECRET));
  }

  /** The configured MCP endpoint, or undefined when no team server is set. */
  url(): URL | undefined {
    const raw = vscode.workspace.getConfiguration('schemabrain').get<string>(TEAM_URL_SETTING, '');
    if (!raw) return undefined;
    try {
      return normalizeTeamUrl(raw);
    } catch {
      return undefined;
    }
  }

  /** Connected: a URL is set and a token is stored. */
  get active(): boolean {
    return this.hasToken && this.url() !== undefined;
  }

  token(): Thenable<string | undefined> {
    return this.secrets.get(TEAM_TOKEN_SECRET);
  }

  /** Checks the token against the server first; stores it (SecretStorage) and the URL (user settings) only when accepted. */
  async connect(rawUrl: string, token: string): Promise<WhoAmI> {
    const url = normalizeTeamUrl(rawUrl);
    const t = token.trim();
    if (!/^\S{8,}$/.test(t)) throw new TeamError('unauthorized', 'the token is empty or malformed; paste the token `schemabrain token create` printed');
    const who = (await this.request(url, t, 'whoami')) as WhoAmI;
    await this.secrets.store(TEAM_TOKEN_SECRET, t);
    this.hasToken = true;
    await vscode.workspace.getConfiguration('schemabrain').update(TEAM_URL_SETTING, url.toString(), vscode.ConfigurationTarget.Global);
    this.whoami = who;
    this.lastError = undefined;
    this.log.info(`connected to the team server ${url.origin} as ${who.principal} (${who.role})`);
    this.emitter.fire();
    return who;
  }

  /** Forgets the token and the URL: the views and the MCP provider return to the local catalog and server. */
  async disconnect(): Promise<void> {
    await this.secrets.delete(TEAM_TOKEN_SECRET);
    this.hasToken = false;
    this.whoami = undefined;
    this.lastError = undefined;
    await vscode.workspace.getConfiguration('schemabrain').update(TEAM_URL_SETTING, undefined, vscode.ConfigurationTarget.Global);
    this.log.info('disconnected from the team server; using the local catalog and server');
    this.emitter.fire();
  }

  /** Settings changed (the URL): views and provider follow. */
  changed(): void {
    this.emitter.fire();
  }

  /** GET `/team/v1/<what>` with the stored token; a 401 (revoked, expired, unknown token) is a clear TeamError. */
  async get(what: string): Promise<unknown> {
    const url = this.url();
    const token = await this.token();
    if (!url || !token) throw new TeamError('unauthorized', 'not connected to a team server; run SchemaBrain: Connect to Team Server');
    try {
      const body = await this.request(url, token, what);
      if (this.lastError) {
        this.lastError = undefined;
      }
      return body;
    } catch (e) {
      if (e instanceof TeamError) this.lastError = e;
      throw e;
    }
  }

  private async request(url: URL, token: string, what: string): Promise<unknown> {
    const target = new URL(`/team/v1/${what}`, url);
    let res: Response;
    try {
      res = await fetch(target, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' }, signal: AbortSignal.timeout(15_000) });
    } catch (e) {
      const cause = (e as { cause?: { code?: string } }).cause?.code ?? (e as Error).name;
      throw new TeamError('unreachable', `the team server at ${url.origin} cannot be reached (${cause}); check the URL and that the server runs`);
    }
    if (res.status === 401) {
      throw new TeamError('unauthorized', `the team server at ${url.origin} refused the token: ${challengeReason(res)}. Ask a SchemaBrain admin for a new token (schemabrain token create) and connect again.`);
    }
    const body = (await res.json().catch(() => null)) as { message?: string } | null;
    if (res.status === 403) throw new TeamError('forbidden', `the team server refused: ${body?.message ?? 'forbidden'}`);
    if (!res.ok) throw new TeamError('server', `the team server answered ${res.status}${body?.message ? `: ${body.message}` : ''}`);
    return body;
  }

  dispose(): void {
    this.emitter.dispose();
  }
}

/**
 * What the views show while connected: the team catalog (as a CatalogView, so the Connections tree, Describe and
 * the other catalog users work unchanged), the published definitions (mirrored into a private folder the Metrics
 * tree loads like a workspace's `.schemabrain/`), and the audit rows the principal may see.
 */
export class TeamData {
  catalogState: CatalogState | undefined;
  private auditRows: Array<AuditRecord & { principal: string | null }> = [];
  private auditHead: AuditHead | undefined;
  private lastVerification: VerificationState = { state: 'unverified' };

  constructor(
    private readonly team: TeamConnection,
    /** Where published definitions are mirrored (`<dir>/.schemabrain/…`). */
    readonly definitionsRoot: string,
  ) {}

  get definitionsDir(): string {
    return path.join(this.definitionsRoot, '.schemabrain');
  }

  /** Loads the catalog, definitions and audit page; a failure leaves an `unreadable` catalog state naming the reason. */
  async load(): Promise<void> {
    try {
      const cat = (await this.team.get('catalog')) as { generation: number; sources: SourceInfo[]; tables: Array<{ sourceId: string; table: TableInfo }> };
      this.catalogState = { state: 'ready', view: new CatalogView(cat.generation, cat.sources, cat.tables) };
      if (!this.team.whoami) this.team.whoami = (await this.team.get('whoami')) as WhoAmI;
      const defs = (await this.team.get('definitions')) as { files: Array<{ file: string; body: string }> };
      mirrorDefinitions(this.definitionsDir, defs.files);
      await this.loadAudit();
    } catch (e) {
      this.catalogState = { state: 'unreadable', path: this.team.url()?.origin ?? 'team server', reason: (e as Error).message };
    }
  }

  async loadAudit(verify = false): Promise<void> {
    const page = (await this.team.get(`audit?limit=200${verify ? '&verify=1' : ''}`)) as {
      rows: Array<AuditRecord & { principal: string | null }>;
      head: AuditHead | null;
      verification: { ok: boolean; rows: number; breaks: Array<{ seq: number | null; reason: string; detail: string }> } | null;
    };
    this.auditRows = page.rows;
    this.auditHead = page.head ?? undefined;
    const at = new Date().toISOString();
    if (page.verification) {
      const v = page.verification;
      const b = v.breaks[0];
      this.lastVerification = v.ok
        ? { state: 'ok', rows: v.rows, head: this.auditHead ?? { seq: 0, hash: '' }, anchored: false, at }
        : { state: 'broken', rows: v.rows, line: 0, seq: b?.seq ?? null, reason: b?.reason ?? 'broken', detail: b?.detail ?? '', at };
    }
  }

  /** The Audit view's source while connected: the rows this principal may see (admins: all), newest first. */
  readonly audit = {
    list: async (q: AuditQuery): Promise<AuditPage> => {
      const rows = this.auditRows.filter((r) => (!q.tool || r.tool === q.tool) && (!q.status || r.status === q.status));
      const start = q.page * q.pageSize;
      return { rows: rows.slice(start, start + q.pageSize), page: q.page, pageSize: q.pageSize, hasMore: rows.length > start + q.pageSize };
    },
    verification: (): VerificationState => this.lastVerification,
    head: (): AuditHead | undefined => this.auditHead,
    principalOf: (seq: number): string | null => this.auditRows.find((r) => r.seq === seq)?.principal ?? null,
  };
}

function mirrorDefinitions(dir: string, files: ReadonlyArray<{ file: string; body: string }>): void {
  fs.rmSync(dir, { recursive: true, force: true });
  makeDirs(dir, 0o700);
  for (const f of files) {
    if (f.file.includes('..') || path.isAbsolute(f.file)) continue;
    const target = path.join(dir, f.file);
    makeDirs(path.dirname(target));
    fs.writeFileSync(target, f.body, { mode: 0o600 });
  }
}
