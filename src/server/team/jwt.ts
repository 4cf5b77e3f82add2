import { sha256Hex } from '../../core/audit/canonical';
import type { Role } from '../../core/store/principal';
import type { CredentialCheck } from './auth';

export interface OAuthOptions {
  /** The authorization server (`iss`), also named in the protected resource metadata. */
  readonly issuer: string;
  /** The audience access tokens must carry: this server's canonical resource URL (RFC 8707), e.g. https://sb.example/mcp. */
  readonly audience: string;
  /** The issuer's JWKS; when absent, `jwks_uri` from the issuer's authorization server (or OpenID) metadata. */
  readonly jwksUrl?: string;
}

const ROLE_ORDER: readonly Role[] = ['catalog', 'analyst', 'admin'];

/** The highest `schemabrain:<role>` in the `scope` claim; `catalog` when none (least privilege). */
export function roleFromScope(scope: unknown): Role {
  const scopes = typeof scope === 'string' ? scope.split(/\s+/) : [];
  let best: Role = 'catalog';
  for (const s of scopes) {
    const r = s.startsWith('schemabrain:') ? (s.slice(12) as Role) : null;
    if (r && ROLE_ORDER.includes(r) && ROLE_ORDER.indexOf(r) > ROLE_ORDER.indexOf(best)) best = r;
  }
  return best;
}

async function discoverJwks(issuer: string): Promise<string> {
  const base = issuer.replace(/\/$/, '');
  for (const well of ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration']) {
    try {
      const r = await fetch(`${base}${well}`, { signal: AbortSignal.timeout(5000) });
      if (!r.ok) continue;
      const meta = (await r.json()) as { jwks_uri?: unknown };
      if (typeof meta.jwks_uri === 'string') return meta.jwks_uri;
    } catch {
      // try the next document
    }
  }
  throw new Error(`no jwks_uri in the metadata of ${issuer}; pass --oauth-jwks`);
}

/**
 * OAuth 2.1 resource-server mode (MCP authorization): a bearer that is a JWT is verified against the issuer's JWKS
 * (signature, `iss`, `aud` = this server, `exp`/`nbf`). The principal is `sub`; its role comes from the `scope`
 * claim (`schemabrain:catalog|analyst|admin`), its sources from a `schemabrain_sources` array claim (absent: all).
 */
export function createJwtCheck(opts: OAuthOptions): CredentialCheck {
  // jose is an ES module: loaded on first use (the bundle inlines it), and only in OAuth mode.
  const jose = import('jose');
  type KeySet = ReturnType<Awaited<typeof jose>['createRemoteJWKSet']>;
  let jwks: Promise<KeySet> | null = null;
  const keys = (): Promise<KeySet> =>
    (jwks ??= Promise.all([jose, opts.jwksUrl ? Promise.resolve(opts.jwksUrl) : discoverJwks(opts.issuer)])
      .then(([j, u]) => j.createRemoteJWKSet(new URL(u)))
      .catch((e: unknown) => {
        jwks = null;
        throw e;
      }));
  return async (token) => {
    if (!/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(token)) return { ok: false, reason: 'malformed' };
    const j = await jose;
    let payload: Awaited<ReturnType<typeof j.jwtVerify>>['payload'];
    try {
      // An access token without `exp` would never expire: it is refused.
      ({ payload } = await j.jwtVerify(token, await keys(), { issuer: opts.issuer, audience: opts.audience, clockTolerance: 5, requiredClaims: ['exp'] }));
    } catch (e) {
      if (e instanceof j.errors.JWTExpired) return { ok: false, reason: 'expired' };
      if (e instanceof j.errors.JWTClaimValidationFailed && e.claim === 'aud') return { ok: false, reason: 'wrong_audience' };
      return { ok: false, reason: 'invalid_jwt' };
    }
    if (typeof payload.sub !== 'string' || !payload.sub) return { ok: false, reason: 'invalid_jwt' };
    const sources = (payload as { schemabrain_sources?: unknown }).schemabrain_sources;
    // Present, the claim limits the token; of any other shape than a list of names ("src", "a,b", 5) it is refused,
    // never read as absent (which would mean every source).
    if (sources !== undefined && !(Array.isArray(sources) && sources.every((s) => typeof s === 'string'))) return { ok: false, reason: 'invalid_jwt' };
    return {
      ok: true,
      principal: {
        name: payload.sub.slice(0, 200),
        tokenId: `jwt:${typeof payload.jti === 'string' ? payload.jti.slice(0, 64) : sha256Hex(token).slice(0, 12)}`,
        role: roleFromScope(payload.scope),
        sources: sources === undefined ? null : (sources as string[]),
      },
    };
  };
}
