import assert from 'node:assert/strict';
import { lintDescription } from '../../src/server/charter-lint';
import { allTools } from '../../src/server/tools';

describe('charter description lint', () => {
  const names = allTools.map((t) => t.name);

  for (const tool of allTools) {
    it(`${tool.name} has a charter-conformant description`, () => {
      assert.deepEqual(lintDescription(tool.name, tool.description, names), []);
    });
  }

  it('flags each rule on a description that breaks it', () => {
    const bad = lintDescription('describe_table', 'Returns information about a table. '.repeat(20), names);
    assert.deepEqual(bad.map((f) => f.rule).sort(), ['composition', 'instead_when', 'max_length', 'use_this_when']);
  });

  it('names tools in snake_case, verb first, and every input field is described', () => {
    for (const tool of allTools) {
      assert.match(tool.name, /^[a-z]+(_[a-z]+)+$/);
      for (const [field, schema] of Object.entries(tool.input.shape)) {
        assert.ok((schema as { description?: string }).description, `${tool.name}.${field} has no description`);
      }
    }
  });
});
