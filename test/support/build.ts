import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(__dirname, '..', '..');
export const DIST_SERVER = path.join(ROOT, 'dist', 'server.js');
export const DIST_CLI = path.join(ROOT, 'dist', 'cli.js');

let built = false;

/** Builds the bundles once per test process unless scripts/test.mjs already did (SCHEMABRAIN_BUILT=1). */
export function ensureBuilt(): void {
  if (built || (process.env.SCHEMABRAIN_BUILT === '1' && fs.existsSync(DIST_SERVER) && fs.existsSync(DIST_CLI))) return;
  execFileSync(process.execPath, ['esbuild.mjs'], { cwd: ROOT, stdio: 'inherit' });
  built = true;
}
