import fs from 'node:fs';
import * as vscode from 'vscode';
import type { SchemaBrainApi } from '../../src/extension/extension';
import type { Prompter } from '../../src/extension/prompter';
import type { ConnectionCommandResult } from '../../src/extension/commands/connection-commands';
import type { FormAction, FormValues } from '../../src/extension/webviews/connection-form';

export interface Fixtures {
  readonly home: string;
  readonly itHome: string;
  readonly workspace: string;
  readonly chinook: string;
  readonly musicbrainz: string;
  readonly pg: { host: string; port: number; database: string; user: string };
  readonly secure: { host: string; port: number; database: string; user: string; canary: string } | null;
  readonly preindexed: boolean;
}

export function fixtures(): Fixtures {
  const file = process.env.SB_TEST_FIXTURES_FILE;
  if (!file) throw new Error('SB_TEST_FIXTURES_FILE is not set: run through scripts/vscode/run-tests.mjs');
  return JSON.parse(fs.readFileSync(file, 'utf8')) as Fixtures;
}

let api: SchemaBrainApi | undefined;
export async function activateApi(): Promise<SchemaBrainApi> {
  if (api) return api;
  const ext = vscode.extensions.getExtension<SchemaBrainApi>('schemabrain.schemabrain');
  if (!ext) throw new Error('extension schemabrain.schemabrain not found');
  api = await ext.activate();
  return api;
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export async function waitFor<T>(what: string, fn: () => T | Promise<T>, timeoutMs = 30_000, stepMs = 250): Promise<NonNullable<T>> {
  const t0 = Date.now();
  let last: T | undefined;
  while (Date.now() - t0 < timeoutMs) {
    last = await fn();
    if (last) return last as NonNullable<T>;
    await sleep(stepMs);
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} (last: ${JSON.stringify(last)?.slice(0, 300)})`);
}

/**
 * A scripted prompter: answers QuickPicks by label and InputBoxes by title substring, in order, and records every
 * prompt so a check can assert the flow asked what it should. Validation functions run on the given answers.
 */
export class ScriptedPrompter implements Prompter {
  readonly asked: string[] = [];
  readonly validationErrors: string[] = [];
  constructor(private readonly answers: Array<{ match: RegExp; answer: string | undefined }>, private readonly file?: string) {}

  private next(title: string): string | undefined {
    this.asked.push(title);
    const i = this.answers.findIndex((a) => a.match.test(title));
    if (i < 0) throw new Error(`unexpected prompt: ${title}`);
    const [a] = this.answers.splice(i, 1);
    return a!.answer;
  }

  async pick<T extends vscode.QuickPickItem>(items: readonly T[], options: vscode.QuickPickOptions): Promise<T | undefined> {
    const label = this.next(options.title ?? options.placeHolder ?? 'pick');
    return label === undefined ? undefined : items.find((i) => i.label === label);
  }

  async input(options: vscode.InputBoxOptions): Promise<string | undefined> {
    const answer = this.next(options.title ?? options.prompt ?? 'input');
    if (answer !== undefined && options.validateInput) {
      const err = await options.validateInput(answer);
      if (err) {
        this.validationErrors.push(typeof err === 'string' ? err : err.message);
        return undefined;
      }
    }
    return answer;
  }

  async openFile(): Promise<vscode.Uri | undefined> {
    this.asked.push('openFile');
    return this.file ? vscode.Uri.file(this.file) : undefined;
  }

  /** Where Save dialogs (Export CSV) answer; undefined dismisses them. */
  saveTo: string | undefined;

  async saveFile(options: vscode.SaveDialogOptions): Promise<vscode.Uri | undefined> {
    this.asked.push(`saveFile: ${options.title ?? ''}`);
    return this.saveTo ? vscode.Uri.file(this.saveTo) : undefined;
  }

  /** An answer scripted for `choose: <message>` when there is one; otherwise Remove when offered, else dismissed. */
  async choose(_severity: string, message: string, ...buttons: string[]): Promise<string | undefined> {
    const title = `choose: ${message}`;
    const i = this.answers.findIndex((a) => a.match.test(title));
    this.asked.push(title);
    if (i >= 0) return this.answers.splice(i, 1)[0]!.answer;
    return buttons.includes('Remove') ? 'Remove' : undefined;
  }
}

export function bench(key: string, value: unknown): void {
  const g = globalThis as { __sbBench?: Record<string, unknown> };
  g.__sbBench = { ...(g.__sbBench ?? {}), [key]: value };
}

/**
 * Runs Add Connection with no arguments (it opens the connection form), waits for the page to load, then submits
 * the values as the form's buttons do; resolves with the command's result once the form saved or closed.
 */
export async function addThroughForm(api: SchemaBrainApi, action: FormAction, values: FormValues, command = 'schemabrain.addConnection', ...args: unknown[]): Promise<ConnectionCommandResult> {
  const pending = vscode.commands.executeCommand(command, ...args) as Thenable<ConnectionCommandResult>;
  const form = await waitFor('the connection form', () => (api.connectionForm()?.isReady ? api.connectionForm() : undefined), 30_000, 100);
  const reply = await form.submit(action, values);
  if (!reply.saved) form.panel.dispose();
  return pending;
}
