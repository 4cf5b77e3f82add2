import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Pool } from 'pg';
import { ensureBuilt } from '../../support/build';
import { call, connectClient, freshTeamDb, startReplica, type Replica, type TeamDb } from './support';

const AUDIENCE = 'https://schemabrain.test/mcp';

describe('team server: OAuth 2.1 resource-server mode (JWT access tokens)', function () {
  this.timeout(120_000);
  let db: TeamDb | null = null;
  let pool: Pool;
  let replica: Replica;
  let issuerServer: http.Server;
  let issuer = '';
  let sign: (claims: Record<string, unknown>, opts?: { audience?: string; expiresIn?: string | number | null; foreignKey?: boolean }) => Promise<string>;

  before(async function () {
    db = await freshTeamDb(this, 'sb_team_oauth');
    if (!db) return;
    ensureBuilt();
    pool = db.pool();
    const jose = await import('jose');
    const { privateKey, publicKey } = await jose.generateKeyPair('RS256');
    const other = await jose.generateKeyPair('RS256');
    const jwk = { ...(await jose.exportJWK(publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
    issuerServer = http.createServer((req, res) => {
      if (req.url === '/.well-known/oauth-authorization-server') res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ issuer, jwks_uri: `${issuer}/jwks` }));
      else if (req.url === '/jwks') res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] }));
      else res.writeHead(404).end();
    });
    await new Promise<void>((r) => issuerServer.listen(0, '127.0.0.1', () => r()));
    issuer = `http://127.0.0.1:${(issuerServer.address() as AddressInfo).port}`;
    sign = (claims, opts = {}) => {
      const jwt = new jose.SignJWT(claims)
        .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
        .setIssuer(issuer)
        .setAudience(opts.audience ?? AUDIENCE)
        .setIssuedAt();
      if (opts.expiresIn !== null) jwt.setExpirationTime(opts.expiresIn ?? '5m');
      return jwt.sign(opts.foreignKey ? other.privateKey : privateKey);
    };
    replica = await startReplica(db, { args: ['--oauth-issuer', issuer, '--oauth-audience', AUDIENCE] });
  });
  after(async () => {
    replica?.child.kill('SIGKILL');
    issuerServer?.close();
    await db?.drop();
  });

  const status = async (token: string) => {
    const r = await fetch(replica.mcpUrl, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' });
    await r.text();
    return { code: r.status, challenge: r.headers.get('www-authenticate') ?? '' };
  };

  it('names the issuer in its protected resource metadata', async () => {
    const meta = (await (await fetch(`${replica.base}/.well-known/oauth-protected-resource`)).json()) as { authorization_servers: string[] };
    assert.deepEqual(meta.authorization_servers, [issuer]);
  });

  it('names itself by its configured audience, not by a request Host header', async () => {
    const u = new URL(replica.base);
    const raw = (path: string, method: string): Promise<{ headers: http.IncomingHttpHeaders; body: string }> =>
      new Promise((resolve, reject) => {
        const req = http.request({ host: u.hostname, port: u.port, path, method, headers: { host: 'evil.example', 'content-type': 'application/json' } }, (res) => {
          let body = '';
          res.on('data', (d: Buffer) => (body += d.toString()));
          res.on('end', () => resolve({ headers: res.headers, body }));
        });
        req.on('error', reject);
        req.end(method === 'POST' ? '{}' : undefined);
      });
    const doc = JSON.parse((await raw('/.well-known/oauth-protected-resource', 'GET')).body) as { resource: string };
    assert.equal(doc.resource, AUDIENCE);
    const challenge = String((await raw('/mcp', 'POST')).headers['www-authenticate'] ?? '');
    assert.match(challenge, /resource_metadata="https:\/\/schemabrain\.test\/\.well-known\/oauth-protected-resource"/);
    assert.doesNotMatch(challenge, /evil/);
  });

  it('accepts a JWT from the issuer for this audience; the scope decides the role and the audit row names sub and jti', async () => {
    const analyst = await connectClient(replica.mcpUrl, await sign({ sub: 'frank', jti: 'j-analyst', scope: 'openid schemabrain:analyst' }));
    const env = await call(analyst, 'run_query', { sql: 'SELECT 1', source: 'chinook' });
    assert.notEqual(env.error?.kind, 'policy_blocked');
    await analyst.close();
    const viewer = await connectClient(replica.mcpUrl, await sign({ sub: 'gina', jti: 'j-viewer', scope: 'schemabrain:catalog' }));
    const refused = await call(viewer, 'run_query', { sql: 'SELECT 1', source: 'chinook' });
    assert.equal(refused.status, 'refused');
    assert.equal(refused.error?.kind, 'policy_blocked');
    await viewer.close();
    const rows = (await pool.query<{ principal: string; status: string }>("SELECT principal, status FROM schemabrain.audit WHERE tool = 'run_query' ORDER BY seq")).rows;
    assert.deepEqual(rows.map((r) => r.principal), ['frank/jwt:j-analyst', 'gina/jwt:j-viewer']);
    assert.equal(rows[1]!.status, 'refused');
  });

  it('refuses a token without exp, and one whose source claim is not a list of names (never read as every source)', async () => {
    assert.equal((await status(await sign({ sub: 'h', scope: 'schemabrain:analyst' }, { expiresIn: null }))).code, 401);
    for (const claim of ['chinook', 'chinook,other', 5, { a: 1 }, [['chinook']], [1]]) {
      const r = await status(await sign({ sub: 'h', scope: 'schemabrain:analyst', schemabrain_sources: claim }));
      assert.equal(r.code, 401, JSON.stringify(claim));
      assert.match(r.challenge, /invalid_token/);
    }
    // A well-formed claim passes authentication (the bare tools/list then wants a session: 400).
    assert.equal((await status(await sign({ sub: 'h', scope: 'schemabrain:analyst', schemabrain_sources: ['chinook'] }))).code, 400);
  });

  it('refuses a token for another audience, an expired one, one signed by another key and a malformed one with 401 invalid_token', async () => {
    const wrongAud = await status(await sign({ sub: 'h', scope: 'schemabrain:admin' }, { audience: 'https://other.example/mcp' }));
    assert.equal(wrongAud.code, 401);
    assert.match(wrongAud.challenge, /error="invalid_token", error_description="the access token was issued for another audience"/);
    const expired = await status(await sign({ sub: 'h', scope: 'schemabrain:admin' }, { expiresIn: Math.floor(Date.now() / 1000) - 60 }));
    assert.equal(expired.code, 401);
    assert.match(expired.challenge, /has expired/);
    const forged = await status(await sign({ sub: 'h', scope: 'schemabrain:admin' }, { foreignKey: true }));
    assert.equal(forged.code, 401);
    assert.match(forged.challenge, /not valid for this server/);
    const malformed = await status('abc.def');
    assert.equal(malformed.code, 401);
    assert.match(malformed.challenge, /malformed/);
  });
});
