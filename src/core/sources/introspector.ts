import type { Engine, SourcePrivileges, SourceSnapshot } from '../catalog/model';

/** Progress reported while introspecting; the CLI turns these into a bar or JSON lines. */
export interface IntrospectProgress {
  readonly phase: 'connect' | 'schemas' | 'tables' | 'columns' | 'constraints' | 'stats' | 'samples' | 'done';
  readonly done: number;
  readonly total: number;
  readonly message?: string;
}

export interface IntrospectOptions {
  /** Schemas to read; default: every non-system schema. */
  readonly schemas?: readonly string[];
  /** Rows sampled per table for value patterns (PII) and the value index; 0 disables sampling. */
  readonly sampleRows?: number;
  readonly onProgress?: (p: IntrospectProgress) => void;
  readonly signal?: AbortSignal;
}

/** Sampled text values per `schema.table` → column → values (never persisted raw). */
export type SampleValues = ReadonlyMap<string, ReadonlyMap<string, readonly string[]>>;

export interface IntrospectResult {
  readonly database: string;
  readonly serverVersion: string | null;
  readonly snapshot: SourceSnapshot;
  readonly samples: SampleValues;
  /** Labels of the short text columns of small tables read whole (code lists; see core/indexing/code-values.ts). */
  readonly codeValues?: SampleValues;
  /** Non-fatal problems (a table whose samples could not be read, a view whose columns could not be resolved). */
  readonly warnings?: readonly string[];
  /** What the connecting role may do (engines that have roles). */
  readonly privileges?: SourcePrivileges;
}

/** One interface, one implementation per engine (kysely's dialect introspectors are the model). */
export interface Introspector {
  readonly engine: Engine;
  introspect(options?: IntrospectOptions): Promise<IntrospectResult>;
  /**
   * A cheap digest that changes whenever the structure `introspect` would read changes (DDL, comments, enum labels),
   * but not when only data or planner statistics move. Equal digests let a re-index skip introspection entirely.
   */
  structureDigest(options?: Pick<IntrospectOptions, 'schemas' | 'sampleRows' | 'signal'>): Promise<string>;
  close(): Promise<void>;
}
