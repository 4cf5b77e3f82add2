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

// sql.js, changed in the bundles only (each expression must occur exactly once in this sql.js release, or the build
// fails, so a change is never lost silently; `node_modules` stays as it is, and the source tree runs sql.js unchanged):
// - its in-memory file grows by 1.125× at a time past 1 MiB, copying the whole file at each step: writing a 45 MB
//   catalog copied about 400 MB (over a second of a 10,000-table index). Growing by 2× copies about twice the final size;
// - opening a database from bytes copies them into the in-memory file. Bytes marked with the symbol below (sqljs.ts,
//   `handOver`: a whole buffer its caller never reads again) become the file as they are, so a 16 MB catalog is not
//   copied a second time on open;
// - a BLOB is copied out of the WASM heap one byte at a time in JavaScript; one slice copies it.
const ID = '[A-Za-z_$][\\w$]*';
const SQLJS_OWN = 'Symbol.for("schemabrain.sqljs.own")';
const SQLJS_PATCHES = [
  {
    what: 'in-memory file growth',
    find: new RegExp(`\\b(${ID})\\*\\(\\1<1048576\\?2:1\\.125\\)>>>0`, 'g'),
    replace: '$1*2>>>0',
  },
  {
    what: 'first write of a new in-memory file',
    find: new RegExp(`else (${ID})\\.(${ID})=(${ID})\\.slice\\((${ID}),\\4\\+(${ID})\\),\\1\\.(${ID})=\\5;return \\5\\}`, 'g'),
    replace: `else $1.$2=$3[${SQLJS_OWN}]===!0&&$4===0&&$5===$3.length&&$3.byteOffset===0&&$3.byteLength===$3.buffer.byteLength?$3:$3.slice($4,$4+$5),$1.$6=$5;return $5}`,
  },
  {
    what: 'BLOB copy',
    find: new RegExp(`for\\(var (${ID})=new Uint8Array\\((${ID})\\),(${ID})=0;\\3<\\2;\\3\\+=1\\)\\1\\[\\3\\]=(${ID})\\[(${ID})\\+\\s*\\3\\];return \\1`, 'g'),
    replace: 'var $1=new Uint8Array($4.buffer.slice($4.byteOffset+$5,$4.byteOffset+$5+$2));return $1',
  },
];
const sqlJsPatches = {
  name: 'sql-js-patches',
  setup(build) {
    build.onLoad({ filter: /[\\/]node_modules[\\/]sql\.js[\\/]dist[\\/]sql-wasm\.js$/ }, async (args) => {
      let source = await readFile(args.path, 'utf8');
      for (const p of SQLJS_PATCHES) {
        const found = source.match(p.find) ?? [];
        if (found.length !== 1) throw new Error(`${args.path}: expected one ${p.what} expression, found ${found.length}; review SQLJS_PATCHES for this sql.js release`);
        source = source.replace(p.find, p.replace);
      }
      return { contents: source, loader: 'js' };
    });
  },
};

const common = {
  plugins: [pgNodeStream, sqlJsPatches],
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
  { entryPoints: ['src/server/main.ts'], outfile: 'dist/server.bundle.js', metafile: true },
  { entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.bundle.js', metafile: true },
  // `schemabrain index` runs this first: an unchanged re-index is answered without loading the rest of the CLI.
  { entryPoints: ['src/cli/index-quick.ts'], outfile: 'dist/cli-index.bundle.js' },
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

/**
 * The launchers, built after the bundles: each is told which Node built-in modules its bundle requires, to load them
 * before it changes V8's WebAssembly tiering (src/launch/code-cache.ts, `wasmTiering`).
 */
function launchers(builtins) {
  const define = (bundle) => ({ SCHEMABRAIN_BUNDLE: JSON.stringify(bundle), SCHEMABRAIN_PRELOAD: JSON.stringify(builtins(`dist/${bundle}`)) });
  return [
    { entryPoints: ['src/launch/code-cache.ts'], outfile: 'dist/server.js', sourcemap: false, define: define('server.bundle.js') },
    { entryPoints: ['src/launch/code-cache.ts'], outfile: 'dist/cli.js', sourcemap: false, banner: { js: '#!/usr/bin/env node' }, define: define('cli.bundle.js') },
  ];
}

/** The Node built-ins a bundle requires, from its metafile (what it leaves external, less optional native modules). */
function builtinsOf(result) {
  const { builtinModules } = require('node:module');
  const names = new Set();
  for (const out of Object.values(result.metafile?.outputs ?? {})) {
    for (const i of out.imports) {
      const name = i.path.replace(/^node:/, '');
      if (i.external && builtinModules.includes(name)) names.add(name);
    }
  }
  return [...names].sort();
}

const contexts = await Promise.all(entries.map((e) => esbuild.context({ ...common, ...e })));
const results = await Promise.all(contexts.map((c) => c.rebuild()));
const builtins = (outfile) => builtinsOf(results[entries.findIndex((e) => e.outfile === outfile)]);
const launcherContexts = await Promise.all(launchers(builtins).map((e) => esbuild.context({ ...common, ...e })));
await Promise.all(launcherContexts.map((c) => c.rebuild()));
if (watch) {
  await Promise.all([...contexts, ...launcherContexts].map((c) => c.watch()));
} else {
  await Promise.all([...contexts, ...launcherContexts].map((c) => c.dispose()));
}
