import assert from 'node:assert/strict';
import { commands } from '../../../src/cli/commands';
import { findCommand } from '../../../src/cli/main';
import { parseServerOptions, ServerOptionsError } from '../../../src/server/options';

describe('CLI verb list', () => {
  it('names and summarises each verb exactly as its module does', () => {
    for (const entry of commands) {
      const command = entry.load();
      assert.equal(command.name, entry.name);
      assert.equal(command.summary, entry.summary, `summary of ${entry.name}`);
      assert.ok(command.usage.length > 0);
    }
  });

  it('matches the longest verb first', () => {
    assert.equal(findCommand(['audit', 'verify', '--full'])?.entry.name, 'audit verify');
    assert.deepEqual(findCommand(['audit', 'verify', '--full'])?.rest, ['--full']);
    assert.equal(findCommand(['audit']), null);
  });
});

describe('serve options', () => {
  it('refuses --audit-path with --no-audit, in either order, and takes each alone', () => {
    for (const argv of [
      ['--audit-path', 'a.log', '--no-audit'],
      ['--no-audit', '--audit-path', 'a.log'],
    ]) {
      assert.throws(() => parseServerOptions(argv, {}), (e: unknown) => e instanceof ServerOptionsError && /contradict/.test(e.message));
    }
    assert.equal(parseServerOptions(['--no-audit'], {}).noAudit, true);
    assert.match(parseServerOptions(['--audit-path', 'a.log'], {}).auditPath ?? '', /a\.log$/);
    // The path from the environment is a default, not a second choice: --no-audit still turns auditing off.
    assert.equal(parseServerOptions(['--no-audit'], { SCHEMABRAIN_AUDIT_PATH: 'b.log' }).noAudit, true);
  });
});
