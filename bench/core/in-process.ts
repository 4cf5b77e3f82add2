/**
 * In-process pieces shared by the core and perf benchmarks: one timed runIndex with a per-phase breakdown, and a
 * server built by the real composition root (buildServerDeps) whose callTool is timed without any transport.
 */
import fs from 'node:fs';
import path from 'node:path';
import { runIndex } from '../../src/core/indexing/run-index';
import type { IndexEvent, IndexOutcome } from '../../src/core/indexing/run-index';
import { classifyColumn } from '../../src/core/pii';
import { createIntrospector } from '../../src/core/sources';
import { parseSourceSpec } from '../../src/core/sources/locator';
import { createServer } from '../../src/server/create-server';
import type { SchemaBrainServer } from '../../src/server/create-server';
import type { ServerDeps } from '../../src/server/deps';
import { parseServerOptions } from '../../src/server/options';
import { buildServerDeps } from '../../src/server/run';
import { round } from './measure';

/** The CLI's default sample size (`schemabrain index --sample-rows`), so in-process runs do what the CLI does. */
export const CLI_SAMPLE_ROWS = 200;

export interface TimedIndex {
  readonly ms: number;
  readonly outcome: IndexOutcome;
  /** ms spent from the start of each phase to the start of the next (the first entry covers catalog open and the structure check). */
  readonly phases: Record<string, number>;
}

export async function timedRunIndex(source: string, catalogPath: string, name?: string): Promise<TimedIndex> {
  const spec = parseSourceSpec(source, { name });
  // Until the first progress event: catalog open and the source's structure check.
  const marks: { phase: string; at: number }[] = [{ phase: 'open+check', at: performance.now() }];
  const onEvent = (e: IndexEvent): void => {
    if (e.type !== 'progress') return;
    if (marks[marks.length - 1]!.phase !== e.phase) marks.push({ phase: e.phase, at: performance.now() });
  };
  const t0 = marks[0]!.at;
  const outcome = await runIndex({ spec, sourceInput: source, catalogPath, deps: { createIntrospector, classifyColumn }, sampleRows: CLI_SAMPLE_ROWS, onEvent });
  const end = performance.now();
  const phases: Record<string, number> = {};
  marks.forEach((m, i) => {
    const next = marks[i + 1]?.at ?? end;
    phases[m.phase] = round((phases[m.phase] ?? 0) + next - m.at, 1);
  });
  return { ms: end - t0, outcome, phases };
}

export interface InProcessServer {
  /** Tool calls with the call recorder off: validation + catalog + tool + envelope, nothing written. */
  readonly bare: SchemaBrainServer;
  /** Tool calls as the stdio server makes them: the durable audit append and the event line included. */
  readonly recorded: SchemaBrainServer;
  close(): Promise<void>;
}

/** Both servers share one deps object from the real composition root; audit and events go to `dir`. */
export async function inProcessServer(catalogPath: string, dir: string): Promise<InProcessServer> {
  const env: NodeJS.ProcessEnv = { SCHEMABRAIN_HOME: dir, SCHEMABRAIN_LOG_LEVEL: 'error' };
  const options = parseServerOptions(['--catalog', catalogPath, '--audit-path', path.join(dir, 'audit.log'), '--events-path', path.join(dir, 'events.jsonl')], env);
  const deps: ServerDeps = await buildServerDeps(options, env);
  const bare = createServer({ ...deps, recorder: null });
  const recorded = createServer(deps);
  return {
    bare,
    recorded,
    close: async () => {
      await deps.recorder?.close();
      await deps.connections.close();
      fs.rmSync(path.join(dir, 'audit.log'), { force: true });
    },
  };
}
