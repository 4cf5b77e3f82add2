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

/** The mark the bundles' sql.js looks for (esbuild.mjs, SQLJS_PATCHES). */
const OWN = Symbol.for('schemabrain.sqljs.own');

/**
 * Bytes for `new SQL.Database(bytes)` that the caller never reads again: in the bundles, sql.js keeps them as its
 * in-memory file instead of copying them (a 16 MB catalog is then held once, not twice, and not copied on open). Only a
 * buffer that is its own whole ArrayBuffer is marked (a small file read into Node's shared pool is copied as before).
 */
export function handOver(bytes: Buffer): Uint8Array {
  if (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength) (bytes as unknown as Record<symbol, boolean>)[OWN] = true;
  return bytes;
}
