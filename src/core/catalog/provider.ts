import fs from 'node:fs';
import { CatalogError, CatalogStore } from './store';
import { CatalogView } from './view';

export type CatalogState =
  | { readonly state: 'ready'; readonly view: CatalogView }
  | { readonly state: 'missing'; readonly path: string }
  | { readonly state: 'unreadable'; readonly path: string; readonly reason: string };

/**
 * Keeps the current CatalogView for a catalog file and reloads it when the file is replaced (the indexer renames a
 * new file into place, so inode, size or mtime change). A `stat` per call is the whole cost when nothing changed.
 */
export class CatalogProvider {
  private current: CatalogState | null = null;
  private stamp = '';
  private loading: Promise<CatalogState> | null = null;

  constructor(
    readonly path: string,
    private readonly onReload?: (view: CatalogView) => void,
  ) {}

  async get(): Promise<CatalogState> {
    let stamp: string;
    try {
      const s = fs.statSync(this.path);
      stamp = `${s.ino}:${s.size}:${s.mtimeMs}`;
    } catch {
      this.stamp = '';
      this.current = { state: 'missing', path: this.path };
      return this.current;
    }
    if (this.current && stamp === this.stamp) return this.current;
    if (this.loading) return this.loading;
    this.loading = this.load(stamp);
    try {
      return await this.loading;
    } finally {
      this.loading = null;
    }
  }

  private async load(stamp: string): Promise<CatalogState> {
    try {
      const store = await CatalogStore.open(this.path);
      let owned = false;
      try {
        // Relations are read on demand when the indexer saved the view's frame with this generation (the view
        // then owns the open store); else all of them now.
        const opened = CatalogView.open(store);
        owned = opened.owned;
        this.current = { state: 'ready', view: opened.view };
        this.onReload?.(opened.view);
      } finally {
        if (!owned) store.close();
      }
    } catch (e) {
      if (e instanceof CatalogError && e.code === 'not_found') this.current = { state: 'missing', path: this.path };
      else this.current = { state: 'unreadable', path: this.path, reason: (e as Error).message };
    }
    this.stamp = stamp;
    return this.current;
  }
}
