import fs from 'node:fs';
import Module from 'node:module';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { makeDirs } from '../core/util/make-dirs';

/**
 * dist/cli.js and dist/server.js: a few lines that run the real bundle (dist/cli.bundle.js, dist/server.bundle.js)
 * through V8's code cache. Parsing and compiling a 3 MB bundle is most of a process start (the CLI's `--help` took
 * about twice `node -e 0`); with the cache written by an earlier run, V8 deserialises the compiled functions instead.
 *
 * The cache sits beside the bundle in `dist/.cache/` (the same trust as the bundle itself, never a shared temp dir),
 * keyed by the bundle's size and mtime, the Node version and the architecture; V8 rejects a cache made by another V8
 * or other flags, and a rejected or missing cache is rewritten after the run has compiled what it uses. Any failure
 * here (read-only install, no cache support) falls back to a plain require of the bundle.
 */

declare const SCHEMABRAIN_BUNDLE: string;
/** The Node built-ins the bundle requires (esbuild.mjs, from the bundle's metafile). */
declare const SCHEMABRAIN_PRELOAD: readonly string[];

interface InternalModule {
  _nodeModulePaths(dir: string): string[];
  _cache: Record<string, NodeModule>;
  _resolveFilename(request: string, parent: NodeModule, isMain: boolean, options?: { paths?: string[] }): string;
}

const WRITE_AFTER_MS = 1500;

/** `schemabrain index` first runs this small bundle (src/cli/index-quick.ts): an unchanged re-index ends there. */
const INDEX_QUICK_BUNDLE = 'cli-index.bundle.js';

interface QuickIndexModule {
  runQuickIndex(argv: readonly string[], full: (prefetched: unknown) => void): void;
}

interface CliModule {
  runCli(argv: readonly string[], prefetched?: unknown): void;
}

/** Code cache writes not yet done (each runs once, at the latest when the process exits). */
const pendingWrites: Array<() => void> = [];

/** Loads one bundle beside this file through the code cache; `asMain` runs it as the process's main module. */
function load(bundle: string, asMain: boolean): NodeModule {
  const file = path.join(__dirname, bundle);
  const loader = (vm as unknown as { constants?: { USE_MAIN_CONTEXT_DEFAULT_LOADER?: symbol } }).constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER;
  const internal = Module as unknown as InternalModule;
  const mod = new Module(file, require.main);
  mod.filename = file;
  mod.paths = internal._nodeModulePaths(path.dirname(file));
  // The bundle tests `require.main === module` to run.
  if (asMain) process.mainModule = mod;
  if (!loader || process.env.SCHEMABRAIN_NO_CODE_CACHE === '1') {
    (mod as unknown as { _compile(content: string, filename: string): void })._compile(fs.readFileSync(file, 'utf8'), file);
    mod.loaded = true;
    return mod;
  }
  const source = fs.readFileSync(file, 'utf8');
  const st = fs.statSync(file);
  const cacheDir = path.join(__dirname, '.cache');
  // One cache per CLI verb: each holds the functions its own path compiled (`index` shares little with `metric`).
  const verb = bundle.startsWith('cli') && /^[a-z-]{1,20}$/.test(process.argv[2] ?? '') ? `${process.argv[2]}.` : '';
  const prefix = `${bundle}.${verb}`;
  const key = `${prefix}${st.size}-${Math.round(st.mtimeMs * 1000)}-${process.version}-${process.arch}.v8`;
  const cacheFile = path.join(cacheDir, key);
  let cachedData: Buffer | undefined;
  try {
    cachedData = fs.readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  const script = new vm.Script(Module.wrap(source), { filename: file, cachedData, importModuleDynamically: loader as never });
  if (!cachedData || script.cachedDataRejected) {
    let written = false;
    const write = (): void => {
      if (written) return;
      written = true;
      try {
        const data = script.createCachedData();
        makeDirs(cacheDir);
        const tmp = `${cacheFile}.${process.pid}.tmp`;
        fs.writeFileSync(tmp, data);
        fs.renameSync(tmp, cacheFile);
        for (const f of fs.readdirSync(cacheDir)) if (f !== key && f.startsWith(prefix) && /^\d+-\d+-v[\d.]+-\w+\.v8$/.test(f.slice(prefix.length))) fs.rmSync(path.join(cacheDir, f), { force: true });
      } catch {
        // A read-only install runs without a cache.
      }
    };
    setTimeout(write, WRITE_AFTER_MS).unref();
    process.once('exit', write);
    pendingWrites.push(write);
  }
  internal._cache[file] = mod;
  const req = ((id: string) => mod.require(id)) as NodeJS.Require;
  req.resolve = ((request: string, options?: { paths?: string[] }) => internal._resolveFilename(request, mod, false, options)) as NodeJS.RequireResolve;
  req.main = asMain ? mod : require.main;
  req.cache = internal._cache;
  const wrapper = script.runInThisContext({ displayErrors: true }) as (exports: unknown, require: NodeJS.Require, module: NodeModule, filename: string, dirname: string) => void;
  wrapper.call(mod.exports, mod.exports, req, mod, file, path.dirname(file));
  mod.loaded = true;
  return mod;
}

/**
 * V8 compiles WebAssembly with its baseline compiler (Liftoff) and recompiles a function with its optimizing one
 * (TurboFan) once it has run a budget of about 1.8 MB of code. The SQLite engine's bytecode interpreter exhausts that
 * during a process's first catalog reads and writes, and optimizing such a large function costs more than the work it
 * would speed up: the server's first find_relevant_tables took about 100 ms longer on this account, at 370 and at
 * 10,000 tables, and a full index of MusicBrainz used about 300 ms more CPU (bench/results/first-find-builds.md). The
 * budget is raised so that only code that runs for a long time is optimized.
 *
 * V8 flags are part of the code cache's key and of Node's own cache of its built-in modules: a built-in first loaded
 * after the change is compiled from source. So the built-ins the bundle requires are loaded first, the code cache
 * writes still pending are done, and the change comes before the next bundle's code cache is read (each start then
 * finds a cache made under the same flags as its own).
 */
const WASM_TIERING_BUDGET = 1_000_000_000;

function wasmTiering(): void {
  for (const name of SCHEMABRAIN_PRELOAD) {
    try {
      require(name);
    } catch {
      // Not in this Node: the bundle will say so itself.
    }
  }
  for (const write of pendingWrites.splice(0)) write();
  v8.setFlagsFromString(`--wasm-tiering-budget=${WASM_TIERING_BUDGET}`);
}

function run(): void {
  if (SCHEMABRAIN_BUNDLE === 'cli.bundle.js' && process.argv[2] === 'index' && fs.existsSync(path.join(__dirname, INDEX_QUICK_BUNDLE))) {
    // An unchanged re-index ends in the quick bundle, which reads no catalog: it runs with V8's flags as they are.
    const quick = load(INDEX_QUICK_BUNDLE, false).exports as QuickIndexModule;
    quick.runQuickIndex(process.argv.slice(3), (prefetched) => {
      wasmTiering();
      (load(SCHEMABRAIN_BUNDLE, false).exports as CliModule).runCli(process.argv.slice(2), prefetched);
    });
    return;
  }
  wasmTiering();
  load(SCHEMABRAIN_BUNDLE, true);
}

run();
