import { promises as fsp } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { CatalogView } from '../../core/catalog/view';
import { loadSemanticSources, type SourceFile } from '../../core/semantic/load';
import type { Diagnostic as DefinitionProblem, DiagnosticFix } from '../../core/semantic/types';
import { DIAGNOSTIC_SOURCE } from '../constants';
import type { Log } from '../log';
import { semanticCatalogOf } from './deps';

export const DEFINITIONS_FOLDER = '.schemabrain';
/** Files the squiggles and quick fixes apply to. */
export const DEFINITION_SELECTOR: vscode.DocumentSelector = [{ scheme: 'file', pattern: '**/.schemabrain/**/*.{yaml,yml}' }];

export function isDefinitionFile(fsPath: string): boolean {
  return /[\\/]\.schemabrain[\\/](?:.*[\\/])?[^\\/]+\.ya?ml$/i.test(fsPath);
}

/** 1-based line/column with an exclusive end column (the loader's convention) → an editor range. */
export function rangeOf(p: Pick<DefinitionProblem, 'line' | 'col' | 'endLine' | 'endCol'>): vscode.Range {
  return new vscode.Range(Math.max(0, p.line - 1), Math.max(0, p.col - 1), Math.max(0, p.endLine - 1), Math.max(0, p.endCol - 1));
}

const SEVERITY: Record<DefinitionProblem['severity'], vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  info: vscode.DiagnosticSeverity.Information,
};

interface StoredFix {
  readonly range: vscode.Range;
  readonly message: string;
  readonly fix: DiagnosticFix;
}

async function listYaml(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (d: string): Promise<void> => {
    let entries: import('node:fs').Dirent[];
    try {
      entries = await fsp.readdir(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const full = path.join(d, e.name);
      if (e.isDirectory()) await walk(full);
      else if (e.isFile() && /\.ya?ml$/i.test(e.name)) out.push(full);
    }
  };
  await walk(dir);
  return out.sort();
}

/**
 * Squiggles for `.schemabrain/**\/*.yaml`: each workspace folder's definitions are loaded together (entities, joins and
 * metrics refer across files), open editors' unsaved text winning over the disk, and validated against the current
 * catalog so unknown tables and columns are flagged. Re-validates on open, edit (debounced), save, close, file
 * create/delete and catalog change.
 */
export class DefinitionDiagnostics implements vscode.Disposable, vscode.CodeActionProvider {
  static readonly providedCodeActionKinds = [vscode.CodeActionKind.QuickFix];
  readonly collection = vscode.languages.createDiagnosticCollection('schemabrain');
  private readonly fixes = new Map<string, StoredFix[]>();
  private readonly disposables: vscode.Disposable[] = [];
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();
  private readonly updated = new vscode.EventEmitter<void>();
  /** Fires after every validation pass (tests wait on it). */
  readonly onDidUpdate = this.updated.event;

  constructor(
    private readonly catalog: () => CatalogView | undefined,
    private readonly log: Log,
    private readonly debounceMs = 300,
  ) {
    const onDoc = (d: vscode.TextDocument): void => {
      if (d.uri.scheme === 'file' && isDefinitionFile(d.uri.fsPath)) this.schedule();
    };
    const watcher = vscode.workspace.createFileSystemWatcher('**/.schemabrain/**/*.{yaml,yml}');
    this.disposables.push(
      this.collection,
      this.updated,
      watcher,
      watcher.onDidCreate(() => this.schedule()),
      watcher.onDidDelete(() => this.schedule()),
      vscode.workspace.onDidOpenTextDocument(onDoc),
      vscode.workspace.onDidChangeTextDocument((e) => onDoc(e.document)),
      vscode.workspace.onDidSaveTextDocument(onDoc),
      vscode.workspace.onDidCloseTextDocument(onDoc),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.schedule()),
      vscode.languages.registerCodeActionsProvider(DEFINITION_SELECTOR, this, { providedCodeActionKinds: DefinitionDiagnostics.providedCodeActionKinds }),
    );
  }

  /** Validates after a quiet period, so typing does not reload on every keystroke. */
  schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.validateNow();
    }, this.debounceMs);
  }

  /** Validates every workspace folder now (passes run one after another). */
  validateNow(): Promise<void> {
    this.running = this.running.then(() => this.validate()).catch((e: unknown) => this.log.error(`definition diagnostics failed: ${(e as Error).message}`));
    return this.running;
  }

  private async validate(): Promise<void> {
    const view = this.catalog();
    const cat = view && !view.isEmpty ? semanticCatalogOf(view) : undefined;
    const open = new Map(vscode.workspace.textDocuments.filter((d) => d.uri.scheme === 'file').map((d) => [d.uri.fsPath, d]));
    const byFile = new Map<string, DefinitionProblem[]>();
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      if (folder.uri.scheme !== 'file') continue;
      const files = await listYaml(path.join(folder.uri.fsPath, DEFINITIONS_FOLDER));
      const sources: SourceFile[] = [];
      for (const f of files) {
        const doc = open.get(f);
        try {
          sources.push({ path: f, text: doc ? doc.getText() : await fsp.readFile(f, 'utf8') });
        } catch {
          // deleted between listing and reading
        }
      }
      for (const f of files) byFile.set(f, []);
      if (!sources.length) continue;
      for (const d of loadSemanticSources(sources, cat).diagnostics) byFile.get(d.file)?.push(d);
    }
    this.collection.clear();
    this.fixes.clear();
    for (const [file, problems] of byFile) {
      if (!problems.length) continue;
      const uri = vscode.Uri.file(file);
      const fixes: StoredFix[] = [];
      this.collection.set(
        uri,
        problems.map((p) => {
          const d = new vscode.Diagnostic(rangeOf(p), p.message, SEVERITY[p.severity]);
          d.source = DIAGNOSTIC_SOURCE;
          d.code = p.code;
          if (p.fix) fixes.push({ range: d.range, message: p.message, fix: p.fix });
          return d;
        }),
      );
      this.fixes.set(uri.toString(), fixes);
    }
    this.updated.fire();
  }

  /** The quick fix a diagnostic carries: replace the flagged text with the loader's suggestion. */
  provideCodeActions(document: vscode.TextDocument, _range: vscode.Range | vscode.Selection, context: vscode.CodeActionContext): vscode.CodeAction[] {
    const stored = this.fixes.get(document.uri.toString()) ?? [];
    const out: vscode.CodeAction[] = [];
    for (const d of context.diagnostics) {
      if (d.source !== DIAGNOSTIC_SOURCE) continue;
      const hit = stored.find((s) => s.range.isEqual(d.range) && s.message === d.message);
      if (!hit) continue;
      const action = new vscode.CodeAction(hit.fix.title, vscode.CodeActionKind.QuickFix);
      action.edit = new vscode.WorkspaceEdit();
      action.edit.replace(document.uri, d.range, hit.fix.replacement);
      action.diagnostics = [d];
      action.isPreferred = true;
      out.push(action);
    }
    return out;
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    for (const d of this.disposables) d.dispose();
  }
}
