import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import {
  SECRET_CHANNEL_ENV,
  SECRET_TOKEN_ENV,
  SecretChannelError,
  createSecretChannel,
  fetchSecretsFromChannel,
} from '../../../src/core/secrets';

describe('secret channel', () => {
  it('hands the child exactly the secrets it was created with', async () => {
    const ch = await createSecretChannel(new Map([['prod', 'p@ss w0rd'], ['dev', 'x']]));
    const got = await fetchSecretsFromChannel({ ...ch.env });
    assert.deepEqual([...got.entries()].sort(), [['dev', 'x'], ['prod', 'p@ss w0rd']]);
    await ch.closed;
  });

  it('exposes only the socket path and a token in the child env, never a password', async () => {
    const ch = await createSecretChannel(new Map([['prod', 'canary-secret-123']]));
    assert.deepEqual(Object.keys(ch.env).sort(), [SECRET_CHANNEL_ENV, SECRET_TOKEN_ENV].sort());
    assert.ok(!JSON.stringify(ch.env).includes('canary-secret-123'));
    ch.dispose();
    await ch.closed;
  });

  it('creates its socket in a directory only the owner can enter', async () => {
    const ch = await createSecretChannel(new Map([['a', 'b']]));
    const mode = fs.statSync(path.dirname(ch.path)).mode & 0o777;
    assert.equal(mode, 0o700);
    ch.dispose();
    await ch.closed;
    assert.equal(fs.existsSync(path.dirname(ch.path)), false, 'directory removed after close');
  });

  it('refuses a second fetch with the same token after the first succeeded', async () => {
    const ch = await createSecretChannel(new Map([['a', 'b']]));
    const env = { ...ch.env };
    await fetchSecretsFromChannel(env);
    await assert.rejects(fetchSecretsFromChannel(env), SecretChannelError);
  });

  it('rejects a wrong token without revealing anything and stays usable for the right one', async () => {
    const ch = await createSecretChannel(new Map([['a', 'secret-b']]));
    const reply = await new Promise<string>((resolve) => {
      const s = net.createConnection(ch.path, () => s.write(JSON.stringify({ v: 1, token: 'f'.repeat(64) }) + '\n'));
      let buf = '';
      s.setEncoding('utf8');
      s.on('data', (d: string) => (buf += d));
      s.on('close', () => resolve(buf));
    });
    assert.match(reply, /token rejected/);
    assert.ok(!reply.includes('secret-b'));
    const got = await fetchSecretsFromChannel({ ...ch.env });
    assert.equal(got.get('a'), 'secret-b');
  });

  it('serves several fetches when created for several uses', async () => {
    const ch = await createSecretChannel(new Map([['a', 'b']]), { maxUses: 2 });
    await fetchSecretsFromChannel({ ...ch.env });
    await fetchSecretsFromChannel({ ...ch.env });
    assert.equal(ch.uses(), 2);
    await ch.closed;
  });

  it('returns an empty map when no channel is configured', async () => {
    const got = await fetchSecretsFromChannel({});
    assert.equal(got.size, 0);
  });

  it('reports an unreachable channel with a next step', async () => {
    await assert.rejects(
      fetchSecretsFromChannel({ [SECRET_CHANNEL_ENV]: '/nonexistent/sb.sock', [SECRET_TOKEN_ENV]: 'x' }),
      /unreachable .*restart the server/,
    );
  });

  it('closes itself after its time to live', async () => {
    const ch = await createSecretChannel(new Map([['a', 'b']]), { ttlMs: 1000 });
    await ch.closed;
    await assert.rejects(fetchSecretsFromChannel({ ...ch.env }), SecretChannelError);
  });
});
