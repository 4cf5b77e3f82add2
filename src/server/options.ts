import path from 'node:path';
import type { PiiCategory } from '../core/envelope';
import type { ServerLimits } from './deps';
import { parseCategoryList, PolicyError } from '../core/pii';

export class ServerOptionsError extends Error {}

export interface ServerOptions {
  readonly catalogPath: string | null;
  readonly auditPath: string | null;
  readonly noAudit: boolean;
  /** `--audit-fail-open`: answer calls even when their audit row cannot be written (recorded in the log as markers). */
  readonly auditFailOpen?: boolean;
  readonly eventsPath: string | null;
  readonly workspaceDir: string | null;
  readonly piiBlock: PiiCategory[];
  readonly piiPolicyPath: string | null;
  readonly allowSchemas?: string[];
  readonly limits: Partial<ServerLimits>;
  /** Streamable HTTP on loopback instead of stdio (0 = any free port). */
  readonly httpPort: number | null;
  /** Address the HTTP server binds (default 127.0.0.1); anything off loopback is warned about at start. */
  readonly httpHost?: string;
  /** `--store postgres://…` (or SCHEMABRAIN_STORE): a team replica over the shared store (src/server/team). */
  readonly store?: string;
  /** Team server: tool calls per second per principal on this replica (0: no limit; default 50). */
  readonly rateLimit?: number;
  /** Team server: where the replica keeps its copy of the catalog and definitions (default: a fresh temp dir). */
  readonly teamCacheDir?: string;
  /** Team server: the OAuth authorization server whose JWT access tokens are accepted (resource-server mode). */
  readonly oauthIssuer?: string;
  /** Team server: the audience those tokens must carry (this server's resource URL). */
  readonly oauthAudience?: string;
  /** Team server: the issuer's JWKS URL (default: discovered from the issuer's metadata). */
  readonly oauthJwks?: string;
}

export const SERVER_USAGE = `schemabrain serve [--catalog PATH] [--audit-path PATH | --no-audit] [--audit-fail-open] [--events-path PATH]
                  [--workspace DIR] [--pii-policy FILE] [--pii-block CATEGORIES] [--allow-schemas a,b] [--max-rows N] [--statement-timeout-ms N]
                  [--http PORT [--host ADDR]]   (Streamable HTTP on 127.0.0.1, or ADDR, instead of stdio)
                  [--store postgres://user@host/db [--rate-limit N] [--cache-dir DIR] [--oauth-issuer URL --oauth-audience URL [--oauth-jwks URL]]]   (team replica, needs --http)`;

function intFlag(name: string, v: string | undefined, min: number, max: number): number {
  const n = Number(v);
  if (v === undefined || !Number.isInteger(n)) throw new ServerOptionsError(`${name} needs an integer`);
  if (n < min || n > max) throw new ServerOptionsError(`${name} must be between ${min} and ${max}`);
  return n;
}

/** Flags win over environment variables, which win over defaults (the same precedence as seed 002). */
export function parseServerOptions(argv: readonly string[], env: NodeJS.ProcessEnv): ServerOptions {
  let catalogPath = env.SCHEMABRAIN_CATALOG || null;
  let auditPath = env.SCHEMABRAIN_AUDIT_PATH || null;
  let eventsPath: string | null = null;
  let workspaceDir = env.SCHEMABRAIN_WORKSPACE || null;
  let noAudit = false;
  let auditPathFlag = false;
  let auditFailOpen = false;
  let piiBlock: PiiCategory[] = [];
  let piiPolicyPath: string | null = env.SCHEMABRAIN_PII_POLICY || null;
  let allowSchemas: string[] | undefined;
  let httpPort: number | null = null;
  let httpHost: string | undefined;
  let store: string | undefined = env.SCHEMABRAIN_STORE || undefined;
  let rateLimit: number | undefined;
  let teamCacheDir: string | undefined;
  let oauthIssuer: string | undefined;
  let oauthAudience: string | undefined;
  let oauthJwks: string | undefined;
  const limits: { -readonly [K in keyof ServerLimits]?: ServerLimits[K] } = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const [flag, inline] = a.startsWith('--') && a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined || v.startsWith('--')) throw new ServerOptionsError(`${flag} needs a value`);
      return v;
    };
    switch (flag) {
      case '--catalog':
        catalogPath = value();
        break;
      case '--audit-path':
        auditPath = value();
        auditPathFlag = true;
        break;
      case '--no-audit':
        noAudit = true;
        break;
      case '--audit-fail-open':
        auditFailOpen = true;
        break;
      case '--events-path':
        eventsPath = value();
        break;
      case '--workspace':
        workspaceDir = value();
        break;
      case '--pii-block':
        try {
          piiBlock = parseCategoryList(value());
        } catch (e) {
          throw new ServerOptionsError(e instanceof PolicyError ? e.message : String(e));
        }
        break;
      case '--pii-policy':
        piiPolicyPath = value();
        break;
      case '--allow-schemas':
        allowSchemas = value().split(',').map((x) => x.trim()).filter(Boolean);
        break;
      case '--max-rows':
        limits.maxRows = intFlag(flag, value(), 1, 100_000);
        break;
      case '--statement-timeout-ms':
        limits.statementTimeoutMs = intFlag(flag, value(), 100, 600_000);
        break;
      case '--stdio':
        httpPort = null;
        break;
      case '--http':
        httpPort = intFlag(flag, value(), 0, 65535);
        break;
      case '--host':
        httpHost = value();
        if (!/^[A-Za-z0-9.:-]+$/.test(httpHost)) throw new ServerOptionsError(`--host needs an address or host name, got '${httpHost.slice(0, 100)}'`);
        break;
      case '--store':
        store = value();
        if (!/^postgres(ql)?:\/\//i.test(store)) throw new ServerOptionsError('--store needs a postgres:// URL (the team store)');
        break;
      case '--rate-limit':
        rateLimit = intFlag(flag, value(), 0, 100_000);
        break;
      case '--cache-dir':
        teamCacheDir = path.resolve(value());
        break;
      case '--oauth-issuer':
        oauthIssuer = value();
        break;
      case '--oauth-audience':
        oauthAudience = value();
        break;
      case '--oauth-jwks':
        oauthJwks = value();
        break;
      default:
        throw new ServerOptionsError(`unknown option '${a}'\nusage: ${SERVER_USAGE}`);
    }
  }
  if (noAudit && auditPathFlag) throw new ServerOptionsError(`--audit-path and --no-audit contradict each other: give one\nusage: ${SERVER_USAGE}`);
  const abs = (p: string | null): string | null => (p ? path.resolve(p) : null);
  return { catalogPath: abs(catalogPath), auditPath: abs(auditPath), noAudit, auditFailOpen, eventsPath: abs(eventsPath), workspaceDir: abs(workspaceDir), piiBlock, piiPolicyPath: abs(piiPolicyPath), allowSchemas, limits, httpPort, ...(httpHost !== undefined ? { httpHost } : {}), ...(store ? { store } : {}), ...(rateLimit !== undefined ? { rateLimit } : {}), ...(teamCacheDir ? { teamCacheDir } : {}), ...(oauthIssuer ? { oauthIssuer } : {}), ...(oauthAudience ? { oauthAudience } : {}), ...(oauthJwks ? { oauthJwks } : {}) };
}
