import type { z } from 'zod';
import type { Envelope, LatencyHint, PiiCategory, SideEffects } from '../core/envelope';
import type { CatalogView } from '../core/catalog/view';
import type { ServerDeps } from './deps';
import type { DerivedData } from './derived';

/** What a tool handler receives besides its validated arguments. */
export interface ToolContext {
  /** The loaded catalog; tools with `needsCatalog: false` may get an empty view. */
  readonly catalog: CatalogView;
  readonly deps: ServerDeps;
  /** Per-generation derived data (search index). */
  readonly derived: DerivedData;
  readonly signal: AbortSignal;
  /** Filled by tools so the audit row and events can record what the call touched. */
  readonly trace: CallTrace;
}

export interface CallTrace {
  piiCategories: PiiCategory[];
  sql: string | null;
  rowCount: number | null;
  truncated: boolean;
}

/**
 * A tool as data: schema, description and metadata, plus a thin handler that calls core and returns an envelope.
 * `latency`, `idempotent` and `sideEffects` are the charter's per-tool metadata, mapped onto MCP annotations.
 */
export interface ToolDefinition<S extends z.ZodObject = z.ZodObject> {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly input: S;
  readonly latency: LatencyHint;
  readonly idempotent: boolean;
  readonly sideEffects: SideEffects;
  /** False for tools that answer without an indexed catalog (e.g. get_index_status). */
  readonly needsCatalog?: boolean;
  handler(args: z.infer<S>, ctx: ToolContext): Promise<Envelope<unknown>> | Envelope<unknown>;
  /** Small counts/fingerprints for events and spans (seed 002 `result_summary`). */
  summarize?(envelope: Envelope<unknown>): Record<string, string | number | boolean>;
}

export function defineTool<S extends z.ZodObject>(def: ToolDefinition<S>): ToolDefinition<S> {
  return def;
}

/** Charter table: side_effects/idempotent → MCP annotations. */
export function annotationsFor(def: ToolDefinition): Record<string, unknown> {
  const base =
    def.sideEffects === 'none'
      ? { readOnlyHint: true, destructiveHint: false, openWorldHint: false }
      : def.sideEffects === 'read'
        ? { readOnlyHint: true, destructiveHint: false, openWorldHint: true }
        : { readOnlyHint: false, destructiveHint: true, openWorldHint: true };
  return { ...base, idempotentHint: def.idempotent };
}

/** Rough token count used in budgets and summaries: JSON characters / 4. */
export function tokenEstimate(value: unknown): number {
  return Math.ceil(JSON.stringify(value).length / 4);
}
