import * as vscode from 'vscode';
import type { Prompter } from '../prompter';

/** A prompter that can also answer a multi-select QuickPick (tests install one through `testing.setPrompter`). */
export interface MultiPrompter extends Prompter {
  pickMany<T extends vscode.QuickPickItem>(items: readonly T[], options: vscode.QuickPickOptions): Promise<readonly T[] | undefined>;
}

function isMulti(p: Prompter): p is MultiPrompter {
  return typeof (p as Partial<MultiPrompter>).pickMany === 'function';
}

/**
 * Multi-select through the installed prompter when it has `pickMany`, else the real QuickPick with canPickMany.
 * Resolves undefined when dismissed, an empty list when the user accepted with nothing picked.
 */
export async function pickMany<T extends vscode.QuickPickItem>(prompter: Prompter, items: readonly T[], options: vscode.QuickPickOptions): Promise<readonly T[] | undefined> {
  if (isMulti(prompter)) return prompter.pickMany(items, options);
  return vscode.window.showQuickPick([...items], { ...options, canPickMany: true });
}
