import * as vscode from 'vscode';
import { buttonText, toastText } from './ui-text';

/**
 * The interactive surface commands use. The default goes to vscode.window; tests install a scripted one through
 * the extension's API so the guided flows run headless, unchanged.
 */
export interface Prompter {
  pick<T extends vscode.QuickPickItem>(items: readonly T[], options: vscode.QuickPickOptions): Promise<T | undefined>;
  input(options: vscode.InputBoxOptions): Promise<string | undefined>;
  openFile(options: vscode.OpenDialogOptions): Promise<vscode.Uri | undefined>;
  /** Where to write a file (Export CSV); the window's save dialog when absent. */
  saveFile?(options: vscode.SaveDialogOptions): Promise<vscode.Uri | undefined>;
  /** Modal-free choice among buttons on a message; resolves to the chosen label or undefined. */
  choose(severity: 'info' | 'warning' | 'error', message: string, ...buttons: string[]): Promise<string | undefined>;
}

export const windowPrompter: Prompter = {
  pick: async (items, options) => vscode.window.showQuickPick([...items], options),
  input: async (options) => vscode.window.showInputBox(options),
  openFile: async (options) => (await vscode.window.showOpenDialog(options))?.[0],
  saveFile: async (options) => vscode.window.showSaveDialog(options),
  choose: async (severity, message, ...buttons) => {
    const show =
      severity === 'error' ? vscode.window.showErrorMessage : severity === 'warning' ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
    // Buttons are matched by label: the chosen one is mapped back to the label the caller gave.
    const shown = buttons.map(buttonText);
    const picked = await show(toastText(message), ...shown);
    return picked === undefined ? undefined : buttons[shown.indexOf(picked)];
  },
};

/** Records what the user was told, so checks can assert the exact message and next step. */
export interface Notice {
  readonly severity: 'info' | 'warning' | 'error';
  readonly message: string;
  /** The buttons the toast offered. */
  readonly buttons: readonly string[];
}

export class Notifier {
  readonly notices: Notice[] = [];
  constructor(private readonly prompter: () => Prompter) {}

  /** Shows the message without waiting for the user (buttons resolve later through `onChoice`). */
  notify(severity: Notice['severity'], message: string, buttons: readonly string[] = [], onChoice?: (choice: string) => void): void {
    this.notices.push({ severity, message: toastText(message), buttons });
    if (this.notices.length > 200) this.notices.shift();
    void this.prompter()
      .choose(severity, message, ...buttons)
      .then((c) => (c && onChoice ? onChoice(c) : undefined));
  }
}
