import type { CatalogProvider } from '../core/catalog/provider';
import type { PiiTag } from '../core/catalog/model';
import type { CallRecorder } from '../core/audit';
import type { Envelope, PiiCategory } from '../core/envelope';
import type { SqlGuard } from '../core/sql';
import type { Logger } from '../core/util/logger';
import type { SourceConnections } from './connections';
import type { CallGate } from './inflight';
import type { ClientLogBus } from './logging/client-log';
import type { SemanticModels } from './semantic-model';

/** Decides what of a column may leave the server. */
export interface PiiGate {
  /** Categories of this tag that the active policy blocks (floor ∪ operator list); empty when visible. */
  blockedCategories(tag: PiiTag | null | undefined): PiiCategory[];
}

export interface ServerLimits {
  readonly maxRows: number;
  readonly maxBytes: number;
  readonly statementTimeoutMs: number;
}

export interface ServerDeps {
  readonly catalog: CatalogProvider;
  readonly logger: Logger;
  readonly pii: PiiGate;
  readonly recorder: CallRecorder | null;
  readonly sessionId: string;
  readonly limits: ServerLimits;
  /** Passwords by source name, received over the private channel; never logged. */
  readonly secrets: ReadonlyMap<string, string>;
  /** Workspace folder whose `.schemabrain/` holds semantic definitions, when there is one. */
  readonly workspaceDir: string | null;
  /** The semantic model of `workspaceDir`, cached per catalog generation and file mtimes; loaded per call when absent. */
  readonly semantic?: SemanticModels;
  readonly version: string;
  /** The SQL parser guard (layer 1), loaded on first use. */
  readonly sqlGuard: () => Promise<SqlGuard>;
  readonly connections: SourceConnections;
  /** Schemas agents may query; undefined means every non-system schema. */
  readonly allowedSchemas?: readonly string[];
  /** How long after a read an update of that resource is sent a second time (CLIENT_READ_CACHE_MS when absent). */
  readonly clientReadCacheMs?: number;
  /** Warnings and errors forwarded to MCP clients as notifications/message (the logger tees into it). */
  readonly clientLog?: ClientLogBus;
  /**
   * Whether the session being opened receives them (asked when its protocol server is made, as its principal): a
   * team server's warnings name its store, its outages and its workspace, which only admins need to see.
   */
  readonly clientLogVisible?: () => boolean;
  /** Tool calls in flight, drained on shutdown before the transport, audit log and pools close. */
  readonly gate?: CallGate;
  /**
   * A team server's role, source and rate checks (src/server/team/access.ts): an envelope refuses the call before
   * it runs (and is audited like any answer); null lets it run. Absent for the single-user server.
   */
  readonly access?: { check(tool: string, args: unknown): Envelope<unknown> | null };
}

export const DEFAULT_LIMITS: ServerLimits = { maxRows: 1000, maxBytes: 1_000_000, statementTimeoutMs: 15_000 };
