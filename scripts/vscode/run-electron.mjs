// Runs the same integration suite (test/vscode/**, bundled to dist/test/vscode.js) in desktop VS Code through
// @vscode/test-electron, where a desktop build can be had: given by path in SCHEMABRAIN_VSCODE_EXECUTABLE, or
// downloaded (SCHEMABRAIN_VSCODE_VERSION, default "stable"). Where neither works (an offline machine) it says why and
// exits 0 as a skip; the code-server runner (scripts/vscode/run-tests.mjs) covers the suite there.
// Usage: npm run test:electron   (env SCHEMABRAIN_VSCODE_EXECUTABLE=/path/to/code, SCHEMABRAIN_VSCODE_GREP=…)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { prepareFixtures } from './fixtures.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const log = (...m) => console.log('[test:electron]', ...m);

function skip(reason) {
  log(`SKIPPED: ${reason}`);
  if (process.env.SCHEMABRAIN_TEST_SUMMARY) fs.writeFileSync(process.env.SCHEMABRAIN_TEST_SUMMARY, JSON.stringify({ passed: 0, failed: 0, skipped: 1, reason }));
  process.exit(0);
}

const { downloadAndUnzipVSCode, runTests } = await import('@vscode/test-electron');

let executable = process.env.SCHEMABRAIN_VSCODE_EXECUTABLE;
if (executable) {
  if (!fs.existsSync(executable)) {
    console.error(`SCHEMABRAIN_VSCODE_EXECUTABLE=${executable} does not exist`);
    process.exit(2);
  }
} else {
  const version = process.env.SCHEMABRAIN_VSCODE_VERSION ?? 'stable';
  try {
    executable = await Promise.race([
      downloadAndUnzipVSCode({ version, cachePath: path.join(ROOT, '.vscode-test') }),
      new Promise((_, reject) => setTimeout(() => reject(new Error('no answer within 60 s')), 60_000).unref()),
    ]);
  } catch (e) {
    skip(`no desktop VS Code build: downloading VS Code ${version} failed (${String(e.message ?? e).split('\n')[0]}), ` +
      'and SCHEMABRAIN_VSCODE_EXECUTABLE does not name one. This machine cannot reach update.code.visualstudio.com; ' +
      'the same suite runs in code-server through `npm run test:vscode`.');
  }
}

const build = spawnSync(process.execPath, [path.join(ROOT, 'scripts/vscode/run-tests.mjs'), '--build-only'], { cwd: ROOT, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-electron-'));
const fx = await prepareFixtures({ root: ROOT, work, log });
const fxFile = path.join(work, 'fixtures.json');
fs.writeFileSync(fxFile, JSON.stringify(fx), { mode: 0o600 });
const resultFile = path.join(work, 'integration-result.json');
let code = 1;
try {
  code = await runTests({
    vscodeExecutablePath: executable,
    extensionDevelopmentPath: ROOT,
    extensionTestsPath: path.join(ROOT, 'dist/test/vscode.js'),
    launchArgs: [fx.workspace, '--disable-extensions', '--disable-workspace-trust', '--user-data-dir', path.join(work, 'user-data')],
    extensionTestsEnv: { ...fx.itEnv, SB_TEST_RESULT_FILE: resultFile, SB_TEST_FIXTURES_FILE: fxFile },
  }).catch((e) => {
    console.error(e);
    return 1;
  });
} finally {
  fx.dispose?.();
}
if (fs.existsSync(resultFile)) {
  const r = JSON.parse(fs.readFileSync(resultFile, 'utf8'));
  log(`${r.passes} passed, ${r.failures} failed`);
  if (process.env.SCHEMABRAIN_TEST_SUMMARY) fs.writeFileSync(process.env.SCHEMABRAIN_TEST_SUMMARY, JSON.stringify({ passed: r.passes, failed: r.failures, skipped: r.pending ?? 0 }));
}
fs.rmSync(work, { recursive: true, force: true });
process.exit(code);
