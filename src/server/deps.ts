import type { CatalogProvider } from '../core/catalog/provider';
import type { PiiTag } from '../core/catalog/model';
import type { PiiCategory, Status } from '../core/envelope';
import type { SqlGuard } from '../core/sql';
import type { Logger } from '../core/util/logger';
import type { SourceConnections } from './connections';

/** Decides what of a column may leave the server. */
export interface PiiGate {
  /** Categories of this tag that the active policy blocks (floor ∪ operator list); empty when visible. */
  blockedCategories(tag: PiiTag | null | undefined): PiiCategory[];
}

/** One finished tool call, as the audit log, the event bus and telemetry record it. */
export interface ToolCallRecord {
  readonly sessionId: string;
  readonly client: { readonly name: string | null; readonly version: string | null };
  readonly tool: string;
  readonly args: unknown;
  readonly status: Status;
  readonly errorKind: string | null;
  readonly piiCategories: readonly PiiCategory[];
  readonly sql: string | null;
  readonly rowCount: number | null;
  readonly truncated: boolean;
  readonly durationMs: number;
  readonly generation: number | null;
  readonly resultSummary: Record<string, string | number | boolean>;
}

export interface CallRecorder {
  /** Durable before it resolves (the audit row); never rejects — failures are logged by the recorder. */
  record(call: ToolCallRecord): Promise<void>;
  serverEvent(subtype: 'server_start' | 'server_stop', detail?: Record<string, unknown>): void;
  close(): Promise<void>;
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
  readonly version: string;
  /** The SQL parser guard (layer 1), loaded on first use. */
  readonly sqlGuard: () => Promise<SqlGuard>;
  readonly connections: SourceConnections;
  /** Schemas agents may query; undefined means every non-system schema. */
  readonly allowedSchemas?: readonly string[];
}

export const DEFAULT_LIMITS: ServerLimits = { maxRows: 1000, maxBytes: 1_000_000, statementTimeoutMs: 15_000 };
