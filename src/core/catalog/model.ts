/**
 * Catalog domain model: readonly camelCase, engine-neutral. Introspectors map raw driver rows (`*Row` types kept
 * inside `core/sources/<engine>/`) into these shapes once; everything downstream reads only these.
 */

export type Engine = 'postgres' | 'sqlite' | 'mysql';

export type RelationKind = 'table' | 'view' | 'materialized_view' | 'partitioned_table' | 'foreign_table';

export interface ColumnStats {
  /** Fraction of NULLs, 0..1 (pg_stats.null_frac, or measured on a bounded sample for SQLite). */
  readonly nullFraction: number | null;
  /** Estimated distinct values as an absolute count (pg's negative n_distinct is multiplied out by the row estimate). */
  readonly distinctEstimate: number | null;
  /** Most common values as text, most frequent first; omitted for PII-tagged columns. */
  readonly mostCommonValues: readonly string[] | null;
  readonly mostCommonFreqs: readonly number[] | null;
  /** Smallest and largest values seen (histogram bounds or sample), as text; omitted for PII-tagged columns. */
  readonly minValue: string | null;
  readonly maxValue: string | null;
  readonly avgWidth: number | null;
  /** Where the figures come from. */
  readonly origin: 'pg_stats' | 'sample';
}

export interface PiiTag {
  readonly categories: readonly string[];
  readonly sensitivity: 'public' | 'internal' | 'confidential' | 'pii';
  readonly confidence: number;
  /** Human-readable signals that produced the tag, e.g. `name:email`, `values:luhn`. */
  readonly signals: readonly string[];
  /** `classifier` at index time, or `override` from the operator (survives re-indexing). */
  readonly origin: 'classifier' | 'override';
}

export interface ColumnInfo {
  readonly name: string;
  readonly ordinal: number;
  readonly dataType: string;
  readonly isNullable: boolean;
  readonly defaultExpr: string | null;
  readonly isGenerated: boolean;
  readonly isIdentity: boolean;
  readonly comment: string | null;
  /** Labels of a PostgreSQL enum type, in declared order. */
  readonly enumLabels: readonly string[] | null;
  readonly stats: ColumnStats | null;
  readonly pii: PiiTag | null;
  /**
   * Every distinct label of a short text column in a small table read whole at index time (a code list: shift,
   * department, payment status), bounded in count and length (core/indexing/code-values.ts). Absent for other
   * columns, for PII-tagged ones, and in catalogs indexed before labels were kept.
   */
  readonly codeValues?: readonly string[];
}

export interface KeyConstraint {
  readonly name: string;
  readonly columns: readonly string[];
}

export interface ForeignKeyInfo {
  readonly name: string;
  readonly columns: readonly string[];
  readonly targetSchema: string;
  readonly targetTable: string;
  readonly targetColumns: readonly string[];
  readonly onDelete: string | null;
  readonly onUpdate: string | null;
}

export interface CheckConstraint {
  readonly name: string;
  readonly expression: string;
}

export interface IndexInfo {
  readonly name: string;
  /** Column names, or the expression text for expression indexes. */
  readonly columns: readonly string[];
  readonly isUnique: boolean;
  readonly isPrimary: boolean;
  readonly method: string | null;
  readonly predicate: string | null;
  /** PostgreSQL: the table was last CLUSTERed on this index, so its rows lie in this index's order. */
  readonly isClustered?: boolean;
}

export interface TableInfo {
  readonly schema: string;
  readonly name: string;
  readonly kind: RelationKind;
  readonly comment: string | null;
  /** Planner estimate (pg_class.reltuples summed over partitions), or an exact count for small SQLite tables. */
  readonly rowEstimate: number | null;
  readonly columns: readonly ColumnInfo[];
  readonly primaryKey: KeyConstraint | null;
  readonly uniqueConstraints: readonly KeyConstraint[];
  readonly checkConstraints: readonly CheckConstraint[];
  readonly foreignKeys: readonly ForeignKeyInfo[];
  readonly indexes: readonly IndexInfo[];
  /** Child partitions folded into this parent (qualified names). */
  readonly partitions: readonly string[];
  /** PostgreSQL: a partitioned table's key (`LIST (region)`, `RANGE (lower(name))`): a read meets its rows by partition. */
  readonly partitionKey?: string;
  /** PostgreSQL: tables that inherit from this one (not partitions), qualified; a read of this table reads their rows. */
  readonly inheritedBy?: readonly string[];
  readonly viewDefinition: string | null;
  /** Structural fingerprint (sha256 hex) used for incremental re-indexing. */
  readonly fingerprint: string;
}

export interface SchemaInfo {
  readonly name: string;
  readonly comment: string | null;
}

export interface EnumInfo {
  readonly schema: string;
  readonly name: string;
  readonly labels: readonly string[];
}

export interface SourceInfo {
  /** Stable id: first 16 hex of sha256 over the credential-free canonical locator. */
  readonly id: string;
  /** The name given at index time; unique within a catalog. */
  readonly name: string;
  readonly engine: Engine;
  /** Credential-free locator, e.g. `postgres://host:5432/db` or an absolute SQLite path. */
  readonly locator: string;
  readonly database: string;
  /**
   * How the server reconnects for guarded queries, without a secret: `postgres://user@host:port/db?params`, with a
   * `\${VAR}` password reference kept as written; the SQLite path for files.
   */
  readonly connectTemplate: string | null;
  readonly serverVersion: string | null;
  readonly indexedAt: string;
  readonly tableCount: number;
  readonly columnCount: number;
}

/**
 * What the indexing role may do on the source, read at index time. Agent SQL is guarded either way; a role that can
 * write (or is a superuser) is reported so an operator can switch to a dedicated read-only role (`schemabrain role-sql`).
 */
export interface SourcePrivileges {
  readonly role: string;
  readonly superuser: boolean;
  readonly bypassRls: boolean;
  /** INSERT, UPDATE, DELETE or TRUNCATE on at least one user table. */
  readonly canWrite: boolean;
  /** `schema.name` of the relations the role cannot read (absent in catalogs indexed before this was recorded). */
  readonly unreadable?: readonly string[];
}

/** Catalog artifact key under which a source's privilege record is kept. */
export function privilegesArtifact(sourceId: string): string {
  return `privileges:${sourceId}`;
}

/** A composite type of the source (PostgreSQL `CREATE TYPE … AS (…)`), whose fields a column of that type holds. */
export interface CompositeTypeInfo {
  readonly schema: string;
  readonly name: string;
  readonly fields: ReadonlyArray<{ readonly name: string; readonly dataType: string }>;
}

/** Everything the introspector returns for one source. */
export interface SourceSnapshot {
  readonly schemas: readonly SchemaInfo[];
  readonly tables: readonly TableInfo[];
  readonly enums: readonly EnumInfo[];
  /** Composite types, for classifying the columns that hold them (PostgreSQL; absent elsewhere). */
  readonly composites?: readonly CompositeTypeInfo[];
  /**
   * Columns whose type holds a relation's row, at any depth (`u users`, a domain over `users[]`, a composite with a
   * field of a row type): each such column with the relation it holds (PostgreSQL; absent elsewhere).
   */
  readonly rowTypeRefs?: readonly RowTypeRef[];
}

export interface RowTypeRef {
  readonly schema: string;
  readonly table: string;
  readonly column: string;
  readonly refSchema: string;
  readonly refTable: string;
}

export function qualifiedName(schema: string, table: string): string {
  return `${schema}.${table}`;
}
