import fs from 'node:fs';
import * as vscode from 'vscode';
import { CatalogProvider, type CatalogState } from '../core/catalog/provider';

/**
 * Follows the catalog file: the indexer replaces it by atomic rename, so a 1 s stat poll (fs.watchFile) sees every
 * new generation without holding the file open. Fires with the new state after a reload.
 */
export class CatalogWatcher implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<CatalogState>();
  readonly onDidChange = this.emitter.event;
  private provider: CatalogProvider;
  private watchedPath: string;
  private lastGeneration: number | null = null;

  constructor(catalogPath: string, private readonly intervalMs = 1000) {
    this.watchedPath = catalogPath;
    this.provider = new CatalogProvider(catalogPath);
    this.watch();
  }

  get path(): string {
    return this.watchedPath;
  }

  /** Switches to another catalog file (the catalog home setting changed). */
  setPath(catalogPath: string): void {
    if (catalogPath === this.watchedPath) return;
    fs.unwatchFile(this.watchedPath);
    this.watchedPath = catalogPath;
    this.provider = new CatalogProvider(catalogPath);
    this.lastGeneration = null;
    this.watch();
    void this.check(true);
  }

  get(): Promise<CatalogState> {
    return this.provider.get();
  }

  /** Re-reads now and fires when anything changed (or always, with `force`). */
  async check(force = false): Promise<CatalogState> {
    const state = await this.provider.get();
    const gen = state.state === 'ready' ? state.view.generation : null;
    if (force || gen !== this.lastGeneration) {
      this.lastGeneration = gen;
      this.emitter.fire(state);
    }
    return state;
  }

  private watch(): void {
    fs.watchFile(this.watchedPath, { interval: this.intervalMs, persistent: false }, () => void this.check());
  }

  dispose(): void {
    fs.unwatchFile(this.watchedPath);
    this.emitter.dispose();
  }
}
