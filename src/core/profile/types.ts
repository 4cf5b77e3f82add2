import type { Engine } from '../catalog/model';
import type { QueryOutcome } from '../sql';

/**
 * Table profiles and quality findings (UDB `udb.analyze`, seed 004: profile + quality, with profile/quality
 * artifacts). Everything here is already redacted for the agent: names of PII-blocked columns are placeholders and
 * no value of a PII-tagged column is ever kept — not in the profile, the findings or the artifacts.
 */

export type Severity = 'high' | 'medium' | 'low';

export type FindingKind =
  | 'unexpected_nulls'
  | 'high_null_fraction'
  | 'duplicate_candidate_key'
  | 'orphaned_reference'
  | 'future_date'
  | 'ancient_date';

export interface QualityFinding {
  readonly kind: FindingKind;
  readonly severity: Severity;
  /** Display name (a placeholder for PII-blocked columns). */
  readonly column: string;
  readonly message: string;
  /** Offending rows (nulls, future dates, orphans) or duplicated values, within `checked`. */
  readonly count: number;
  /** Rows (or non-null values) the rule looked at. */
  readonly checked: number;
  /** A few offending values; never for PII-tagged columns. */
  readonly examples?: readonly string[];
  /** For orphaned references: the referenced table and column, and why it was checked. */
  readonly references?: string;
  readonly basis?: 'declared_fk' | 'name_match';
}

/** How the rows were read. `full_table`: the table fit in the sample, so figures are exact. */
export type SampleMethod = 'full_table' | 'limit' | 'bernoulli' | 'system' | 'random_order' | 'first_rows' | 'none';

export interface SampleInfo {
  readonly method: SampleMethod;
  readonly requestedRows: number;
  readonly rows: number;
  /** True when every row of the table was read. */
  readonly complete: boolean;
  readonly sql: string | null;
  /** Why no sample could be read (the profile then rests on catalog statistics). */
  readonly error?: string;
}

export interface TopValue {
  readonly value: string;
  /** Share of all rows, 0..1. */
  readonly frequency: number;
}

export interface ColumnProfile {
  readonly name: string;
  readonly type: string;
  readonly nullable: boolean;
  readonly nullFraction: number | null;
  readonly distinctEstimate: number | null;
  /** Not for PII-tagged columns. */
  readonly min: string | null;
  readonly max: string | null;
  /** Not for PII-tagged columns. */
  readonly topValues: readonly TopValue[];
  readonly avgWidth: number | null;
  /** Where the figures come from: the sample read now, or statistics stored at index time. */
  readonly origin: 'sample' | 'catalog_stats' | 'none';
  readonly piiCategories: readonly string[];
  readonly redacted: boolean;
}

export interface CheckRecord {
  readonly rule: string;
  readonly column: string;
  readonly ok: boolean;
  readonly note?: string;
}

export interface TableProfile {
  readonly qualifiedName: string;
  readonly source: string;
  readonly engine: Engine;
  readonly rowEstimate: number | null;
  readonly profiledAt: string;
  readonly sample: SampleInfo;
  readonly columns: readonly ColumnProfile[];
  readonly findings: readonly QualityFinding[];
  /** Orphan checks and other queries run besides the sample, with their outcome. */
  readonly checks: readonly CheckRecord[];
  readonly notes: readonly string[];
}

/** What the caller decided about one column under the PII policy. */
export interface ColumnAccess {
  /** The name to show: the real name, or a placeholder when the column is PII-blocked. */
  readonly displayName: string;
  /** Blocked categories; non-empty means the column is hidden (counts only, placeholder name). */
  readonly blocked: readonly string[];
  /** Categories the column is tagged with; non-empty means counts only (no values). */
  readonly categories: readonly string[];
}

/**
 * Runs one guarded read-only statement against the source; the caller wires the guard, the connection, the timeout
 * and the byte cap, and must return at most `maxRows` rows (setting `truncated` when there were more).
 */
export type ProfileQuery = (sql: string, maxRows: number) => Promise<QueryOutcome>;
