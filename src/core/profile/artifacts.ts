import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { schemabrainHome } from '../util/home';
import { nearestExisting, nonDirectoryInTheWay } from '../util/regular-file';
import { renderProfileHtml, renderQualityHtml } from './report';
import type { JobInfo } from './report';
import type { ColumnProfile, QualityFinding, TableProfile } from './types';
import { makeDirs } from '../util/make-dirs';

/**
 * Profile and quality artifacts (seed 004 `udb.analyze`: profileHtml/profileJson/qualityHtml/qualityJson) under
 * `$SCHEMABRAIN_HOME/artifacts/<job id>/`. Directories 0700 and files 0600 like the rest of SCHEMABRAIN_HOME; only
 * the newest `KEEP_JOBS` profile jobs are kept so the folder cannot grow without bound.
 */

export const KEEP_JOBS = 50;

export interface ArtifactPaths {
  readonly profileHtml: string;
  readonly profileJson: string;
  readonly qualityHtml: string;
  readonly qualityJson: string;
}

export function artifactsRoot(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(schemabrainHome(env), 'artifacts');
}

/** Sortable by time, unique enough for one user: `profile-20250101T120000Z-1a2b3c`. */
export function newJobId(now: Date = new Date()): string {
  return `profile-${now.toISOString().replace(/[-:]/g, '').replace(/\.\d+/, '')}-${crypto.randomBytes(3).toString('hex')}`;
}

export function jobInfo(jobId: string): JobInfo {
  return { job_id: jobId, state: 'succeeded', progress: 100 };
}

export function columnWire(c: ColumnProfile, detailed = true): Record<string, unknown> {
  const o: Record<string, unknown> = { name: c.name, type: c.type };
  if (c.redacted) o.redacted = true;
  if (c.piiCategories.length) o.pii_categories = c.piiCategories;
  o.null_fraction = c.nullFraction;
  o.distinct_estimate = c.distinctEstimate;
  if (c.min !== null) o.min = c.min;
  if (c.max !== null) o.max = c.max;
  if (c.topValues.length) o.top_values = (detailed ? c.topValues : c.topValues.slice(0, 3)).map((t) => ({ value: t.value, frequency: t.frequency }));
  if (detailed) {
    o.nullable = c.nullable;
    o.avg_width = c.avgWidth;
  }
  o.origin = c.origin;
  return o;
}

export function findingWire(f: QualityFinding): Record<string, unknown> {
  return {
    kind: f.kind,
    severity: f.severity,
    column: f.column,
    message: f.message,
    count: f.count,
    checked: f.checked,
    ...(f.references ? { references: f.references, basis: f.basis } : {}),
    ...(f.examples ? { examples: f.examples } : {}),
  };
}

export function sampleWire(p: TableProfile): Record<string, unknown> {
  const s = p.sample;
  return { method: s.method, requested_rows: s.requestedRows, rows: s.rows, complete: s.complete, ...(s.error ? { error: s.error } : {}) };
}

export function profileDocument(p: TableProfile, job: JobInfo): Record<string, unknown> {
  return {
    kind: 'schemabrain.profile',
    version: 1,
    job,
    qualified_name: p.qualifiedName,
    source: p.source,
    engine: p.engine,
    row_estimate: p.rowEstimate,
    profiled_at: p.profiledAt,
    sample: { ...sampleWire(p), sql: p.sample.sql },
    columns: p.columns.map((c) => columnWire(c)),
    notes: p.notes,
  };
}

export function qualityDocument(p: TableProfile, job: JobInfo): Record<string, unknown> {
  return {
    kind: 'schemabrain.quality',
    version: 1,
    job,
    qualified_name: p.qualifiedName,
    source: p.source,
    profiled_at: p.profiledAt,
    sample: sampleWire(p),
    findings: p.findings.map(findingWire),
    checks: p.checks.map((c) => ({ rule: c.rule, column: c.column, ok: c.ok, ...(c.note ? { note: c.note } : {}) })),
    notes: p.notes,
  };
}

/** Best effort: cleaning up after a failed write must not hide why it failed. */
function removeQuietly(p: string): void {
  try {
    fs.rmSync(p, { recursive: true, force: true });
  } catch {
    // the original error is the one worth reporting
  }
}

function writePrivate(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(tmp, text, { mode: 0o600 });
    fs.renameSync(tmp, file);
  } catch (e) {
    removeQuietly(tmp);
    throw e;
  }
}

/**
 * The reports could not be written: `$SCHEMABRAIN_HOME` or its `artifacts/` folder is not a directory (a regular
 * file in the way), is not writable, or its disk is full. Tools answer it as an envelope error naming the folder and
 * the reason; nothing half-written is left behind.
 */
export class ArtifactsError extends Error {
  constructor(
    readonly dir: string,
    readonly reason: string,
  ) {
    super(`cannot write the profile reports under ${dir}: ${reason}`);
    this.name = 'ArtifactsError';
  }
}

function artifactsError(root: string, e: unknown): ArtifactsError {
  const code = (e as NodeJS.ErrnoException).code;
  const blocker = nonDirectoryInTheWay(root);
  if (blocker !== null || code === 'ENOTDIR' || code === 'EEXIST') return new ArtifactsError(root, `${blocker ?? root} is not a directory; SCHEMABRAIN_HOME must be a writable folder`);
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') return new ArtifactsError(root, `${nearestExisting(root)} is not writable (${code}); SCHEMABRAIN_HOME must be a writable folder`);
  if (code === 'ENOSPC' || code === 'EDQUOT') return new ArtifactsError(root, `the disk is full (${code})`);
  return new ArtifactsError(root, code ?? (e as Error).message);
}

/**
 * Creates the artifacts folder and checks that it can be written, so a profile fails before it samples the
 * database rather than after. Throws {@link ArtifactsError}.
 */
export function ensureArtifactsRoot(root: string): void {
  try {
    makeDirs(root, 0o700);
    if (!fs.statSync(root).isDirectory()) throw Object.assign(new Error(`${root} is not a directory`), { code: 'ENOTDIR' });
    fs.accessSync(root, fs.constants.W_OK | fs.constants.X_OK);
  } catch (e) {
    throw artifactsError(root, e);
  }
}

/** Writes the four artifacts for one job and returns their absolute paths. Throws {@link ArtifactsError}. */
export function writeProfileArtifacts(root: string, jobId: string, p: TableProfile): ArtifactPaths {
  if (!/^[A-Za-z0-9._-]+$/.test(jobId)) throw new Error(`invalid job id '${jobId}'`);
  const dir = path.resolve(root, jobId);
  const job = jobInfo(jobId);
  const paths: ArtifactPaths = {
    profileHtml: path.join(dir, 'profile.html'),
    profileJson: path.join(dir, 'profile.json'),
    qualityHtml: path.join(dir, 'quality.html'),
    qualityJson: path.join(dir, 'quality.json'),
  };
  let created = false;
  try {
    created = makeDirs(dir, 0o700) !== undefined;
    writePrivate(paths.profileJson, `${JSON.stringify(profileDocument(p, job), null, 2)}\n`);
    writePrivate(paths.qualityJson, `${JSON.stringify(qualityDocument(p, job), null, 2)}\n`);
    writePrivate(paths.profileHtml, renderProfileHtml(p, job));
    writePrivate(paths.qualityHtml, renderQualityHtml(p, job));
  } catch (e) {
    // a job folder with some reports missing would be listed as a finished job
    if (created) removeQuietly(dir);
    throw artifactsError(root, e);
  }
  pruneJobs(root, KEEP_JOBS);
  return paths;
}

/** Removes the oldest `profile-*` job folders beyond `keep` (names sort by time). Best effort. */
export function pruneJobs(root: string, keep: number): void {
  try {
    const jobs = fs
      .readdirSync(root, { withFileTypes: true })
      .filter((d) => d.isDirectory() && d.name.startsWith('profile-'))
      .map((d) => d.name)
      .sort();
    for (const name of jobs.slice(0, Math.max(0, jobs.length - keep))) fs.rmSync(path.join(root, name), { recursive: true, force: true });
  } catch {
    // pruning must never fail a profile
  }
}
