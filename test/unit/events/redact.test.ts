import assert from 'node:assert/strict';
import { redactArgs, redactString } from '../../../src/core/events/redact';

describe('event redaction inside longer strings', () => {
  it('cuts an e-mail address out of a sentence', () => {
    assert.equal(redactString('please send it to jane.doe@example.org by Friday'), 'please send it to <email> by Friday');
  });

  it('replaces every string literal of SQL-shaped text, keeping the query readable', () => {
    assert.equal(
      redactString("SELECT id FROM customers WHERE email = 'jane@example.org' AND name = 'O''Brien' AND note = $$secret$$"),
      "SELECT id FROM customers WHERE email = '<value>' AND name = '<value>' AND note = '<value>'",
    );
    assert.equal(redactString("it's fine, isn't it"), "it's fine, isn't it", 'apostrophes in prose are not SQL literals');
  });

  it('replaces literals and comments of every SQL shape: no FROM, VALUES, prefixes, dollar quotes, left open', () => {
    const secret = 'S3cr3t-Zebra-991';
    const shapes = [
      `select '${secret}'`,
      `select '${secret}'::text as x limit 1`,
      `select case when true then '${secret}' end`,
      `values ('${secret}')`,
      `  (select concat('${secret}', 'x'))`,
      `select 1 -- ${secret}`,
      `select 1 /* ${secret} */`,
      `/* note */ select E'${secret}'`,
      `select U&'${secret}', N'${secret}', X'${secret}'`,
      `select $q$${secret}$q$`,
      `select '${secret}`,
      `select $$${secret}`,
      `SELECT id FROM t WHERE a = 'x' -- ${secret}`,
    ];
    for (const q of shapes) assert.ok(!redactString(q).includes(secret), `${q} → ${redactString(q)}`);
    assert.equal(redactString("select 'it''s -- not a comment', 1 -- a comment"), "select '<value>', 1 -- <comment>");
    assert.equal(redactString('select count(*) from t'), 'select count(*) from t');
  });

  it('removes API keys, tokens and card numbers embedded in a query or a message', () => {
    const out = redactString('call with key sk_live_abcdefghijklmnop1234 and card 4111 1111 1111 1111 please');
    assert.doesNotMatch(out, /sk_live_abcdefghijklmnop1234|4111 1111 1111 1111/);
    assert.match(out, /^call with key <redacted:[a-z_]+> and card <redacted:[a-z_]+> please$/);
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U';
    assert.match(redactString(`Authorization: Bearer ${jwt}`), /^Authorization: Bearer <redacted:[a-z_]+>$/);
  });

  it('cuts a connection URL out of a longer string', () => {
    assert.equal(redactString('could not reach postgres://app:hunter2@db.internal:5432/prod today'), 'could not reach <redacted-connection-url> today');
  });

  it('applies inside nested tool arguments, and leaves ordinary text alone', () => {
    assert.deepEqual(redactArgs({ sql: "select * from t where ssn = '078-05-1120'", query: 'revenue by month', limit: 5 }), {
      sql: "select * from t where ssn = '<value>'",
      query: 'revenue by month',
      limit: 5,
    });
  });
});
