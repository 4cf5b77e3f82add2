// Loaded by mocha before any test (.mocharc.json): a test run never writes to the real ~/.schemabrain. Unless the
// caller chose a SCHEMABRAIN_HOME, every test, and every server and CLI process a test starts, gets a fresh temporary
// one; tests that need their own still set it themselves.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

if (!process.env.SCHEMABRAIN_HOME) {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'schemabrain-test-home-'));
  process.env.SCHEMABRAIN_HOME = home;
  process.on('exit', () => fs.rmSync(home, { recursive: true, force: true }));
}
