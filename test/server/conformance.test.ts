import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { DIST_CLI, ROOT, ensureBuilt } from '../support/build';
import { CHINOOK_SQLITE, tempDir } from '../support/server-harness';
import { serveHttp, type HttpServerProcess } from '../support/serve-http';

const SUITE = path.join(ROOT, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const NODE20_SHIM = path.join(ROOT, 'test', 'support', 'conformance-node20.mjs');
const EXPECTED = path.join(__dirname, 'conformance-expected-failures.yml');

/** Scenarios the issue names as must-pass, checked one by one in the suite's own results. */
const MUST_PASS = ['server-initialize', 'ping', 'tools-list', 'tools-call-simple-text', 'tools-call-error', 'logging-set-level', 'completion-complete', 'resources-list', 'prompts-list', 'dns-rebinding-protection', 'server-sse-multiple-streams'];

describe('the official MCP conformance suite against schemabrain serve --http', function () {
  this.timeout(180_000);
  let server: HttpServerProcess | undefined;
  let dir: string;

  before(async () => {
    ensureBuilt();
    dir = tempDir('sb-conformance-');
    const catalog = path.join(dir, 'catalog.sqlite');
    const idx = spawnSync(process.execPath, [DIST_CLI, 'index', '--source', CHINOOK_SQLITE, '--name', 'chinook', '--catalog', catalog], { encoding: 'utf8', timeout: 120_000 });
    assert.equal(idx.status, 0, idx.stderr);
    server = await serveHttp(['--http', '0', '--catalog', catalog, '--no-audit']);
  });

  after(() => {
    server?.child.kill('SIGTERM');
  });

  it('passes every scenario except those needing the suite’s own fixture tools, resources and prompts', () => {
    const out = path.join(dir, 'results');
    const args = ['--import', NODE20_SHIM, SUITE, 'server', '--url', server!.url, '--expected-failures', EXPECTED, '-o', out];
    const r = spawnSync(process.execPath, args, { encoding: 'utf8', cwd: dir, timeout: 150_000 });
    const summary = (r.stdout ?? '').slice((r.stdout ?? '').indexOf('=== SUMMARY ==='));
    assert.equal(r.status, 0, `conformance exited ${r.status}\n${summary}\n${(r.stderr ?? '').slice(-2000)}`);

    // The exit code already covers regressions and stale entries; check the named scenarios in the raw results too.
    const runs = fs.readdirSync(out);
    for (const scenario of MUST_PASS) {
      const run = runs.find((d) => d.startsWith(`server-${scenario}-`));
      assert.ok(run, `scenario ${scenario} ran`);
      const checks = JSON.parse(fs.readFileSync(path.join(out, run, 'checks.json'), 'utf8')) as Array<{ id: string; status: string; errorMessage?: string }>;
      const failed = checks.filter((c) => c.status === 'FAILURE');
      assert.deepEqual(failed, [], `${scenario}: ${JSON.stringify(failed)}`);
      assert.ok(checks.some((c) => c.status === 'SUCCESS'), `${scenario} has a passing check`);
    }
  });
});
