import assert from 'node:assert/strict';
import { runAs, type Principal } from '../../../src/core/store/principal';
import { createAccessControl, createRateLimiter, roleAllows } from '../../../src/server/team/access';
import { roleFromScope } from '../../../src/server/team/jwt';
import { createPolicy } from '../../../src/core/pii/policy';
import { parseRoleBlocks } from '../../../src/core/store/team-state';
import { TeamPiiPolicy } from '../../../src/server/team/team-pii';

describe('team access decisions (no server)', () => {
  it('a token bucket per principal: the burst, then one call per 1/rate seconds, each principal on its own', () => {
    let now = 0;
    const rl = createRateLimiter(4, 8, () => now);
    for (let i = 0; i < 8; i++) assert.equal(rl.take('a'), 0, `call ${i}`);
    assert.equal(rl.take('a'), 250);
    assert.equal(rl.take('b'), 0);
    now += 250;
    assert.equal(rl.take('a'), 0);
    assert.ok(rl.take('a') > 0);
    assert.equal(createRateLimiter(0).take('a'), 0, '0 turns the limit off');
  });

  it('roles: catalog may not read data; analyst and admin may; the scope claim picks the highest role', () => {
    assert.equal(roleAllows('catalog', 'run_query'), false);
    assert.equal(roleAllows('catalog', 'describe_table'), true);
    assert.equal(roleAllows('analyst', 'profile_table'), true);
    assert.equal(roleFromScope('openid schemabrain:analyst schemabrain:catalog'), 'analyst');
    assert.equal(roleFromScope('schemabrain:admin'), 'admin');
    assert.equal(roleFromScope('schemabrain:root email'), 'catalog');
    assert.equal(roleFromScope(undefined), 'catalog');
  });

  it('checks only calls made as a principal; refusals are typed envelopes', () => {
    const refusals: string[] = [];
    const ac = createAccessControl({ limiter: createRateLimiter(0), onRefusal: (r) => refusals.push(r) });
    assert.equal(ac.check('run_query', { sql: 'SELECT 1' }), null, 'stdio and in-process calls carry no principal');
    const scoped: Principal = { name: 'carol', tokenId: 'c'.repeat(12), role: 'catalog', sources: ['sales'] };
    const role = runAs(scoped, () => ac.check('get_metric', { name: 'revenue' }));
    assert.equal(role?.status, 'refused');
    assert.equal(role?.error?.kind, 'policy_blocked');
    const source = runAs(scoped, () => ac.check('describe_table', { qualified_name: 'public.t', source: 'hr' }));
    assert.equal(source?.error?.kind, 'policy_blocked');
    assert.equal(runAs(scoped, () => ac.check('describe_table', { qualified_name: 'public.t', source: 'sales' })), null);
    assert.equal(runAs({ ...scoped, role: 'admin' }, () => ac.check('describe_table', { qualified_name: 'public.t', source: 'hr' })), null, 'admins see every source');
    assert.deepEqual(refusals, ['role', 'source']);
    const limited = createAccessControl({ limiter: createRateLimiter(1, 1) });
    assert.equal(runAs(scoped, () => limited.check('describe_table', {})), null);
    const env = runAs(scoped, () => limited.check('describe_table', {}));
    assert.equal(env?.status, 'error');
    assert.equal(env?.error?.kind, 'rate_limited');
  });
});

describe('team PII policy per role (no server)', () => {
  const contactTag = { categories: ['contact'], sensitivity: 'pii' as const, confidence: 0.9, signals: [], origin: 'classifier' as const };
  const who = (role: 'catalog' | 'analyst' | 'admin') => ({ name: role, tokenId: 'id', role, sources: null });

  it('parses ROLE=CATEGORY lists and names the valid values on a mistake', () => {
    assert.deepEqual(parseRoleBlocks(['catalog=contact,financial', 'catalog=health']), { catalog: ['contact', 'financial', 'health'] });
    assert.throws(() => parseRoleBlocks(['reader=contact']), /unknown role 'reader'; roles are catalog, analyst, admin/);
    assert.throws(() => parseRoleBlocks(['catalog=contacts']), /unknown PII category 'contacts'; valid categories are: /);
    assert.throws(() => parseRoleBlocks(['catalog']), /ROLE=CATEGORY/);
  });

  it('a role block denies the category to that role only, wins over the allow list, and gives the role views of its own', () => {
    const pii = new TeamPiiPolicy(createPolicy({ allow: ['contact'] }));
    const gate = pii.gate();
    assert.deepEqual(runAs(who('catalog'), () => gate.blockedCategories(contactTag)), []);
    pii.load({ id: 3, body: 'version: 1\nallow: [contact]\n', roleBlock: { catalog: ['contact'] }, publishedBy: 't', publishedAt: new Date() });
    assert.deepEqual(runAs(who('catalog'), () => gate.blockedCategories(contactTag)), ['contact']);
    assert.deepEqual(runAs(who('analyst'), () => gate.blockedCategories(contactTag)), []);
    assert.deepEqual(gate.blockedCategories(contactTag), [], 'no principal: the shared policy');
    assert.notEqual(pii.viewKey('catalog'), pii.viewKey('analyst'));
    assert.equal(pii.viewKey('analyst'), pii.viewKey('admin'));
    pii.load(null);
    assert.equal(pii.viewKey('catalog'), '');
  });
});
