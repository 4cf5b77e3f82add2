import type http from 'node:http';
import { runAs, type Principal } from '../../core/store/principal';
import type { TokenCheck } from '../../core/store/tokens';

/** Resolves a bearer credential: the store's tokens, or a JWT from the configured issuer (OAuth resource-server mode). */
export type CredentialCheck = (token: string) => Promise<TokenCheck | { readonly ok: false; readonly reason: 'wrong_audience' | 'invalid_jwt' }>;

export interface BearerAuthOptions {
  readonly check: CredentialCheck;
  /** URL of this server's protected resource metadata, named in every 401 (MCP authorization spec). */
  readonly resourceMetadataUrl: (req: http.IncomingMessage) => string;
  readonly onRefusal?: (reason: string) => void;
  /** Sessions remembered per token id (bounded): a session can only be used by the token that first used it. */
  readonly maxSessions?: number;
}

function quote(s: string): string {
  return `"${s.replace(/["\\]/g, '')}"`;
}

function deny(res: http.ServerResponse, status: 401 | 403, challenge: string, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json', 'www-authenticate': challenge }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message }, id: null }));
}

const REASON_TEXT: Record<string, string> = {
  malformed: 'the bearer token is malformed',
  unknown: 'the bearer token is not known to this server',
  expired: 'the bearer token has expired',
  revoked: 'the bearer token was revoked',
  wrong_audience: 'the access token was issued for another audience',
  invalid_jwt: 'the access token is not valid for this server',
};

/**
 * The `authenticate` hook of a team server: every /mcp request carries `Authorization: Bearer <token>`. Missing:
 * 401 with a `WWW-Authenticate: Bearer` challenge naming the resource metadata; invalid, expired, revoked or for
 * another audience: 401 with `error="invalid_token"`; a session id opened by another token: 403
 * `error="insufficient_scope"`. Otherwise the request runs as the token's principal.
 */
export function createBearerAuth(opts: BearerAuthOptions): (req: http.IncomingMessage, res: http.ServerResponse) => Promise<(<T>(fn: () => T) => T) | null> {
  const sessionOwner = new Map<string, string>();
  const maxSessions = opts.maxSessions ?? 100_000;
  return async (req, res) => {
    const meta = `resource_metadata=${quote(opts.resourceMetadataUrl(req))}`;
    const header = req.headers.authorization;
    const m = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!header) {
      opts.onRefusal?.('unauthenticated');
      deny(res, 401, `Bearer realm="schemabrain", ${meta}`, 'Unauthorized: send Authorization: Bearer <token> (schemabrain token create issues one).');
      return null;
    }
    const result = m ? await opts.check(m[1]!) : ({ ok: false, reason: 'malformed' } as const);
    if (!result.ok) {
      opts.onRefusal?.(`invalid_token:${result.reason}`);
      const text = REASON_TEXT[result.reason] ?? 'the bearer token is not valid';
      deny(res, 401, `Bearer realm="schemabrain", error="invalid_token", error_description=${quote(text)}, ${meta}`, `Unauthorized: ${text}.`);
      return null;
    }
    const principal: Principal = result.principal;
    const sid = req.headers['mcp-session-id'];
    const sessionId = Array.isArray(sid) ? sid[0] : sid;
    if (sessionId) {
      const owner = sessionOwner.get(sessionId);
      if (owner === undefined) {
        if (sessionOwner.size >= maxSessions) sessionOwner.delete(sessionOwner.keys().next().value!);
        sessionOwner.set(sessionId, principal.tokenId);
      } else if (owner !== principal.tokenId) {
        opts.onRefusal?.('session_owner');
        deny(res, 403, `Bearer realm="schemabrain", error="insufficient_scope", error_description="this session belongs to another token", ${meta}`, 'Forbidden: this MCP session was opened with another token; initialize a session of your own.');
        return null;
      }
    }
    return <T>(fn: () => T): T => runAs(principal, fn);
  };
}
