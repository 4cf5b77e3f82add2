import assert from 'node:assert/strict';
import { findFloorSecrets, redactFloorSecrets } from '../../../src/core/pii/secrets';

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
    ]) {
      assert.equal(redactFloorSecrets(text).text, text, text);
    }
  });
});
