import fs from 'node:fs';
import { quickUnchanged } from '../core/indexing/unchanged';
import { createIntrospector } from '../core/sources/create-introspector';
import { defaultPolicyPath } from '../core/util/home';
import type { CliIO } from './command';
import { EXIT_OK } from './command';
import { endOnClosedOutput } from './io';
import { indexPassword, jsonOutput, parseIndexArgs, progressPrinter, reportIndexError, reportOutcome } from './commands/index-common';
import { terminalStream } from '../core/util/terminal-text';

/**
 * dist/cli-index.bundle.js: what `schemabrain index` runs before the rest of the CLI is loaded. A re-index whose
 * structure digest matches the catalog's summary is answered here (a process start, one connection, one query),
 * the same lines and exit code as the full command; anything else is handed to the full command, with the password
 * when this step already read it. The launcher (src/launch/code-cache.ts) calls `quickIndex`.
 */

export type QuickAnswer = { readonly code: number } | { readonly handoff: CliIO['prefetchedPassword'] };

/** Options this step leaves to the full command: another target, a forced or repairing run, or help. */
const FULL_ONLY = /^--(store|full|rebuild|help)(=|$)|^-h$/;

export async function quickIndex(argv: readonly string[], io: CliIO): Promise<QuickAnswer> {
  if (argv.some((a) => FULL_ONLY.test(a))) return { handoff: undefined };
  let args;
  try {
    args = parseIndexArgs(argv, io.env);
  } catch {
    return { handoff: undefined }; // the full command reports usage errors in its own words
  }
  // A PII policy file is read (and checked) by the full command on every run, unchanged or not.
  if (args.policyFile !== undefined || fs.existsSync(defaultPolicyPath(io.env))) return { handoff: undefined };
  const json = jsonOutput(argv, io);
  const controller = new AbortController();
  const onSignal = (): void => controller.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  let password: string | undefined;
  let read = false;
  try {
    password = await indexPassword(args, io);
    read = true;
    const { spec } = args;
    const progress = progressPrinter(spec.name, json, io);
    const outcome = await quickUnchanged({
      spec,
      catalogPath: args.catalogPath,
      introspector: () => createIntrospector(spec, { password }),
      schemas: args.schemas,
      sampleRows: args.sampleRows,
      signal: controller.signal,
      onEvent: progress.onEvent,
    });
    if (outcome === null) return { handoff: { value: password } };
    progress.finish();
    reportOutcome(outcome, args.catalogPath, json, io);
    return { code: EXIT_OK };
  } catch (e) {
    if (!read) return { handoff: undefined }; // the secret channel failed: the full command says why
    return { code: reportIndexError(e, args.catalogPath, json, io) };
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

/** The launcher's entry: answers with the real streams, or calls `full` to run the whole CLI in this process. */
export function runQuickIndex(argv: readonly string[], full: (prefetched: CliIO['prefetchedPassword']) => void): void {
  endOnClosedOutput();
  const io: CliIO = { stdout: process.stdout.isTTY ? terminalStream(process.stdout) : process.stdout, stderr: terminalStream(process.stderr), env: process.env, isTTY: Boolean(process.stdout.isTTY) };
  quickIndex(argv, io).then(
    (answer) => {
      if ('code' in answer) process.exitCode = answer.code;
      else full(answer.handoff);
    },
    () => full(undefined),
  );
}
