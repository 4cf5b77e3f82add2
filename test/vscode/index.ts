// extensionTestsPath entry (bundled to dist/test/vscode.js; vscode and mocha stay external): runs the suites in
// the real extension host and writes a JSON result for scripts/vscode/run-tests.mjs.
import fs from 'node:fs';
import Mocha from 'mocha';

interface TestResult {
  title: string;
  state: string;
  err?: string;
  durationMs?: number;
}

export async function run(): Promise<void> {
  const resultFile = process.env.SB_TEST_RESULT_FILE;
  // SCHEMABRAIN_VSCODE_GREP narrows the run to matching test titles; SCHEMABRAIN_VSCODE_FILES to some files
  // (comma-separated base names such as `connections,mcp`). Both reach the extension host through code-server's env.
  const grep = process.env.SCHEMABRAIN_VSCODE_GREP;
  const files = process.env.SCHEMABRAIN_VSCODE_FILES?.split(',').map((f) => f.trim().replace(/\.test(\.ts)?$/, '')).filter(Boolean);
  const mocha = new Mocha({ ui: 'bdd', timeout: 90_000, color: false, reporter: 'spec', ...(grep ? { grep } : {}) });
  mocha.suite.emit('pre-require', globalThis, 'inline', mocha);
  // Required after pre-require so describe/it exist; esbuild keeps these lazy.
  const suites: Record<string, () => unknown> = {
    activation: () => require('./activation.test'),
    connections: () => require('./connections.test'),
    mcp: () => require('./mcp.test'),
    'audit-tail': () => require('./audit-tail.test'),
    metrics: () => require('./metrics.test'),
    semantic: () => require('./semantic.test'),
    failures: () => require('./failures.test'),
    secrets: () => require('./secrets.test'),
    ux: () => require('./ux.test'),
    // last: it adds a PostgreSQL source to the catalog the earlier suites count
    'mcp-resources': () => require('./mcp-resources.test'),
    team: () => require('./team.test'),
  };
  for (const [name, load] of Object.entries(suites)) if (!files || files.includes(name)) load();
  const results: TestResult[] = [];
  return new Promise((resolve, reject) => {
    const runner = mocha.run((failures) => {
      const out = {
        failures,
        passes: results.filter((r) => r.state === 'passed').length,
        pending: results.filter((r) => r.state === 'pending').length,
        results,
        bench: (globalThis as { __sbBench?: unknown }).__sbBench,
      };
      if (resultFile) fs.writeFileSync(resultFile, JSON.stringify(out, null, 2));
      console.log(`${out.passes} passed, ${failures} failed`);
      if (failures) reject(new Error(`${failures} tests failed`));
      else resolve();
    });
    runner.on('test end', (t) => results.push({ title: t.fullTitle(), state: t.state ?? 'pending', err: t.err?.message, durationMs: t.duration }));
    runner.on('pending', (t) => results.push({ title: t.fullTitle(), state: 'pending' }));
    runner.on('fail', (t, err: Error) => {
      const r = results.find((x) => x.title === t.fullTitle());
      if (r) {
        r.state = 'failed';
        r.err = err?.message;
      } else results.push({ title: t.fullTitle(), state: 'failed', err: err?.message });
    });
  });
}
