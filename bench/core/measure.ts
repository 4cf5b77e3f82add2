/**
 * Measurement helpers shared by the core and perf benchmarks: statistics, machine facts, timed child processes,
 * resident memory from /proc, MCP server cold start over stdio, and in-process tool latency.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

export const ROOT = path.resolve(__dirname, '../..');
export const DIST = path.join(ROOT, 'dist');
export const RESULTS = path.join(ROOT, 'bench', 'results');

export function median(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** Nearest-rank percentile (p in 0..100) of a sample. */
export function percentile(xs: readonly number[], p: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * s.length));
  return s[Math.min(s.length, rank) - 1]!;
}

export function round(x: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

export interface MachineFacts {
  readonly nproc: number;
  readonly cpu: string;
  readonly memGiB: number;
  readonly node: string;
  readonly platform: string;
  /** The commit measured, and how many files under src/ differed from it in the working tree at the start. */
  readonly commit: string;
  readonly srcFilesModified: number;
  readonly loadAvgStart: readonly number[];
  loadAvgEnd?: readonly number[];
}

function git(args: string[]): string {
  try {
    return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return '';
  }
}

export function loadAvg(): number[] {
  return os.loadavg().map((x) => round(x, 2));
}

export function machineFacts(): MachineFacts {
  return {
    nproc: os.availableParallelism(),
    cpu: os.cpus()[0]?.model.trim() ?? 'unknown',
    memGiB: round(os.totalmem() / 2 ** 30, 1),
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    commit: git(['rev-parse', '--short', 'HEAD']) || 'unknown',
    srcFilesModified: git(['status', '--porcelain', '--', 'src']).split('\n').filter(Boolean).length,
    loadAvgStart: loadAvg(),
  };
}

export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export interface ProcessRun {
  readonly ms: number;
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Wall time of one child process from spawn to exit (stdout/stderr collected, stdin closed). */
export function timeProcess(cmd: string, args: readonly string[], opts: { env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number } = {}): Promise<ProcessRun> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(cmd, args, { cwd: opts.cwd ?? ROOT, env: opts.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => err.push(d));
    const timer = opts.timeoutMs ? setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs) : null;
    child.on('error', reject);
    child.on('close', (code) => {
      if (timer) clearTimeout(timer);
      resolve({ ms: performance.now() - t0, code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') });
    });
  });
}

/** Throws with the child's stderr when it did not exit 0. */
export async function runOk(cmd: string, args: readonly string[], opts: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<ProcessRun> {
  const r = await timeProcess(cmd, args, opts);
  if (r.code !== 0) throw new Error(`${path.basename(cmd)} ${args.slice(0, 2).join(' ')} exited ${r.code}: ${r.stderr.slice(-2000)}`);
  return r;
}

export interface MemoryReading {
  /** Resident set size now (MiB). */
  readonly rssMiB: number;
  /** Peak resident set size so far (VmHWM, MiB). */
  readonly peakMiB: number;
}

/** RSS and its high-water mark of a live process, from /proc/PID/status (https://man7.org/linux/man-pages/man5/proc_pid_status.5.html). */
export function memoryOf(pid: number): MemoryReading {
  const text = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? NaN);
  return { rssMiB: round(kb('VmRSS') / 1024, 1), peakMiB: round(kb('VmHWM') / 1024, 1) };
}

/**
 * Runs a Node script in a child process with a preload that records `process.resourceUsage()` on exit; returns the
 * wall time, the peak resident memory of the whole process and the CPU time it used (which, unlike wall time,
 * does not grow while the process waits for a core on a loaded machine).
 */
export async function timeNodeWithPeak(script: string, args: readonly string[], opts: { nodeBin?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<ProcessRun & { peakMiB: number; cpuMs: number }> {
  const dir = tempDir('sb-bench-rss-');
  const file = path.join(dir, 'maxrss');
  try {
    const env = { ...(opts.env ?? process.env), SB_BENCH_MAXRSS_FILE: file };
    const r = await runOk(opts.nodeBin ?? process.execPath, ['-r', path.join(__dirname, 'maxrss.cjs'), script, ...args], { env, timeoutMs: opts.timeoutMs });
    const usage = JSON.parse(fs.readFileSync(file, 'utf8')) as { maxRssKiB: number; cpuMs: number };
    return { ...r, peakMiB: round(usage.maxRssKiB / 1024, 1), cpuMs: round(usage.cpuMs, 0) };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * CPU time a live process has used so far: utime + stime of /proc/PID/stat (fields 14 and 15, in clock ticks of
 * 1/100 s on Linux; https://man7.org/linux/man-pages/man5/proc_pid_stat.5.html).
 */
export function cpuMsOf(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) may hold spaces; fields are counted after its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

export interface StdioSession {
  readonly client: Client;
  readonly transport: StdioClientTransport;
  readonly pid: number;
  /** ms from spawn to `initialize` answered. */
  readonly connectMs: number;
  /** ms from spawn to the first tools/list answer. */
  readonly firstListMs: number;
  /** CPU time (user + system, all threads) the server process had used when tools/list was answered. */
  readonly cpuMsAtFirstList: number;
  readonly toolsListJson: string;
  close(): Promise<void>;
}

/**
 * Spawns an MCP server on stdio with the SDK's client transport and times the first tools/list answer from the
 * moment of spawn (process start + module load + initialize handshake + listing). stderr is discarded.
 */
export async function startStdioServer(command: string, args: readonly string[], env: Record<string, string> = {}): Promise<StdioSession> {
  const transport = new StdioClientTransport({
    command,
    args: [...args],
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stderr: 'ignore',
    cwd: ROOT,
  });
  const client = new Client({ name: 'schemabrain-bench', version: '1.0.0' });
  const t0 = performance.now();
  await client.connect(transport);
  const connectMs = performance.now() - t0;
  const list = await client.listTools();
  const firstListMs = performance.now() - t0;
  const pid = transport.pid;
  if (pid === null) throw new Error(`${command} exited before answering`);
  const cpuMsAtFirstList = cpuMsOf(pid);
  return {
    client,
    transport,
    pid,
    connectMs,
    firstListMs,
    cpuMsAtFirstList,
    toolsListJson: JSON.stringify(list),
    close: async () => {
      await client.close().catch(() => undefined);
    },
  };
}

export interface LatencySummary {
  readonly calls: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly meanMs: number;
  readonly maxMs: number;
  /**
   * CPU time (user + system) of this process per call: on a loaded machine wall time includes waiting for a core,
   * CPU time does not. It counts every thread of the process (parallel garbage collection included), so on an idle
   * machine it can exceed wall time.
   */
  readonly cpuP50Ms: number;
  readonly cpuP99Ms: number;
}

/** Calls `fn(i)` `n` times one after another (after `warmup` untimed calls) and summarises the per-call times. */
export async function latency(n: number, fn: (i: number) => Promise<unknown>, warmup = 50): Promise<LatencySummary> {
  for (let i = 0; i < warmup; i++) await fn(i);
  const times: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < n; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await fn(i);
    times.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  return {
    calls: n,
    p50Ms: round(percentile(times, 50), 3),
    p99Ms: round(percentile(times, 99), 3),
    meanMs: round(times.reduce((a, b) => a + b, 0) / n, 3),
    maxMs: round(Math.max(...times), 3),
    cpuP50Ms: round(percentile(cpu, 50), 3),
    cpuP99Ms: round(percentile(cpu, 99), 3),
  };
}

/** The value after `name` on the command line (its first occurrence), for the benchmark scripts' own flags. */
export function flagValue(name: string): string | undefined {
  return flagValues(name)[0];
}

/** Every value given after `name` on the command line, in order (a flag that may repeat). */
export function flagValues(name: string): string[] {
  const out: string[] = [];
  process.argv.forEach((a, i) => {
    if (a === name && process.argv[i + 1] !== undefined) out.push(process.argv[i + 1]!);
  });
  return out;
}

/** Every `name LABEL=VALUE` on the command line, split at the first `=`; `what` names the value in the error. */
export function labelledFlagValues(name: string, what: string): Array<{ label: string; value: string }> {
  return flagValues(name).map((v) => {
    const eq = v.indexOf('=');
    if (eq <= 0) throw new Error(`${name} ${v}: expected LABEL=${what}`);
    return { label: v.slice(0, eq), value: v.slice(eq + 1) };
  });
}

export interface FirstFindRun {
  /** Wall time of the call, from the request sent to the answer. */
  readonly wallMs: number;
  /** Server CPU time during the call, and in all by its end. */
  readonly cpuMs: number;
  readonly cpuTotalMs: number;
  /** ms from spawn to the first tools/list answer. */
  readonly firstListMs: number;
  readonly rssMiB: number;
}

/**
 * A fresh stdio server (`server`, a launcher such as dist/server.js) on `catalog`, audit off: its first
 * find_relevant_tables, sent `pauseMs` after tools/list is answered (at once by default), timed and measured.
 */
export async function firstFindRun(server: string, catalog: string, query: string, pauseMs = 0): Promise<FirstFindRun> {
  const s = await startStdioServer(process.execPath, [server, '--catalog', catalog, '--no-audit'], { SCHEMABRAIN_HOME: path.dirname(catalog) });
  try {
    if (pauseMs > 0) await new Promise((r) => setTimeout(r, pauseMs));
    const cpu0 = cpuMsOf(s.pid);
    const t0 = performance.now();
    await s.client.callTool({ name: 'find_relevant_tables', arguments: { query } });
    const wallMs = performance.now() - t0;
    const cpuTotalMs = cpuMsOf(s.pid);
    return { wallMs, cpuMs: cpuTotalMs - cpu0, cpuTotalMs, firstListMs: s.firstListMs, rssMiB: memoryOf(s.pid).rssMiB };
  } finally {
    await s.close();
  }
}

/** Runs a benchmark script's main and exits: 0 when it ends, 1 with `label: message` on stderr when it throws. */
export function runMain(label: string, main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (e: unknown) => {
      process.stderr.write(`${label}: ${(e as Error).message}\n`);
      process.exit(1);
    },
  );
}

export function writeResults(name: string, json: unknown, markdown: string): void {
  fs.mkdirSync(RESULTS, { recursive: true });
  fs.writeFileSync(path.join(RESULTS, `${name}.json`), `${JSON.stringify(json, null, 2)}\n`);
  fs.writeFileSync(path.join(RESULTS, `${name}.md`), markdown.endsWith('\n') ? markdown : `${markdown}\n`);
}

export function pass(value: number, target: number): 'pass' | 'miss' {
  return value <= target ? 'pass' : 'miss';
}
