import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runIndex, type IndexProgress } from '../../../src/extension/indexing/run-index';

const ROOT = path.resolve(__dirname, '../../..');
const CLI = path.join(ROOT, 'dist/cli.js');
const CHINOOK = path.join(ROOT, 'samples', 'chinook.sqlite');

describe('extension indexer runner (real dist/cli.js)', function () {
  before(function () {
    if (!fs.existsSync(CLI)) this.skip();
  });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-ext-runindex-'));
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('reads JSON-lines progress and the result of an index run', async () => {
    const progress: IndexProgress[] = [];
    const out = await runIndex({
      nodePath: process.execPath, cliPath: CLI, name: 'chinook', source: CHINOOK, catalogPath: path.join(tmp, 'catalog.sqlite'),
      env: { SCHEMABRAIN_HOME: tmp }, onProgress: (p) => progress.push(p),
    });
    assert.equal(out.status, 'succeeded', JSON.stringify(out));
    assert.ok(out.status === 'succeeded' && out.result.tables === 11);
    assert.ok(progress.length > 0, 'progress lines seen');
  });

  it('reports a missing file as a failure with the indexer\'s kind, message and hint', async () => {
    const out = await runIndex({
      nodePath: process.execPath, cliPath: CLI, name: 'ghost', source: path.join(tmp, 'nope.sqlite'), catalogPath: path.join(tmp, 'catalog.sqlite'), env: { SCHEMABRAIN_HOME: tmp },
    });
    assert.equal(out.status, 'failed');
    assert.ok(out.status === 'failed' && out.message.includes('nope.sqlite') && out.kind.length > 0, JSON.stringify(out));
  });

  it('cancels on abort and leaves the catalog as it was', async () => {
    const catalog = path.join(tmp, 'catalog.sqlite');
    const before = fs.readFileSync(catalog);
    const abort = new AbortController();
    abort.abort();
    const out = await runIndex({
      nodePath: process.execPath, cliPath: CLI, name: 'chinook2', source: CHINOOK, catalogPath: catalog, env: { SCHEMABRAIN_HOME: tmp }, signal: abort.signal,
    });
    assert.equal(out.status, 'cancelled');
    assert.ok(fs.readFileSync(catalog).equals(before));
  });

  it('keeps a given password out of the failure it reports', async () => {
    // The password travels over the secret channel (the end-to-end proof against a scram-protected server is the
    // VS Code canary test); here the server is unreachable and the outcome must not echo the password.
    const out = await runIndex({
      nodePath: process.execPath, cliPath: CLI, name: 'pw', source: 'postgres://nobody@127.0.0.1:1/x', catalogPath: path.join(tmp, 'catalog.sqlite'),
      env: { SCHEMABRAIN_HOME: tmp }, password: 'canary-unit-123',
    });
    assert.equal(out.status, 'failed');
    assert.ok(out.status === 'failed' && !JSON.stringify(out).includes('canary-unit-123'), JSON.stringify(out));
    assert.ok(out.status === 'failed' && /127\.0\.0\.1:1|ECONNREFUSED|reach/i.test(out.message), JSON.stringify(out));
  });
});
