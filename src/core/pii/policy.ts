/**
 * PII policy: the always-on floor (credential, payment_card, government_id), the operator's block list, allow
 * overrides, and per-column overrides. Policy files are YAML, `version: 1`, with strict keys:
 *
 * ```yaml
 * version: 1
 * description: Block contact data for agents.
 * block: [contact, health]          # added to the floor
 * allow: [health]                   # removed from the block set; a floor category also needs `force: true`
 * force: false
 * column_overrides:                 # `schema.table.column`, or `source:schema.table.column` for one source
 *   public.users.nickname: none     # not PII (floor categories the classifier found are kept unless forced)
 *   crm:public.leads.notes: { categories: [contact], sensitivity: confidential }
 *   public.customers.contact: { categories: [contact], block: true }   # this column blocked, whatever the category list
 * ```
 *
 * Overrides are applied after classification (`applyOverrides`), so re-indexing never wipes them.
 */
import { createHash } from 'node:crypto';
import { asciiLower } from '../util/ascii';
import { CATASTROPHIC_PII, PII_CATEGORIES, type PiiCategory } from '../envelope/kinds';
import type { PiiTag } from '../catalog/model';
import { PolicyError } from './policy-error';
import { isFailClosed, SENSITIVITIES, type Sensitivity } from './propagate';

export { PolicyError } from './policy-error';
export type { PolicyErrorKind } from './policy-error';

export const FLOOR_CATEGORIES: readonly PiiCategory[] = PII_CATEGORIES.filter((c) => CATASTROPHIC_PII.has(c));
const VALID = new Set<string>(PII_CATEGORIES);
const VALID_LIST = PII_CATEGORIES.join(', ');

export interface ColumnOverride {
  readonly categories: readonly PiiCategory[];
  readonly sensitivity: Sensitivity;
  /** Allows the override to drop floor categories the classifier found. */
  readonly force: boolean;
  /** The operator blocks this one column (masked like a floor column) without blocking its whole category. */
  readonly block?: boolean;
}

/** Signal on a tag whose column the operator blocked by name (`column_overrides: … block: true`). */
export const OPERATOR_BLOCK_SIGNAL = 'override:block';

function operatorBlocked(tag: PiiTag): boolean {
  return tag.signals.includes(OPERATOR_BLOCK_SIGNAL);
}

export interface PiiPolicy {
  /** The operator's block list, added to the floor. */
  readonly block: ReadonlySet<PiiCategory>;
  /** Categories the operator explicitly allows (removed from the block set). */
  readonly allow: ReadonlySet<PiiCategory>;
  /** Whether `allow` and overrides may remove floor categories. */
  readonly force: boolean;
  /** Keyed by `schema.table.column` or `source:schema.table.column`. */
  readonly columnOverrides: ReadonlyMap<string, ColumnOverride>;
  readonly description: string | null;
}

export function assertCategory(name: string, path: string): PiiCategory {
  if (!VALID.has(name)) {
    throw new PolicyError('unknown_category', path, `unknown PII category '${name}' at ${path}; valid categories are: ${VALID_LIST}`);
  }
  return name as PiiCategory;
}

/** Parses a comma-separated list such as the value of `--pii-block`; an empty string is an empty list. */
export function parseCategoryList(csv: string, path = 'pii-block'): PiiCategory[] {
  return csv
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0)
    .map((s, i) => assertCategory(s, `${path}[${i}]`));
}

export interface PolicyInit {
  readonly block?: readonly PiiCategory[];
  readonly allow?: readonly PiiCategory[];
  readonly force?: boolean;
  readonly columnOverrides?: ReadonlyMap<string, ColumnOverride> | Readonly<Record<string, ColumnOverride>>;
  readonly description?: string | null;
}

/** Builds a policy; allowing a floor category without `force: true` is a `floor_downgrade` error. */
export function createPolicy(init: PolicyInit = {}): PiiPolicy {
  const force = init.force ?? false;
  const allow = new Set(init.allow ?? []);
  if (!force) {
    const downgraded = FLOOR_CATEGORIES.filter((c) => allow.has(c));
    if (downgraded.length > 0) {
      throw new PolicyError(
        'floor_downgrade',
        'allow',
        `allowing ${downgraded.join(', ')} removes the always-on floor (${FLOOR_CATEGORIES.join(', ')}); set force: true to do this deliberately`,
      );
    }
  }
  const overrides = init.columnOverrides instanceof Map ? init.columnOverrides : new Map(Object.entries(init.columnOverrides ?? {}));
  return { block: new Set(init.block ?? []), allow, force, columnOverrides: overrides, description: init.description ?? null };
}

/** The floor alone: what applies when the operator configured nothing. */
export const DEFAULT_POLICY: PiiPolicy = createPolicy();

/** Categories that are blocked: (floor ∪ block) − allow. */
export function effectiveBlockSet(policy: PiiPolicy): ReadonlySet<PiiCategory> {
  const out = new Set<PiiCategory>([...FLOOR_CATEGORIES, ...policy.block]);
  for (const c of policy.allow) if (policy.force || !CATASTROPHIC_PII.has(c)) out.delete(c);
  return out;
}

/** Whether a column (or derived value) with this tag is blocked. The propagation fail-closed sentinel always is. */
export function isBlocked(tag: PiiTag | null | undefined, policy: PiiPolicy): boolean {
  if (!tag) return false;
  if (isFailClosed(tag) || operatorBlocked(tag)) return true;
  const blocked = effectiveBlockSet(policy);
  return tag.categories.some((c) => blocked.has(c as PiiCategory));
}

/** The blocked categories among these tags, in taxonomy order (what a `pii_blocked` refusal lists). */
export function blockedCategories(tags: readonly (PiiTag | null | undefined)[], policy: PiiPolicy): PiiCategory[] {
  const blocked = effectiveBlockSet(policy);
  const hit = new Set<PiiCategory>();
  for (const t of tags) {
    if (!t) continue;
    if (isFailClosed(t)) for (const c of FLOOR_CATEGORIES) hit.add(c);
    if (operatorBlocked(t)) {
      for (const c of t.categories) hit.add(c as PiiCategory);
      if (t.categories.length === 0) hit.add('contact');
    }
    for (const c of t.categories) if (blocked.has(c as PiiCategory)) hit.add(c as PiiCategory);
  }
  return PII_CATEGORIES.filter((c) => hit.has(c));
}

/**
 * What of a policy shapes an index run (its block, allow and force settings and its column overrides), as a short
 * hash; empty for a policy that says nothing, so a run with no policy file and one with an empty file agree.
 */
export function policyDigest(policy: PiiPolicy): string {
  const overrides = [...policy.columnOverrides.entries()]
    .map(([k, o]) => [k, [...o.categories].sort(), o.sensitivity, Boolean(o.block), Boolean(o.force)] as const)
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  if (policy.block.size === 0 && policy.allow.size === 0 && !policy.force && overrides.length === 0) return '';
  const text = JSON.stringify([[...policy.block].sort(), [...policy.allow].sort(), policy.force, overrides]);
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

export function overrideKey(schema: string, table: string, column: string, source?: string): string {
  const base = `${schema}.${table}.${column}`;
  return source ? `${source}:${base}` : base;
}

/**
 * The operator override for a column: a source-specific key wins over a source-independent one, and a key written as
 * the column is spelled wins over one that differs from it in the case of ASCII letters only (`main.users.motto` for
 * a column declared `MOTTO`: SQLite and MySQL names ignore that case, and an unquoted PostgreSQL name is folded).
 */
export function findOverride(policy: PiiPolicy, source: string, schema: string, table: string, column: string): ColumnOverride | null {
  const exact = policy.columnOverrides.get(overrideKey(schema, table, column, source)) ?? policy.columnOverrides.get(overrideKey(schema, table, column));
  if (exact || policy.columnOverrides.size === 0) return exact ?? null;
  const folded = foldedOverrides(policy);
  return folded.get(asciiLower(overrideKey(schema, table, column, source))) ?? folded.get(asciiLower(overrideKey(schema, table, column))) ?? null;
}

const FOLDED = new WeakMap<PiiPolicy, Map<string, ColumnOverride>>();
function foldedOverrides(policy: PiiPolicy): Map<string, ColumnOverride> {
  let m = FOLDED.get(policy);
  if (!m) {
    m = new Map();
    for (const [k, o] of policy.columnOverrides) if (!m.has(asciiLower(k))) m.set(asciiLower(k), o);
    FOLDED.set(policy, m);
  }
  return m;
}

/**
 * Applies an operator override to a freshly classified tag. Without an override the classifier's tag is returned
 * unchanged. With one, the operator's categories and sensitivity win, except that floor categories the classifier
 * found are kept unless the override is forced (signal `override:floor_kept`). The result has origin `override`.
 */
export function applyOverrides(classifierTag: PiiTag | null, override: ColumnOverride | null | undefined): PiiTag | null {
  if (!override) return classifierTag;
  const categories = new Set<string>(override.categories);
  const signals = ['override:operator', ...(override.block ? [OPERATOR_BLOCK_SIGNAL] : [])];
  let sensitivity = override.sensitivity;
  if (!override.force && classifierTag) {
    const kept = classifierTag.categories.filter((c) => CATASTROPHIC_PII.has(c as PiiCategory) && !categories.has(c));
    if (kept.length > 0) {
      for (const c of kept) categories.add(c);
      signals.push(`override:floor_kept ${kept.join(',')}`);
      sensitivity = 'pii';
    }
  }
  const ordered = PII_CATEGORIES.filter((c) => categories.has(c));
  return { categories: ordered, sensitivity, confidence: 1, signals, origin: 'override' };
}

const TOP_KEYS = new Set(['version', 'description', 'block', 'allow', 'force', 'column_overrides']);
const OVERRIDE_KEYS = new Set(['categories', 'sensitivity', 'force', 'block']);
const COLUMN_KEY = /^(?:[^:\s]+:)?[^.\s]+\.[^.\s]+\.[^.\s]+$/;

function categoryArray(value: unknown, path: string): PiiCategory[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new PolicyError('bad_value', path, `${path} must be a list of categories; valid categories are: ${VALID_LIST}`);
  return value.map((v, i) => {
    if (typeof v !== 'string') throw new PolicyError('bad_value', `${path}[${i}]`, `${path}[${i}] must be a category name`);
    return assertCategory(v, `${path}[${i}]`);
  });
}

/** Parses and validates a version-1 policy file. Every problem is a {@link PolicyError}; nothing falls through silently. */
export function parsePolicyYaml(text: string): PiiPolicy {
  let doc: unknown;
  try {
    // The YAML parser is loaded only when a policy file is read: most runs have none, and every index run loads this module.
    const { parse: parseYaml } = require('yaml') as typeof import('yaml');
    doc = parseYaml(text);
  } catch (e) {
    throw new PolicyError('yaml', '', `policy file is not valid YAML: ${(e as Error).message}`);
  }
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) throw new PolicyError('bad_value', '', 'policy file must be a mapping with version: 1');
  const obj = doc as Record<string, unknown>;
  for (const k of Object.keys(obj)) {
    if (!TOP_KEYS.has(k)) throw new PolicyError('unknown_key', k, `unknown key '${k}' in policy file; allowed keys are: ${[...TOP_KEYS].join(', ')}`);
  }
  if (obj.version !== 1) throw new PolicyError('bad_version', 'version', `policy file version must be 1, got ${JSON.stringify(obj.version)}`);
  if (obj.description !== undefined && obj.description !== null && typeof obj.description !== 'string') {
    throw new PolicyError('bad_value', 'description', 'description must be a string');
  }
  if (obj.force !== undefined && typeof obj.force !== 'boolean') throw new PolicyError('bad_value', 'force', 'force must be true or false');
  const force = obj.force === true;
  const overrides = new Map<string, ColumnOverride>();
  const raw = obj.column_overrides;
  if (raw !== undefined && raw !== null) {
    if (typeof raw !== 'object' || Array.isArray(raw)) throw new PolicyError('bad_value', 'column_overrides', 'column_overrides must be a mapping of schema.table.column to an override');
    for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
      const path = `column_overrides.${key}`;
      if (!COLUMN_KEY.test(key)) throw new PolicyError('bad_value', path, `override key '${key}' must be schema.table.column or source:schema.table.column`);
      if (value === 'none') {
        overrides.set(key, { categories: [], sensitivity: 'public', force });
        continue;
      }
      if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new PolicyError('bad_value', path, `${path} must be 'none' or {categories, sensitivity}`);
      const o = value as Record<string, unknown>;
      for (const k of Object.keys(o)) {
        if (!OVERRIDE_KEYS.has(k)) throw new PolicyError('unknown_key', `${path}.${k}`, `unknown key '${k}' in ${path}; allowed keys are: ${[...OVERRIDE_KEYS].join(', ')}`);
      }
      const categories = categoryArray(o.categories, `${path}.categories`);
      const sensitivity = o.sensitivity ?? (categories.length > 0 ? 'pii' : 'public');
      if (typeof sensitivity !== 'string' || !(SENSITIVITIES as readonly string[]).includes(sensitivity)) {
        throw new PolicyError('bad_value', `${path}.sensitivity`, `${path}.sensitivity must be one of: ${SENSITIVITIES.join(', ')}`);
      }
      if (o.force !== undefined && typeof o.force !== 'boolean') throw new PolicyError('bad_value', `${path}.force`, `${path}.force must be true or false`);
      if (o.block !== undefined && typeof o.block !== 'boolean') throw new PolicyError('bad_value', `${path}.block`, `${path}.block must be true or false`);
      overrides.set(key, { categories, sensitivity: sensitivity as Sensitivity, force: o.force === true || force, ...(o.block === true ? { block: true } : {}) });
    }
  }
  return createPolicy({
    block: categoryArray(obj.block, 'block'),
    allow: categoryArray(obj.allow, 'allow'),
    force,
    columnOverrides: overrides,
    description: (obj.description as string | undefined) ?? null,
  });
}
