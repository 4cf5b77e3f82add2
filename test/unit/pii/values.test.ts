import assert from 'node:assert/strict';
import { isCardNumber, isCpf, isDniNie, isEmail, isIban, isNino, isPhone, isSsn, luhnValid, scanSamples } from '../../../src/core/pii/values';

describe('PII value validators', () => {
  it('checks Luhn digits', () => {
    assert.equal(luhnValid('79927398713'), true);
    assert.equal(luhnValid('79927398710'), false);
  });

  it('accepts card numbers with a network prefix and a valid Luhn digit only', () => {
    assert.equal(isCardNumber('4111 1111 1111 1111'), true);
    assert.equal(isCardNumber('378282246310005'), true);
    assert.equal(isCardNumber('4111 1111 1111 1112'), false, 'Luhn fails');
    assert.equal(isCardNumber('9783161484100'), false, 'ISBN-13');
    assert.equal(isCardNumber('0000000000000000'), false);
  });

  it('validates IBAN mod-97 check digits and country lengths', () => {
    assert.equal(isIban('DE89 3704 0044 0532 0130 00'), true);
    assert.equal(isIban('GB82WEST12345698765432'), true);
    assert.equal(isIban('DE00370400440532013000'), false);
    assert.equal(isIban('DE8937040044053201300'), false, 'wrong length for DE');
  });

  it('applies SSA rules to SSNs', () => {
    assert.equal(isSsn('123-45-6789'), true);
    assert.equal(isSsn('000-12-3456'), false);
    assert.equal(isSsn('666-12-3456'), false);
    assert.equal(isSsn('912-34-5678'), false);
    assert.equal(isSsn('123-00-4567'), false);
    assert.equal(isSsn('123456789'), false, 'bare digits are not evidence by default');
    assert.equal(isSsn('123456789', false), true);
  });

  it('validates UK NINOs, Brazilian CPFs and Spanish DNI/NIE check letters', () => {
    assert.equal(isNino('AB 12 34 56 C'), true);
    assert.equal(isNino('BG 12 34 56 C'), false);
    assert.equal(isCpf('529.982.247-25'), true);
    assert.equal(isCpf('529.982.247-24'), false);
    assert.equal(isDniNie('12345678Z'), true);
    assert.equal(isDniNie('12345678A'), false);
    assert.equal(isDniNie('X1234567L'), true);
  });

  it('recognises e-mails and phone formats but not dates or decimals', () => {
    assert.equal(isEmail('anna.smith@example.com'), true);
    assert.equal(isEmail('not an email'), false);
    assert.equal(isPhone('+14155550134'), true);
    assert.equal(isPhone('(415) 555-0134'), true);
    assert.equal(isPhone('020 7946 0958'), true);
    assert.equal(isPhone('2024-05-01'), false);
    assert.equal(isPhone('12.3456'), false);
  });

  it('requires a strict majority of non-empty samples before reporting evidence', () => {
    assert.deepEqual(scanSamples(['a@example.com', '', 'b@example.com', 'x']).map((e) => e.detector), ['email']);
    assert.deepEqual(scanSamples(['a@example.com', 'x', 'y', 'z']), []);
  });
});
