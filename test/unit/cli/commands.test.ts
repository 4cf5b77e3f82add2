import assert from 'node:assert/strict';
import { commands } from '../../../src/cli/commands';
import { findCommand } from '../../../src/cli/main';

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
