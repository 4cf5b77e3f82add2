import assert from 'node:assert/strict';
import { findFloorSecrets, firstFloorSecretAt, redactFloorSecrets } from '../../../src/core/pii/secrets';
import { keptSample } from '../../../src/core/sources/sample-text';

describe('floor secrets in free text: shapes beyond the plain ones', () => {
  const leaks: Array<[string, string]> = [
    ['zz postgres://admin:Pr0dPassw0rd!@prod-db.internal:5432/app', 'Pr0dPassw0rd!'],
    ['https://deploy:gh-Secret-77@git.example.com/repo.git', 'gh-Secret-77'],
    ['zz password=Pr0dPassw0rd!', 'Pr0dPassw0rd!'],
    ["config: api_key = 'q8Zr-77xYw'", 'q8Zr-77xYw'],
    ['client_secret: 9f8e7d6c5b4a', '9f8e7d6c5b4a'],
    ['Authorization: Bearer abcdefghijklmnop1234567890', 'abcdefghijklmnop1234567890'],
    ['key_sk_live_4eC39HqLyjWDarjtT1zdp7dc', 'sk_live_4eC39HqLyjWDarjtT1zdp7dc'],
    ['zzsk_live_4eC39HqLyjWDarjtT1zdp7dc', 'sk_live_4eC39HqLyjWDarjtT1zdp7dc'],
    ['zzAIzaSyA1234567890abcdefghijklmnopqrstuv', 'AIzaSyA1234567890abcdefghijklmnopqrstuv'],
    ['zz4111.1111.1111.1111', '4111.1111.1111.1111'],
    ['zz\uff14\uff11\uff11\uff11\uff11\uff11\uff11\uff11\uff11\uff11\uff11\uff11\uff11\uff11\uff11\uff11', '\uff14\uff11\uff11\uff11'],
    ['ITIN 987-65-4321 on file', '987-65-4321'],
    ['{"password": "hunter2secret_json", "email": "x@y.z"}', 'hunter2secret_json'],
    ['{"pw":"Zq9!tail"}', 'Zq9!tail'],
    ['"login"=>"bob", "password"=>"hunter2secret_h"', 'hunter2secret_h'],
    ['Authorization: Basic aGVsbG86d29ybGQ=', 'aGVsbG86d29ybGQ='],
  ];

  it('finds and removes each of them', () => {
    for (const [text, secret] of leaks) {
      assert.ok(findFloorSecrets(text).length > 0, text);
      assert.ok(!redactFloorSecrets(text).text.includes(secret), `${text} → ${redactFloorSecrets(text).text}`);
    }
  });

  it('leaves prose, dates, decimals, phone numbers and plain URLs alone', () => {
    for (const text of [
      'password: must be at least 12 characters',
      'Secret: the plan is to ship on Friday',
      'the api_key: abc',
      'task-assessment-of-the-northern-territories-2024',
      'order 2024-01-15 total 1234.56 and 4539578763621.486',
      'phone 555-123-4567',
      'see https://example.com/a:b@c and http://host:8080/x',
      'version 1.2.3.4.5.6.7.8.9.10.11.12.13',
      'SSN-like 912-34-5678 with a middle group no ITIN uses',
      'Basic training starts Monday, Basic English too',
      '{"password_policy": "strong", "pw_hint": "none"}',
    ]) {
      assert.equal(redactFloorSecrets(text).text, text, text);
    }
  });
});

describe('a sampled value as the indexer keeps it', () => {
  it('keeps the start of a value, or the stretch around a secret further in, never more than 200 characters', () => {
    const prose = 'The customer called about the delayed parcel and asked us to check again. '.repeat(4);
    assert.equal(keptSample('short note'), 'short note');
    assert.equal(keptSample(prose + 'no secret here'), (prose + 'no secret here').slice(0, 200));
    const late = keptSample(`${prose}card 4539578763621486 exp 04/29`);
    assert.ok(late.length <= 200);
    assert.match(late, /4539578763621486/);
    assert.ok(findFloorSecrets(late).length > 0);
    assert.equal(firstFloorSecretAt('nothing to see'), -1);
    assert.equal(firstFloorSecretAt('ssn 123-45-6789 and card 4539578763621486'), 4);
    const beyond = keptSample(`${'x'.repeat(5000)} 4539578763621486`);
    assert.doesNotMatch(beyond, /4539578763621486/, 'only the first 4096 characters are scanned');
  });
});
