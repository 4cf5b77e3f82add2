/**
 * Closed vocabularies of the SchemaBrain Agent UX Charter v1.2 (seed 000, seed 001, and the original's
 * `schemabrain/mcp/envelope.py`). Adding a value is a minor charter bump; removing one is a major bump.
 */

export const CHARTER_VERSION = '1.2' as const;

export const STATUSES = ['success', 'empty', 'partial', 'degraded', 'error', 'refused'] as const;
export type Status = (typeof STATUSES)[number];

export const CONFIDENCES = ['HIGH', 'MEDIUM', 'LOW'] as const;
export type Confidence = (typeof CONFIDENCES)[number];

export const PROVENANCE_SOURCES = ['schema', 'llm', 'inferred'] as const;
export type ProvenanceSource = (typeof PROVENANCE_SOURCES)[number];

export const INFERENCE_METHODS = [
  'manually_authored',
  'llm_suggested',
  'fk_constraint',
  'dbt_import',
  'observed_in_query_log',
  // v1.3 (minor): a join or metric inferred from identifier names and types alone (e.g. `customer_id` →
  // `customer.customer_id` with no declared FK). Weak like `observed_in_query_log`; see docs/charter.md.
  'name_inferred',
] as const;
export type InferenceMethod = (typeof INFERENCE_METHODS)[number];

export const VALIDATION_STATES = ['draft', 'applied', 'confirmed'] as const;
export type ValidationState = (typeof VALIDATION_STATES)[number];

export const DEGRADATION_REASONS = ['fan_out_join', 'missing_order_by_with_limit', 'time_dimension_unavailable', 'pii_masked', 'no_confident_match'] as const;
export type DegradationReason = (typeof DEGRADATION_REASONS)[number];

/** The closed 26-kind registry of seed 001 plus the v1.3 additions; `invalid_argument` is among them and, unlike the original, we return it inside an envelope. */
export const ERROR_KINDS = [
  // v1.0 core
  'unknown_name',
  'malformed_name',
  'missing_credential',
  'index_not_ready',
  'schema_drift',
  'cost_cap_exceeded',
  'internal_error',
  // v1.1 refuse-before-execute
  'pii_blocked',
  'policy_blocked',
  'allowlist_violation',
  // canonical-join resolution
  'no_canonical_join',
  'ambiguous_join',
  'unknown_join_name',
  'join_name_mismatch',
  // metric surface
  'unknown_metric',
  'unreachable_entity',
  'ambiguous_path',
  'unknown_via_join',
  'unknown_order_by_column',
  'unknown_group_by_column',
  'unknown_filter_column',
  'unknown_measure_column',
  // time grain
  'invalid_time_grain',
  'grain_mismatch',
  // v1.2 time-dimension inheritance
  'ambiguous_time_dimension',
  // MCP dispatch
  'invalid_argument',
  // v1.3 (minor), retryable: the call's audit row could not be made durable (full or read-only disk, audit lock
  // held by a stalled process), so no data is returned; and a source that cannot be reached right now (connection
  // refused, host down: the indexer's `unreachable`). See docs/charter.md.
  'audit_unavailable',
  'unreachable',
  // v1.3 (minor), retryable: a team server's per-principal call budget is spent for now; retry after the delay
  // the message gives. See docs/charter.md.
  'rate_limited',
] as const;
export type ErrorKind = (typeof ERROR_KINDS)[number];

/** Kinds where the same call may succeed later without any change (the recovery says when and how to check). */
export const RETRYABLE_KINDS: ReadonlySet<ErrorKind> = new Set<ErrorKind>(['audit_unavailable', 'unreachable', 'rate_limited']);

export const REFUSAL_KINDS: ReadonlySet<ErrorKind> = new Set<ErrorKind>(['pii_blocked', 'policy_blocked', 'allowlist_violation']);

export const PII_CATEGORIES = [
  'contact',
  'financial',
  'payment_card',
  'health',
  'genetic',
  'biometric',
  'behavioral',
  'online_identifier',
  'credential',
  'government_id',
  'location',
  'demographic_protected',
] as const;
export type PiiCategory = (typeof PII_CATEGORIES)[number];

/** Always-on floor: redacted and refused even with an empty operator block list. */
export const CATASTROPHIC_PII: ReadonlySet<PiiCategory> = new Set<PiiCategory>(['credential', 'payment_card', 'government_id']);

export const LATENCY_HINTS = ['fast', 'moderate', 'slow'] as const;
export type LatencyHint = (typeof LATENCY_HINTS)[number];

export const SIDE_EFFECTS = ['none', 'read', 'write'] as const;
export type SideEffects = (typeof SIDE_EFFECTS)[number];
