import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { renderReadme } from '../../scripts/readme-tools';

describe('README', () => {
  it('lists exactly the registered MCP tools (regenerate with npx tsx scripts/readme-tools.ts)', () => {
    const readme = fs.readFileSync(path.join(__dirname, '..', '..', 'README.md'), 'utf8');
    assert.equal(readme, renderReadme(readme));
  });

  it('gives the two set-up commands that CI and users run', () => {
    const readme = fs.readFileSync(path.join(__dirname, '..', '..', 'README.md'), 'utf8');
    assert.match(readme, /npm install && npm run demo/);
    assert.match(readme, /npm test/);
    const ci = fs.readFileSync(path.join(__dirname, '..', '..', '.ci', 'run'), 'utf8');
    assert.match(ci, /^npm test$/m);
  });
});
