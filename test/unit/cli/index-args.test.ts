import assert from 'node:assert/strict';
import path from 'node:path';
import { parseArgs, UsageError } from '../../../src/cli/args';
import { parseIndexArgs } from '../../../src/cli/commands/index-common';
import { classifyColumn } from '../../../src/core/pii';
import { runIndex } from '../../../src/core/indexing/run-index';
import { createIntrospector, parseSourceSpec } from '../../../src/core/sources';
import { CHINOOK_SQLITE, tempDir } from '../../support/server-harness';

describe('CLI options given twice, and source names', () => {
  it('refuses an option given twice with two values, and takes it twice with the same one', () => {
    assert.throws(() => parseArgs(['--name', 'a', '--name', 'b'], { name: 'string' }), (e: Error) => e instanceof UsageError && /--name is given twice/.test(e.message));
    assert.throws(() => parseArgs(['--source=a', '--source', 'b'], { source: 'string' }), UsageError);
    assert.equal(parseArgs(['--name', 'a', '--name=a'], { name: 'string' }).flags.name, 'a');
  });

  it('refuses an empty, long or odd --name with a usage error, and takes plain ones', () => {
    for (const bad of ['', 'x'.repeat(65), 'a\u0001b/../..', 'has space', 'ümlaut']) {
      assert.throws(() => parseIndexArgs(['--source', CHINOOK_SQLITE, '--name', bad], {}), (e: Error) => e instanceof UsageError && /--name must be/.test(e.message), JSON.stringify(bad));
    }
    for (const good of ['chinook', 'shop-prod.eu_1', 'A']) assert.equal(parseIndexArgs(['--source', CHINOOK_SQLITE, '--name', good], {}).spec.name, good);
  });

  it('says when a database indexed under one name is indexed under another: one source, renamed', async function () {
    this.timeout(60_000);
    const catalogPath = path.join(tempDir('sb-rename-'), 'catalog.sqlite');
    const index = (name: string) => runIndex({ spec: parseSourceSpec(CHINOOK_SQLITE, { name }), sourceInput: CHINOOK_SQLITE, catalogPath, deps: { createIntrospector, classifyColumn } });
    assert.equal((await index('x')).renamedFrom, undefined);
    const renamed = await index('y');
    assert.equal(renamed.renamedFrom, 'x');
    assert.notEqual(renamed.mode, 'unchanged', 'the catalog changed: the source has a new name');
    const again = await index('y');
    assert.equal(again.renamedFrom, undefined);
    assert.equal(again.mode, 'unchanged');
  });
});
