import assert from 'node:assert/strict';
import { PII_CATEGORIES } from '../../../src/core/envelope/kinds';
import type { PiiTag } from '../../../src/core/catalog/model';
import { classifyColumn } from '../../../src/core/pii/classify';
import {
  applyOverrides,
  blockedCategories,
  createPolicy,
  DEFAULT_POLICY,
  effectiveBlockSet,
  findOverride,
  isBlocked,
  parseCategoryList,
  parsePolicyYaml,
  PolicyError,
} from '../../../src/core/pii/policy';

const tag = (...categories: string[]): PiiTag => ({ categories, sensitivity: 'pii', confidence: 0.8, signals: ['test'], origin: 'classifier' });

function policyError(fn: () => unknown): PolicyError {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof PolicyError, `expected PolicyError, got ${String(e)}`);
    return e;
  }
  assert.fail('expected a PolicyError');
}

describe('PII policy: the always-on floor', () => {
  it('blocks credential, payment_card and government_id with an empty operator block list', () => {
    assert.deepEqual([...effectiveBlockSet(DEFAULT_POLICY)].sort(), ['credential', 'government_id', 'payment_card']);
    assert.equal(isBlocked(tag('credential'), DEFAULT_POLICY), true);
    assert.equal(isBlocked(tag('contact'), DEFAULT_POLICY), false);
    assert.equal(isBlocked(null, DEFAULT_POLICY), false);
  });

  it('refuses to allow a floor category without force, and allows it with force', () => {
    const e = policyError(() => createPolicy({ allow: ['credential'] }));
    assert.equal(e.kind, 'floor_downgrade');
    const forced = createPolicy({ allow: ['credential'], force: true });
    assert.equal(isBlocked(tag('credential'), forced), false);
    assert.equal(isBlocked(tag('payment_card'), forced), true);
  });

  it('refuses a policy file that allows a floor category without force', () => {
    assert.equal(policyError(() => parsePolicyYaml('version: 1\nallow: [payment_card]\n')).kind, 'floor_downgrade');
    assert.equal(isBlocked(tag('payment_card'), parsePolicyYaml('version: 1\nallow: [payment_card]\nforce: true\n')), false);
  });

  it('adds the operator block list to the floor and lists only blocked categories', () => {
    const p = createPolicy({ block: ['health'] });
    assert.equal(isBlocked(tag('health'), p), true);
    assert.deepEqual(blockedCategories([tag('contact', 'health'), tag('credential'), null], p), ['health', 'credential']);
  });
});

describe('PII policy: files', () => {
  it('parses blocks, allows and per-column overrides', () => {
    const p = parsePolicyYaml(
      [
        'version: 1',
        'description: agents may not see contact data',
        'block: [contact, health]',
        'allow: [health]',
        'column_overrides:',
        '  public.users.nickname: none',
        '  crm:public.leads.notes: { categories: [contact], sensitivity: confidential }',
      ].join('\n'),
    );
    assert.equal(p.description, 'agents may not see contact data');
    assert.equal(isBlocked(tag('contact'), p), true);
    assert.equal(isBlocked(tag('health'), p), false);
    assert.deepEqual(findOverride(p, 'any', 'public', 'users', 'nickname'), { categories: [], sensitivity: 'public', force: false });
    assert.equal(findOverride(p, 'crm', 'public', 'leads', 'notes')?.sensitivity, 'confidential');
    assert.equal(findOverride(p, 'other', 'public', 'leads', 'notes'), null);
  });

  it('reports an unknown category as a typed error naming all 12 valid categories', () => {
    const e = policyError(() => parsePolicyYaml('version: 1\nblock: [contact, heath]\n'));
    assert.equal(e.kind, 'unknown_category');
    assert.equal(e.path, 'block[1]');
    for (const c of PII_CATEGORIES) assert.ok(e.message.includes(c), `message lists ${c}`);
    assert.equal(policyError(() => parseCategoryList('contact,credentials')).kind, 'unknown_category');
    assert.deepEqual(parseCategoryList(''), []);
  });

  it('rejects unknown keys, other versions, bad sensitivities and malformed YAML', () => {
    assert.equal(policyError(() => parsePolicyYaml('version: 1\nblocks: [contact]\n')).kind, 'unknown_key');
    assert.equal(policyError(() => parsePolicyYaml('version: 2\n')).kind, 'bad_version');
    assert.equal(policyError(() => parsePolicyYaml('version: 1\ncolumn_overrides:\n  public.t.c: { sensitivity: secret }\n')).kind, 'bad_value');
    assert.equal(policyError(() => parsePolicyYaml('version: 1\ncolumn_overrides:\n  public.t.c: { categories: [contact], level: pii }\n')).kind, 'unknown_key');
    assert.equal(policyError(() => parsePolicyYaml('version: 1\ncolumn_overrides:\n  just_a_column: none\n')).kind, 'bad_value');
    assert.equal(policyError(() => parsePolicyYaml('version: 1\nblock: [contact\n')).kind, 'yaml');
  });
});

describe('PII policy: operator overrides', () => {
  it('survive re-indexing: applied to a freshly classified tag they win over the classifier', () => {
    const p = parsePolicyYaml('version: 1\ncolumn_overrides:\n  public.customer.notes: { categories: [health], sensitivity: confidential }\n');
    // A fresh classification (as after a re-index) knows nothing of the override; applying it restores the operator's decision.
    const fresh = classifyColumn({ schema: 'public', table: 'customer', column: 'notes', dataType: 'text' });
    assert.equal(fresh, null);
    const applied = applyOverrides(fresh, findOverride(p, 'pagila', 'public', 'customer', 'notes'));
    assert.deepEqual(applied, { categories: ['health'], sensitivity: 'confidential', confidence: 1, signals: ['override:operator'], origin: 'override' });
    const again = applyOverrides(classifyColumn({ schema: 'public', table: 'customer', column: 'notes', dataType: 'text' }), findOverride(p, 'pagila', 'public', 'customer', 'notes'));
    assert.deepEqual(again, applied);
  });

  it('cannot remove floor categories found by the classifier unless forced', () => {
    const classified = classifyColumn({ schema: 'public', table: 'staff', column: 'password', dataType: 'text' });
    assert.deepEqual(classified?.categories, ['credential']);
    const kept = applyOverrides(classified, { categories: [], sensitivity: 'public', force: false });
    assert.deepEqual(kept?.categories, ['credential']);
    assert.equal(kept?.sensitivity, 'pii');
    assert.ok(kept?.signals.some((s) => s.startsWith('override:floor_kept')));
    assert.equal(isBlocked(kept, DEFAULT_POLICY), true);
    const forced = applyOverrides(classified, { categories: [], sensitivity: 'public', force: true });
    assert.deepEqual(forced?.categories, []);
    assert.equal(isBlocked(forced, DEFAULT_POLICY), false);
  });

  it('returns the classifier tag unchanged when there is no override', () => {
    const t = tag('contact');
    assert.equal(applyOverrides(t, null), t);
  });
});
