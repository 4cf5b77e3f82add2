import { AsyncLocalStorage } from 'node:async_hooks';

export const ROLES = ['catalog', 'analyst', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** Who made a request on a team server: from a bearer token issued by `schemabrain token create`, or a JWT. */
export interface Principal {
  /** The user or service name (`--principal alice`, or the JWT `sub`). */
  readonly name: string;
  /** The token id (never the token): what audit rows name beside the principal. */
  readonly tokenId: string;
  readonly role: Role;
  /** Sources this principal may see; null: every source. */
  readonly sources: readonly string[] | null;
}

/**
 * The principal of the request being served. The HTTP layer runs each authenticated request inside `run`, so the
 * tool call, its access check and its audit append (all on that request's async chain) see the same principal
 * without threading it through every layer.
 */
const current = new AsyncLocalStorage<Principal>();

export function runAs<T>(principal: Principal, fn: () => T): T {
  return current.run(principal, fn);
}

export function currentPrincipal(): Principal | undefined {
  return current.getStore();
}

/** The audit row's principal field: `name/tokenId`. */
export function principalLabel(p: Principal | undefined): string | null {
  return p ? `${p.name}/${p.tokenId}` : null;
}
