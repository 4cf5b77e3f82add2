// One build, three bundles (extension, MCP server, CLI), minified (start-up time is dominated by compiling the
// bundle) with linked source maps for readable stacks; the WASM engines are copied beside them.
import * as esbuild from 'esbuild';
import { copyFileSync, mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const watch = process.argv.includes('--watch');

// node-postgres probes for a Cloudflare Workers runtime when it is loaded, by constructing a fetch `Response`; on
// Node 20 that loads undici (tens of milliseconds of every index run). The bundles only ever run on Node: its
// socket functions are used directly.
const pgNodeStream = {
  name: 'pg-node-stream',
  setup(build) {
    build.onResolve({ filter: /^\.\/stream$/ }, (args) =>
      /[\\/]node_modules[\\/]pg[\\/]lib$/.test(args.resolveDir) ? { path: 'pg-node-stream', namespace: 'pg-node-stream' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'pg-node-stream' }, () => ({
      contents: `module.exports = { getStream: () => new (require('net').Socket)(), getSecureStream: (options) => require('tls').connect(options) };`,
      loader: 'js',
    }));
  },
};

// sql.js keeps the catalog database in an Emscripten in-memory file that grows by 1.125× at a time past 1 MiB,
// copying the whole file at each step: writing a 45 MB catalog copied about 400 MB (over a second of a 10,000-table
// index). Growing by 2× copies about twice the final size. The same expression in any other Emscripten module is left
// as it is; a sql.js release without it fails the build, so the change is never lost silently.
const SQLJS_GROWTH = /\b([A-Za-z_$][\w$]*)\*\(\1<1048576\?2:1\.125\)>>>0/g;
const sqlJsFileGrowth = {
  name: 'sql-js-file-growth',
  setup(build) {
    build.onLoad({ filter: /[\\/]node_modules[\\/]sql\.js[\\/]dist[\\/]sql-wasm\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      const matches = source.match(SQLJS_GROWTH) ?? [];
      if (matches.length !== 1) throw new Error(`${args.path}: expected one in-memory file growth expression, found ${matches.length}; review the sql-js-file-growth plugin for this sql.js release`);
      return { contents: source.replace(SQLJS_GROWTH, '$1*2>>>0'), loader: 'js' };
    });
  },
};

const common = {
  plugins: [pgNodeStream, sqlJsFileGrowth],
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
  // dist/server.js and dist/cli.js are small launchers that run the real bundle through V8's code cache
  // (src/launch/code-cache.ts): most of a process start is compiling the bundle.
  { entryPoints: ['src/server/main.ts'], outfile: 'dist/server.bundle.js' },
  { entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.bundle.js' },
  // `schemabrain index` runs this first: an unchanged re-index is answered without loading the rest of the CLI.
  { entryPoints: ['src/cli/index-quick.ts'], outfile: 'dist/cli-index.bundle.js' },
  { entryPoints: ['src/launch/code-cache.ts'], outfile: 'dist/server.js', sourcemap: false, define: { SCHEMABRAIN_BUNDLE: '"server.bundle.js"' } },
  { entryPoints: ['src/launch/code-cache.ts'], outfile: 'dist/cli.js', sourcemap: false, banner: { js: '#!/usr/bin/env node' }, define: { SCHEMABRAIN_BUNDLE: '"cli.bundle.js"' } },
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
