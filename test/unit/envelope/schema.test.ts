import assert from 'node:assert/strict';
import {
  CHARTER_VERSION,
  ERROR_KINDS,
  EnvelopeSchema,
  deriveConfidence,
  confidenceFromScore,
  degraded,
  empty,
  failure,
  fuzzyMatches,
  partial,
  success,
} from '../../../src/core/envelope';

describe('charter envelope', () => {
  it('declares the closed 26-kind registry of seed 001 plus the three v1.3 retryable kinds, invalid_argument included', () => {
    assert.equal(ERROR_KINDS.length, 29);
    assert.equal(new Set(ERROR_KINDS).size, 29);
    assert.ok(ERROR_KINDS.includes('rate_limited'));
    assert.ok(ERROR_KINDS.includes('audit_unavailable'));
    assert.ok(ERROR_KINDS.includes('unreachable'));
    assert.ok(ERROR_KINDS.includes('invalid_argument'));
    assert.ok(ERROR_KINDS.includes('ambiguous_time_dimension'));
  });

  it('builders produce envelopes that validate', () => {
    for (const env of [
      success({ a: 1 }, { confidence: 'HIGH', hints: ['describe_table'] }),
      empty([]),
      partial({ rows: [], truncated: true }),
      degraded({ rows: [] }, 'fan_out_join'),
      failure('unknown_name', "Table 'x' not found", { recovery: { suggested_tool: 'find_relevant_tables', fuzzy_matches: ['y'] } }),
      failure('pii_blocked', 'blocked', { piiCategories: ['credential'], recovery: { suggested_rewrite: { rewritten: 'select count(*)', reason: 'aggregate' } } }),
    ]) {
      const r = EnvelopeSchema.safeParse(env);
      assert.ok(r.success, JSON.stringify(r.error?.issues));
      assert.equal(env.charter_version, CHARTER_VERSION);
    }
  });

  it('refusal kinds get status refused and other kinds status error', () => {
    assert.equal(failure('policy_blocked', 'no').status, 'refused');
    assert.equal(failure('internal_error', 'bug').status, 'error');
  });

  it('rejects envelopes that break an invariant', () => {
    const bad = [
      { ...success({}), error: { kind: 'unknown_name', message: 'x', recovery: {} } },
      { ...failure('unknown_name', 'x'), data: { leaked: true } },
      { ...success(null) },
      { ...success({}), degradation_reason: 'fan_out_join' },
      { ...degraded({}, 'fan_out_join'), degradation_reason: null },
      { ...failure('unknown_name', 'x'), status: 'refused' },
      { ...failure('pii_blocked', 'x'), status: 'error' },
      failure('unknown_name', 'x', { recovery: { widening_hint: { scope_requested: 's', would_unblock: true, reason: 'r' } } }),
      { ...success({}), status: 'ok' },
      { ...success({}), extra: 1 },
    ];
    for (const env of bad) assert.equal(EnvelopeSchema.safeParse(env).success, false, JSON.stringify(env));
  });

  it('derives confidence from the 2-D trust signal', () => {
    assert.equal(deriveConfidence('llm_suggested', 'confirmed'), 'HIGH');
    assert.equal(deriveConfidence('fk_constraint', 'applied'), 'HIGH');
    assert.equal(deriveConfidence('observed_in_query_log', 'applied'), 'MEDIUM');
    assert.equal(deriveConfidence('manually_authored', 'draft'), 'MEDIUM');
    assert.equal(deriveConfidence('llm_suggested', 'draft'), 'LOW');
    assert.equal(confidenceFromScore(0.8), 'HIGH');
    assert.equal(confidenceFromScore(0.79), 'MEDIUM');
    assert.equal(confidenceFromScore(0.49), 'LOW');
  });

  it('suggests close names for a misspelt table', () => {
    const names = ['public.users', 'public.user_profiles', 'auth.users', 'public.orders', 'public.invoice_line'];
    const m = fuzzyMatches('public.user', names);
    assert.ok(m.includes('public.users'));
    assert.ok(!m.includes('public.invoice_line'));
    assert.deepEqual(fuzzyMatches('zzzz', names), []);
  });
});
