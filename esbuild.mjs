// One build, three bundles (extension, MCP server, CLI), minified (start-up time is dominated by compiling the
// bundle) with linked source maps for readable stacks; the WASM engines are copied beside them.
import * as esbuild from 'esbuild';
import { copyFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const watch = process.argv.includes('--watch');

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: 'linked',
  minify: true,
  keepNames: true,
  logLevel: 'warning',
  // pg's optional native binding is never used.
  external: ['pg-native'],
};

const entries = [
  { entryPoints: ['src/extension/extension.ts'], outfile: 'dist/extension.js', external: ['vscode', 'pg-native'] },
  { entryPoints: ['src/server/main.ts'], outfile: 'dist/server.js' },
  { entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node' } },
  // Agent-written SQLite queries run on a worker thread that can be terminated at the time cap.
  { entryPoints: ['src/core/sql/sqlite-worker-main.ts'], outfile: 'dist/sqlite-worker-main.js' },
  // The MySQL driver and grammars (~1.6 MB), required only when a MySQL/MariaDB source is used.
  { entryPoints: ['src/core/sql/mysql-vendor.ts'], outfile: 'dist/mysql-vendor.js' },
];

mkdirSync('dist', { recursive: true });
// WASM engines loaded at run time from beside the bundle: sql.js (catalog, SQLite sources) and libpg-query (the
// PostgreSQL parser behind the SQL guard).
copyFileSync(path.join(path.dirname(require.resolve('sql.js')), 'sql-wasm.wasm'), 'dist/sql-wasm.wasm');
copyFileSync(path.join(path.dirname(require.resolve('libpg-query')), 'libpg-query.wasm'), 'dist/libpg-query.wasm');

const contexts = await Promise.all(entries.map((e) => esbuild.context({ ...common, ...e })));
if (watch) {
  await Promise.all(contexts.map((c) => c.watch()));
} else {
  await Promise.all(contexts.map((c) => c.rebuild()));
  await Promise.all(contexts.map((c) => c.dispose()));
}
