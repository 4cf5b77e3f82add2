import fs from 'node:fs';
import type { StoredSource } from './store';

/**
 * `<catalog>.summary.json`: the generation and the sources (with their structure digests) of the catalog file as
 * saved, stamped with that file's inode, size, mtime and ctime. An unchanged re-index compares digests with it and
 * never loads the SQLite engine or reads the catalog. Any other write of the catalog changes the stamp (a rename
 * brings a new inode, an in-place copy a new ctime), and a summary whose stamp does not match is ignored.
 */
export interface CatalogSummary {
  readonly generation: number;
  readonly sources: readonly StoredSource[];
}

export function catalogSummaryPath(catalogPath: string): string {
  return `${catalogPath}.summary.json`;
}

function fileStamp(filePath: string): string {
  const st = fs.statSync(filePath, { bigint: true });
  return `${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
}

export function writeCatalogSummary(catalogPath: string, generation: number, sources: readonly StoredSource[]): void {
  const file = catalogSummaryPath(catalogPath);
  try {
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify({ stamp: fileStamp(catalogPath), generation, sources }), { mode: 0o600 });
    fs.renameSync(tmp, file);
  } catch {
    // Only a shortcut: without it the next re-index opens the catalog.
    fs.rmSync(file, { force: true });
  }
}

/** The summary of the catalog file as it is now, or null when there is none or it belongs to another write. */
export function readCatalogSummary(catalogPath: string): CatalogSummary | null {
  try {
    const raw = JSON.parse(fs.readFileSync(catalogSummaryPath(catalogPath), 'utf8')) as { stamp?: unknown; generation?: unknown; sources?: unknown };
    if (typeof raw.stamp !== 'string' || raw.stamp !== fileStamp(catalogPath) || typeof raw.generation !== 'number' || !Array.isArray(raw.sources)) return null;
    return { generation: raw.generation, sources: raw.sources as StoredSource[] };
  } catch {
    return null;
  }
}
