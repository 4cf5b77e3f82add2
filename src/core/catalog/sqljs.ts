import fs from 'node:fs';
import path from 'node:path';
import initSqlJs from 'sql.js';
import type { SqlJsStatic } from 'sql.js';

/**
 * Loads the sql.js WASM engine once per process. In the bundles the wasm sits beside `dist/*.js`
 * (esbuild.mjs copies it); from source it is resolved in node_modules.
 */
let engine: Promise<SqlJsStatic> | undefined;

function wasmPath(): string {
  const candidates = [path.join(__dirname, 'sql-wasm.wasm'), path.join(__dirname, '..', 'sql-wasm.wasm')];
  for (const c of candidates) if (fs.existsSync(c)) return c;
  // Built from parts so bundlers leave it to run time (from source, node_modules holds the file).
  return require.resolve(['sql.js', 'dist', 'sql-wasm.wasm'].join('/'));
}

export function loadSqlJs(): Promise<SqlJsStatic> {
  engine ??= initSqlJs({ wasmBinary: fs.readFileSync(wasmPath()) as unknown as ArrayBuffer });
  return engine;
}
