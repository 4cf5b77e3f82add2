import { promises as fsp } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { Notifier, Prompter } from '../prompter';
import { toCsv, toTsv, type CellRange, type TableData } from './table-text';

/** What a results grid asks of the extension: its buttons and keys (Copy, Export CSV). */
export type TableAction = { readonly type: 'copy'; readonly range: CellRange | null } | { readonly type: 'exportCsv' };

/** What the last action did (tests and the panel read it). */
export type TableActionOutcome =
  | { readonly kind: 'copied'; readonly text: string; readonly cells: number }
  | { readonly kind: 'exported'; readonly file: string; readonly rows: number }
  | { readonly kind: 'cancelled' }
  | { readonly kind: 'failed'; readonly message: string };

export interface TableActionDeps {
  readonly prompter: () => Prompter;
  readonly notifier: Notifier;
}

/** Copies the selected cells (or everything, with a header row) as tab-separated text. */
export async function copyTable(data: TableData, range: CellRange | null): Promise<TableActionOutcome> {
  const text = toTsv(data, range ?? undefined);
  await vscode.env.clipboard.writeText(text);
  const cells = range ? (Math.abs(range.r1 - range.r0) + 1) * (Math.abs(range.c1 - range.c0) + 1) : data.rows.length * data.columns.length;
  vscode.window.setStatusBarMessage(range ? `Copied ${cells} cell${cells === 1 ? '' : 's'}` : `Copied ${data.rows.length} rows with headers`, 3000);
  return { kind: 'copied', text, cells };
}

/** Asks where (save dialog, defaulting to the workspace folder) and writes the rows as CSV. */
export async function exportTableCsv(deps: TableActionDeps, data: TableData, baseName: string): Promise<TableActionOutcome> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const safe = baseName.replace(/[^\w.-]+/g, '_').replace(/^_+|_+$/g, '') || 'rows';
  const options: vscode.SaveDialogOptions = {
    title: 'SchemaBrain: export the rows as CSV',
    saveLabel: 'Export CSV',
    filters: { CSV: ['csv'] },
    ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, `${safe}.csv`) } : {}),
  };
  const p = deps.prompter();
  const uri = p.saveFile ? await p.saveFile(options) : await vscode.window.showSaveDialog(options);
  if (!uri) return { kind: 'cancelled' };
  try {
    if (uri.scheme === 'file') {
      await fsp.mkdir(path.dirname(uri.fsPath), { recursive: true });
      await fsp.writeFile(uri.fsPath, toCsv(data), 'utf8');
    } else await vscode.workspace.fs.writeFile(uri, Buffer.from(toCsv(data), 'utf8'));
  } catch (e) {
    const message = `could not write ${uri.fsPath}: ${(e as Error).message}`;
    deps.notifier.notify('error', `SchemaBrain: ${message}`);
    return { kind: 'failed', message };
  }
  deps.notifier.notify('info', `SchemaBrain: exported ${data.rows.length} rows to ${uri.fsPath}`, ['Open'], (c) => {
    if (c === 'Open') void vscode.window.showTextDocument(uri);
  });
  return { kind: 'exported', file: uri.fsPath, rows: data.rows.length };
}

/** Runs one action from a grid on `data`. */
export function runTableAction(deps: TableActionDeps, action: TableAction, data: TableData, baseName: string): Promise<TableActionOutcome> {
  return action.type === 'copy' ? copyTable(data, action.range) : exportTableCsv(deps, data, baseName);
}
