import crypto from 'node:crypto';
import type { Pool } from 'pg';
import { sha256Hex } from '../audit/canonical';
import { CHANGE_CHANNEL } from './pg-store';
import { ROLES, type Principal, type Role } from './principal';

/** `sbt_<id>_<secret>`: the id finds the row for revocation and audit, the secret is never stored (only sha256 of the whole token). */
const TOKEN_RE = /^sbt_([0-9a-f]{12})_([A-Za-z0-9_-]{43})$/;

export class TokenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TokenError';
  }
}

export interface IssuedToken {
  readonly id: string;
  /** Shown once; only its hash is kept. */
  readonly token: string;
  readonly expiresAt: Date | null;
}

export interface TokenRow {
  readonly id: string;
  readonly principal: string;
  readonly role: Role;
  readonly sources: readonly string[] | null;
  readonly createdAt: Date;
  readonly createdBy: string;
  readonly expiresAt: Date | null;
  readonly revokedAt: Date | null;
}

/** `30d`, `12h`, `90m` → milliseconds. */
export function parseDuration(text: string): number {
  const m = /^(\d{1,6})([mhd])$/.exec(text.trim());
  // Zero would be read as "no expiry" downstream: a token meant to expire at once must not live for ever.
  if (!m || Number(m[1]) === 0) throw new TokenError(`--expires needs a duration of at least 1m, such as 90m, 12h or 30d, got '${text.slice(0, 40)}'`);
  const unit = m[2] === 'm' ? 60_000 : m[2] === 'h' ? 3_600_000 : 86_400_000;
  return Number(m[1]) * unit;
}

export function isRole(v: string): v is Role {
  return (ROLES as readonly string[]).includes(v);
}

export async function createToken(pool: Pool, spec: { principal: string; role: string; sources?: readonly string[] | null; expiresInMs?: number | null; createdBy: string }): Promise<IssuedToken> {
  if (!/^[A-Za-z0-9._@-]{1,100}$/.test(spec.principal)) throw new TokenError('--principal must be 1-100 letters, digits, or . _ @ -');
  if (!isRole(spec.role)) throw new TokenError(`--role must be one of ${ROLES.join(', ')}`);
  const id = crypto.randomBytes(6).toString('hex');
  const token = `sbt_${id}_${crypto.randomBytes(32).toString('base64url')}`;
  const expiresAt = spec.expiresInMs ? new Date(Date.now() + spec.expiresInMs) : null;
  const sources = spec.sources && spec.sources.length ? [...spec.sources] : null;
  await pool.query('INSERT INTO schemabrain.token (id, principal, role, sources, token_hash, created_by, expires_at) VALUES ($1,$2,$3,$4,$5,$6,$7)', [
    id,
    spec.principal,
    spec.role,
    sources,
    sha256Hex(token),
    spec.createdBy,
    expiresAt,
  ]);
  return { id, token, expiresAt };
}

/** Revokes by token id; true when a live token was revoked. Replicas drop their cached entry on the notification. */
export async function revokeToken(pool: Pool, id: string): Promise<boolean> {
  const r = await pool.query('UPDATE schemabrain.token SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL', [id]);
  if (r.rowCount) await pool.query('SELECT pg_notify($1, $2)', [CHANGE_CHANNEL, `tokens:${id}`]);
  return (r.rowCount ?? 0) > 0;
}

export async function listTokens(pool: Pool): Promise<TokenRow[]> {
  const r = await pool.query<{ id: string; principal: string; role: Role; sources: string[] | null; created_at: Date; created_by: string; expires_at: Date | null; revoked_at: Date | null }>(
    'SELECT id, principal, role, sources, created_at, created_by, expires_at, revoked_at FROM schemabrain.token ORDER BY created_at',
  );
  return r.rows.map((x) => ({ id: x.id, principal: x.principal, role: x.role, sources: x.sources, createdAt: x.created_at, createdBy: x.created_by, expiresAt: x.expires_at, revokedAt: x.revoked_at }));
}

export type TokenCheck = { readonly ok: true; readonly principal: Principal } | { readonly ok: false; readonly reason: 'malformed' | 'unknown' | 'expired' | 'revoked' };

/**
 * Resolves bearer tokens against the store with a short cache (hits and misses), invalidated by the `tokens:<id>`
 * notification that `revokeToken` sends; expiry is checked on every use, cached or not.
 */
export class TokenVerifier {
  private readonly cache = new Map<string, { row: TokenRow | null; at: number }>();

  constructor(
    private readonly pool: Pool,
    private readonly ttlMs = 5000,
  ) {}

  /** A notification payload from the store. */
  invalidate(payload: string): void {
    if (payload === 'reconnected') this.cache.clear();
    else if (payload.startsWith('tokens:')) {
      const id = payload.slice(7);
      for (const [k, v] of this.cache) if (k.startsWith(`sbt_${id}_`) || v.row?.id === id) this.cache.delete(k);
    }
  }

  async check(token: string): Promise<TokenCheck> {
    if (!TOKEN_RE.test(token)) return { ok: false, reason: 'malformed' };
    const now = Date.now();
    let hit = this.cache.get(token);
    if (!hit || now - hit.at > this.ttlMs) {
      const r = await this.pool.query<{ id: string; principal: string; role: Role; sources: string[] | null; created_at: Date; created_by: string; expires_at: Date | null; revoked_at: Date | null }>(
        'SELECT id, principal, role, sources, created_at, created_by, expires_at, revoked_at FROM schemabrain.token WHERE token_hash = $1',
        [sha256Hex(token)],
      );
      const x = r.rows[0];
      hit = { row: x ? { id: x.id, principal: x.principal, role: x.role, sources: x.sources, createdAt: x.created_at, createdBy: x.created_by, expiresAt: x.expires_at, revokedAt: x.revoked_at } : null, at: now };
      if (this.cache.size > 10_000) this.cache.clear();
      this.cache.set(token, hit);
    }
    const row = hit.row;
    if (!row) return { ok: false, reason: 'unknown' };
    if (row.revokedAt) return { ok: false, reason: 'revoked' };
    if (row.expiresAt && row.expiresAt.getTime() <= now) return { ok: false, reason: 'expired' };
    return { ok: true, principal: { name: row.principal, tokenId: row.id, role: row.role, sources: row.sources } };
  }
}
