import type http from 'node:http';
import type { AuditRecord } from '../../core/audit/record';
import type { ColumnInfo, TableInfo } from '../../core/catalog/model';
import type { PgStore } from '../../core/store/pg-store';
import { verifyStoreAudit, type StoreAuditBody } from '../../core/store/pg-audit';
import { currentPrincipal, principalLabel } from '../../core/store/principal';
import { currentDefinitions } from '../../core/store/shared-state';
import { listIndexRuns, listStoreEvents } from '../../core/store/team-state';
import type { ServerDeps } from '../deps';
import type { JsonLogger } from './json-log';
import type { TeamMetrics } from './metrics';
import type { TeamPiiPolicy } from './team-pii';
import { visibleSources } from './access';
import { redactDeep } from '../../core/pii/secrets';
import { redactDefinition, redactedColumnName } from '../tools/common';

/** Read-only JSON endpoints for the editor's views, behind the same bearer check as /mcp. */
export const TEAM_API_PREFIX = '/team/v1/';

export interface TeamApiDeps {
  readonly deps: ServerDeps;
  readonly store: PgStore;
  readonly metrics: TeamMetrics;
  readonly pii: TeamPiiPolicy;
  readonly logger: JsonLogger;
}

/** The catalog as the editor shows it: no sampled values (most common values, min/max), no connection templates. */
export interface TeamCatalogBody {
  readonly generation: number;
  readonly sources: ReadonlyArray<Record<string, unknown>>;
  readonly tables: ReadonlyArray<{ readonly sourceId: string; readonly table: TableInfo }>;
}

/** An audit row as the editor's Audit view reads it: the file format's record plus the principal. */
export type TeamAuditRow = AuditRecord & { readonly principal: string | null };

function send(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(body));
}

function stripValues(c: ColumnInfo): ColumnInfo {
  return c.stats ? { ...c, stats: { ...c.stats, mostCommonValues: null, mostCommonFreqs: null, minValue: null, maxValue: null } } : c;
}

/**
 * A table as the principal may see it, as describe_table shows it: each column its role blocks goes by a placeholder
 * (`<redacted_contact_column_1>`) with no comment, default, labels or statistics; keys and indexes name it by that
 * placeholder; definitions (a view's SQL, CHECKs, index predicates) name any blocked column of the source as a
 * placeholder and lose their literals; a constraint or index whose name holds a blocked column's name is renamed.
 */
function scopedTable(t: TableInfo, blocked: (c: ColumnInfo) => readonly string[], sourceHidden: ReadonlyMap<string, string>): TableInfo {
  const own = new Map<string, string>();
  let n = 0;
  for (const c of t.columns) {
    const b = blocked(c);
    if (b.length > 0) own.set(c.name, redactedColumnName(b[0]!, ++n));
  }
  const hidden = new Map(sourceHidden);
  for (const [k, v] of own) hidden.set(k.toLowerCase(), v);
  if (hidden.size === 0) return { ...t, columns: t.columns.map(stripValues) };
  const col = (name: string): string => own.get(name) ?? name;
  const target = (name: string): string => hidden.get(name.toLowerCase()) ?? name;
  const named = (name: string): string => ([...hidden.keys()].some((h) => h.length >= 3 && name.toLowerCase().includes(h)) ? '<redacted_name>' : name);
  const def = (text: string | null): string | null => (text === null ? null : redactDefinition(text, hidden));
  return {
    ...t,
    columns: t.columns.map((c) => {
      const shown = own.get(c.name);
      if (shown === undefined) return stripValues(c);
      const { codeValues: _codes, ...rest } = c as ColumnInfo & { codeValues?: unknown };
      return { ...rest, name: shown, comment: null, defaultExpr: null, enumLabels: null, stats: null };
    }),
    primaryKey: t.primaryKey ? { ...t.primaryKey, name: named(t.primaryKey.name), columns: t.primaryKey.columns.map(col) } : null,
    uniqueConstraints: t.uniqueConstraints.map((k) => ({ ...k, name: named(k.name), columns: k.columns.map(col) })),
    checkConstraints: t.checkConstraints.map((k) => ({ ...k, name: named(k.name), expression: def(k.expression) ?? '' })),
    foreignKeys: t.foreignKeys.map((f) => ({ ...f, name: named(f.name), columns: f.columns.map(col), targetColumns: f.targetColumns.map(target) })),
    indexes: t.indexes.map((i) => ({ ...i, name: named(i.name), columns: i.columns.map(col), predicate: def(i.predicate) })),
    viewDefinition: def(t.viewDefinition),
  };
}

function toRecord(body: StoreAuditBody, hash: string): TeamAuditRow {
  return {
    seq: body.seq,
    time: body.time,
    sessionId: body.server_session_id,
    clientName: body.client_name,
    clientVersion: body.client_version,
    tool: body.tool,
    status: body.status as AuditRecord['status'],
    errorKind: body.error_kind,
    piiCategories: body.pii_categories,
    argsFingerprint: body.args_fingerprint,
    sqlFingerprint: body.sql_fingerprint,
    rowCount: body.row_count,
    truncated: body.truncated,
    durationMs: body.duration_ms,
    catalogGeneration: body.catalog_generation,
    prevHash: body.prev_hash,
    hash,
    principal: body.principal,
  };
}

/**
 * `GET /team/v1/whoami` (principal, role, PII blocks), `catalog` (the principal's scoped catalog), `definitions`
 * (published `.schemabrain/` files), `audit` (admins: every row, with `?verify=1` the chain check; other roles:
 * the rows of their own token), `index-runs` (runs of visible sources) and `events` (admins). Runs inside the request's
 * principal, so scoping and role blocks apply exactly as they do to tools.
 */
export async function handleTeamApi(p: string, req: http.IncomingMessage, res: http.ServerResponse, api: TeamApiDeps): Promise<void> {
  const principal = currentPrincipal();
  if (!principal) return send(res, 401, { error: 'unauthenticated', message: 'send Authorization: Bearer <token>' });
  if (req.method !== 'GET') return send(res, 405, { error: 'method_not_allowed', message: 'the team API is read-only (GET)' });
  const url = new URL(req.url ?? '/', 'http://x');
  const what = p.slice(TEAM_API_PREFIX.length);
  const limit = Math.min(Math.max(Number(url.searchParams.get('limit') ?? 50) || 50, 1), 1000);
  const allowed = visibleSources(principal);
  switch (what) {
    case 'whoami':
      return send(res, 200, {
        principal: principal.name,
        token_id: principal.tokenId,
        role: principal.role,
        sources: principal.sources,
        pii_blocked_for_role: api.pii.roleBlocks(principal.role),
        pii_policy_version: api.pii.version,
        catalog_generation: api.metrics.generation,
        server_version: api.deps.version,
      });
    case 'catalog': {
      const state = await api.deps.catalog.get();
      if (state.state !== 'ready') return send(res, 503, { error: 'catalog_unavailable', message: `the replica has no catalog (${state.state})` });
      const v = state.view;
      const blocked = (c: ColumnInfo): readonly string[] => api.deps.pii.blockedCategories(c.pii);
      // Per source: every blocked column's name, which definitions of any of its relations must not show.
      const hiddenBySource = new Map<string, Map<string, string>>();
      for (const e of v.entries) {
        let m = hiddenBySource.get(e.source.id);
        if (!m) hiddenBySource.set(e.source.id, (m = new Map()));
        for (const c of e.table.columns) if (blocked(c).length > 0) m.set(c.name.toLowerCase(), '<redacted_column>');
      }
      const body: TeamCatalogBody = {
        generation: v.generation,
        sources: v.sources.map((s) => ({ ...s, locator: `team:${s.name}`, connectTemplate: null })),
        tables: v.entries.map((e) => ({ sourceId: e.source.id, table: scopedTable(e.table, blocked, hiddenBySource.get(e.source.id) ?? new Map()) })),
      };
      // The last line, as for every tool answer: floor secrets written anywhere (a comment, a default) are cut out.
      return send(res, 200, redactDeep(body).value);
    }
    case 'definitions': {
      const defs = await currentDefinitions(api.store.pool);
      return send(res, 200, { files: defs.map((d) => ({ file: d.file, body: d.body, id: d.id, published_by: d.publishedBy, published_at: d.publishedAt.toISOString() })) });
    }
    case 'audit': {
      const admin = principal.role === 'admin';
      const before = Number(url.searchParams.get('before') ?? 0) || null;
      const params: unknown[] = [limit + 1];
      let where = '';
      if (!admin) {
        // Exactly this principal and token (a LIKE on the name would let `_` or `%` in a name match others).
        params.push(principalLabel(principal));
        where = `WHERE principal = $${params.length}`;
      }
      if (before) {
        params.push(before);
        where += `${where ? ' AND' : 'WHERE'} seq < $${params.length}`;
      }
      const r = await api.store.pool.query<{ body: string; hash: string }>(`SELECT body, hash FROM schemabrain.audit ${where} ORDER BY seq DESC LIMIT $1`, params);
      const rows = r.rows.slice(0, limit).map((x) => toRecord(JSON.parse(x.body) as StoreAuditBody, x.hash));
      const head = (await api.store.pool.query<{ seq: string; hash: string }>('SELECT seq, hash FROM schemabrain.audit_head WHERE id = 1')).rows[0];
      let verification: unknown = null;
      if (admin && url.searchParams.get('verify') === '1') {
        const v = await verifyStoreAudit(api.store.pool);
        verification = { ok: v.ok, rows: v.rows, breaks: v.breaks.slice(0, 20) };
      }
      return send(res, 200, {
        scope: admin ? 'all' : 'own',
        principal: principalLabel(principal),
        rows,
        has_more: r.rows.length > limit,
        head: head ? { seq: Number(head.seq), hash: head.hash } : null,
        verification,
      });
    }
    case 'index-runs': {
      const runs = (await listIndexRuns(api.store.pool, limit)).filter((x) => !allowed || (x.sourceName !== null && allowed.has(x.sourceName)));
      return send(res, 200, { runs });
    }
    case 'events': {
      if (principal.role !== 'admin') return send(res, 403, { error: 'forbidden', message: `the event stream is for admins; ${principal.name}'s role is '${principal.role}'` });
      const after = Number(url.searchParams.get('after') ?? 0) || 0;
      return send(res, 200, { events: await listStoreEvents(api.store.pool, { afterId: after, limit }) });
    }
    default:
      return send(res, 404, { error: 'not_found', message: `no team API endpoint '${what.slice(0, 60)}'; see ${TEAM_API_PREFIX}whoami, catalog, definitions, audit, index-runs, events` });
  }
}
