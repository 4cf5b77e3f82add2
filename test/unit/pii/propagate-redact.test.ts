import assert from 'node:assert/strict';
import type { PiiTag } from '../../../src/core/catalog/model';
import { createPolicy, DEFAULT_POLICY, blockedCategories, isBlocked } from '../../../src/core/pii/policy';
import { isFailClosed, propagate, PROPAGATE_EMPTY_INPUT } from '../../../src/core/pii/propagate';
import { columnVisibility, redactColumns, scrubSqlLiterals, scrubText } from '../../../src/core/pii/redact';

const tag = (sensitivity: PiiTag['sensitivity'], ...categories: string[]): PiiTag => ({ categories, sensitivity, confidence: 0.7, signals: ['t'], origin: 'classifier' });

describe('PII propagation', () => {
  it('takes the maximum sensitivity and the union of categories in taxonomy order', () => {
    const p = propagate([tag('internal'), tag('pii', 'location'), null, tag('confidential', 'contact')]);
    assert.equal(p.sensitivity, 'pii');
    assert.deepEqual(p.categories, ['contact', 'location']);
  });

  it('returns public with no categories when every input is untagged', () => {
    const p = propagate([null, null]);
    assert.equal(p.sensitivity, 'public');
    assert.deepEqual(p.categories, []);
    assert.equal(isBlocked(p, DEFAULT_POLICY), false);
  });

  it('fails closed on empty input: the sentinel is blocked under every policy, even a forced allow-all', () => {
    const p = propagate([]);
    assert.equal(p, PROPAGATE_EMPTY_INPUT);
    assert.equal(isFailClosed(p), true);
    assert.equal(isBlocked(p, DEFAULT_POLICY), true);
    const allowAll = createPolicy({ allow: ['credential', 'payment_card', 'government_id'], force: true });
    assert.equal(isBlocked(p, allowAll), true);
    assert.deepEqual(blockedCategories([p], allowAll), ['payment_card', 'credential', 'government_id']);
    // And anything derived from it stays fail-closed.
    assert.equal(isBlocked(propagate([p, null]), allowAll), true);
  });
});

describe('PII redaction', () => {
  it('redacts blocked columns with stable per-category placeholder names', () => {
    const policy = createPolicy({ block: ['contact'] });
    const out = redactColumns(
      [
        { name: 'id', pii: null },
        { name: 'email', pii: tag('pii', 'contact') },
        { name: 'password', pii: tag('pii', 'credential') },
        { name: 'phone', pii: tag('pii', 'contact') },
        { name: 'birth_date', pii: tag('pii', 'demographic_protected') },
      ],
      policy,
    );
    assert.deepEqual(
      out.map((c) => c.displayName),
      ['id', '<redacted_contact_column_1>', '<redacted_credential_column_1>', '<redacted_contact_column_2>', 'birth_date'],
    );
    assert.equal(columnVisibility(tag('pii', 'credential'), DEFAULT_POLICY), 'redacted');
    assert.equal(columnVisibility(tag('pii', 'contact'), DEFAULT_POLICY), 'visible');
  });

  it('scrubs literals compared with blocked columns from example SQL', () => {
    const sql = `SELECT c.first_name FROM customer c WHERE c.email = 'mary.smith@example.com' AND "SSN" IN ('123-45-6789', '234-56-7890') AND store_id = 1 AND 'x@y.io' = email AND card_no BETWEEN '4000' AND '4999'`;
    const out = scrubSqlLiterals(sql, ['email', 'SSN', 'card_no']);
    assert.ok(!out.includes('mary.smith'));
    assert.ok(!out.includes('123-45-6789') && !out.includes('234-56-7890'));
    assert.ok(!out.includes('x@y.io'));
    assert.ok(!out.includes("'4000'"));
    assert.ok(out.includes('store_id = 1'), 'literals of visible columns stay');
    assert.ok(out.includes("c.email = '<redacted>'"));
  });

  it('scrubs known values and catastrophic value shapes from free text', () => {
    const text = 'Customer Mary (card 4111 1111 1111 1111, ssn 123-45-6789, iban DE89 3704 0044 0532 0130 00) wrote from mary@example.com; order 12345.';
    const out = scrubText(text, { knownValues: ['Mary'] });
    for (const leaked of ['Mary', '4111 1111 1111 1111', '123-45-6789', 'DE89 3704', 'mary@example.com']) assert.ok(!out.includes(leaked), `leaked ${leaked}: ${out}`);
    assert.ok(out.includes('order 12345'));
  });
});
