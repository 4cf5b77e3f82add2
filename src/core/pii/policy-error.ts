export type PolicyErrorKind = 'unknown_category' | 'unknown_key' | 'bad_version' | 'bad_value' | 'floor_downgrade' | 'yaml';

/** A typed policy error; `path` locates the offending entry (`block[1]`, `column_overrides.public.t.c.sensitivity`). */
export class PolicyError extends Error {
  readonly kind: PolicyErrorKind;
  readonly path: string;
  constructor(kind: PolicyErrorKind, path: string, message: string) {
    super(message);
    this.name = 'PolicyError';
    this.kind = kind;
    this.path = path;
  }
}
