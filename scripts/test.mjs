#!/usr/bin/env node
// The whole test suite, as the README's `npm test` and CI run it:
//   1. build the three bundles (the server and CLI tests start the real dist/ processes), then lint;
//   2. unit, server and integration tests (mocha; real PostgreSQL when reachable, embedded PGlite otherwise);
//   3. the VS Code suite: integration tests in a real extension host and browser UI tests (code-server + Chromium),
//      after installing what it needs (scripts/vscode/setup.sh). SCHEMABRAIN_SKIP_VSCODE=1 skips it, and says so.
// Ends with one line "N passed, N failed[, N skipped]" and a non-zero exit when anything failed.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'schemabrain-test-'));
const totals = { passed: 0, failed: 0, skipped: 0 };
const failures = [];

function run(label, cmd, args, env = {}) {
  process.stdout.write(`\n=== ${label} ===\n`);
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  return r.status ?? 1;
}

function suite(label, cmd, args, env = {}) {
  const summary = path.join(tmp, `${label.replace(/\W+/g, '-')}.json`);
  const code = run(label, cmd, args, { ...env, SCHEMABRAIN_TEST_SUMMARY: summary });
  let s = null;
  try {
    s = JSON.parse(fs.readFileSync(summary, 'utf8'));
  } catch {
    // no summary: the runner itself failed before reporting
  }
  if (s) {
    totals.passed += s.passed;
    totals.failed += s.failed;
    totals.skipped += s.skipped ?? 0;
  }
  if (code !== 0 || !s) {
    failures.push(`${label} (exit ${code})`);
    if (!s || s.failed === 0) totals.failed += 1;
  }
}

if (run('build', process.execPath, ['esbuild.mjs']) !== 0) {
  console.log('build failed');
  console.log('0 passed, 1 failed');
  process.exit(1);
}

// Lint with the layer rules: a violation fails the run like a failing test.
if (run('lint (eslint with layer rules)', process.execPath, [path.join(root, 'node_modules', 'eslint', 'bin', 'eslint.js'), 'src', 'test', 'bench']) !== 0) {
  failures.push('lint');
  totals.failed += 1;
}

suite('unit, server and integration tests', process.execPath, [path.join(root, 'node_modules', 'mocha', 'bin', 'mocha.js'), '--config', '.mocharc.json'], { SCHEMABRAIN_BUILT: '1' });

if (process.env.SCHEMABRAIN_SKIP_VSCODE === '1') {
  process.stdout.write('\n=== VS Code suite skipped (SCHEMABRAIN_SKIP_VSCODE=1) ===\n');
} else if (run('VS Code test setup', 'bash', ['scripts/vscode/setup.sh']) !== 0) {
  failures.push('VS Code test setup');
  totals.failed += 1;
} else {
  suite('VS Code integration and browser UI tests', process.execPath, ['scripts/vscode/run-tests.mjs']);
}

fs.rmSync(tmp, { recursive: true, force: true });
if (failures.length) console.log(`\nfailed: ${failures.join('; ')}`);
console.log(`\n${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`);
process.exit(totals.failed > 0 ? 1 : 0);
