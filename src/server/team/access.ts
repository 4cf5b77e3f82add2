import { failure } from '../../core/envelope';
import type { Envelope } from '../../core/envelope';
import { currentPrincipal, type Principal, type Role } from '../../core/store/principal';

/** Tools that read data rather than the catalog: `analyst` and `admin` only. */
export const DATA_TOOLS: ReadonlySet<string> = new Set(['run_query', 'get_metric', 'profile_table']);

export function roleAllows(role: Role, tool: string): boolean {
  return role !== 'catalog' || !DATA_TOOLS.has(tool);
}

/** Sources a principal may see: null for all (admins always see all). */
export function visibleSources(p: Principal): ReadonlySet<string> | null {
  return p.role === 'admin' || !p.sources ? null : new Set(p.sources);
}

export interface RateLimiter {
  /** 0 when the call may go ahead now, else the milliseconds until one may. */
  take(key: string): number;
}

/** A token bucket per key: `perSecond` calls a second on average, bursts up to `burst`. */
export function createRateLimiter(perSecond: number, burst = Math.max(1, perSecond * 2), now: () => number = () => performance.now()): RateLimiter {
  const buckets = new Map<string, { tokens: number; at: number }>();
  return {
    take(key) {
      if (perSecond <= 0) return 0;
      const t = now();
      const b = buckets.get(key) ?? { tokens: burst, at: t };
      b.tokens = Math.min(burst, b.tokens + ((t - b.at) / 1000) * perSecond);
      b.at = t;
      buckets.set(key, b);
      if (buckets.size > 50_000) buckets.clear();
      if (b.tokens >= 1) {
        b.tokens -= 1;
        return 0;
      }
      return Math.ceil(((1 - b.tokens) / perSecond) * 1000);
    },
  };
}

export type RefusalReason = 'role' | 'source' | 'rate';

export interface AccessControl {
  /**
   * Decides a tool call for the request's principal before it runs: null to go ahead, or the envelope to answer
   * (audited like any other answer). Calls with no principal (stdio, tests) are never checked here.
   */
  check(tool: string, args: unknown): Envelope<unknown> | null;
}

/** Role boundaries, source scoping and the per-principal rate limit of a team server. */
export function createAccessControl(opts: { limiter: RateLimiter; onRefusal?: (reason: RefusalReason) => void }): AccessControl {
  return {
    check(tool, args) {
      const p = currentPrincipal();
      if (!p) return null;
      if (!roleAllows(p.role, tool)) {
        opts.onRefusal?.('role');
        return failure('policy_blocked', `${tool} reads data, and ${p.name}'s role '${p.role}' may only read the catalog. Ask a SchemaBrain admin for an analyst token, or use the catalog tools.`, {
          recovery: { suggested_tool: 'find_relevant_tables', suggested_args: null },
        });
      }
      const allowed = visibleSources(p);
      const source = (args as { source?: unknown } | null)?.source;
      if (allowed && typeof source === 'string' && !allowed.has(source)) {
        opts.onRefusal?.('source');
        return failure('policy_blocked', `${p.name}'s token does not cover source '${source.slice(0, 100)}'; it covers ${[...allowed].join(', ')}.`, {
          recovery: { suggested_tool: 'list_indexed_schemas', suggested_args: {} },
        });
      }
      const wait = opts.limiter.take(p.name);
      if (wait > 0) {
        opts.onRefusal?.('rate');
        return failure('rate_limited', `${p.name} is over this server's call rate; retry after ${wait} ms.`, {
          recovery: { suggested_tool: tool, suggested_args: (args as Record<string, unknown> | null) ?? null },
        });
      }
      return null;
    },
  };
}
