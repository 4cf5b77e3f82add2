import fs from 'node:fs';
import { processAlive } from '../util/process';

/**
 * Progress of an index run, shared between the indexer process and its readers (the MCP server's
 * get_index_status, the VS Code status bar) through `<catalog>.job.json`, in the shape of UDB `udb.status`:
 * state queued|running|succeeded|failed|cancelled and progress 0–100.
 */
export interface JobStatus {
  readonly state: 'idle' | 'running' | 'succeeded' | 'failed' | 'cancelled';
  readonly source?: string;
  readonly phase?: string;
  readonly progress?: number;
  readonly pid?: number;
  readonly startedAt?: string;
  readonly updatedAt?: string;
  readonly errorKind?: string;
  readonly message?: string;
}

export function jobStatusPath(catalogPath: string): string {
  return `${catalogPath}.job.json`;
}

export function writeJobStatus(catalogPath: string, status: JobStatus): void {
  const file = jobStatusPath(catalogPath);
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(tmp, JSON.stringify({ ...status, updatedAt: new Date().toISOString() }), { mode: 0o600 });
    fs.renameSync(tmp, file);
  } catch {
    // Progress reporting is best effort; the index itself must not fail because of it.
  }
}


export function readJobStatus(catalogPath: string): JobStatus {
  let status: JobStatus;
  try {
    status = JSON.parse(fs.readFileSync(jobStatusPath(catalogPath), 'utf8')) as JobStatus;
  } catch {
    return { state: 'idle' };
  }
  if (status.state === 'running' && status.pid && !processAlive(status.pid)) {
    // The indexer died without finishing (killed); the previous catalog is intact.
    return { ...status, state: 'failed', errorKind: 'interrupted', message: 'the index run was interrupted; the previous catalog is unchanged' };
  }
  return status;
}
