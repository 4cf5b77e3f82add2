/** Table profiling and data-quality findings (UDB `udb.analyze`), engine-neutral over a guarded query callback. */
export type * from './types';
export { profileTable, type ProfileInput } from './profile';
export { planSample, sampleSql, typeClass, PROFILE_MARKER, MAX_SAMPLE_ROWS, type SamplePlan, type TypeClass } from './sample';
export { referenceCandidates, type ReferenceCandidate } from './references';
export { parseDate } from './quality';
export { escapeHtml, renderProfileHtml, renderQualityHtml, type JobInfo } from './report';
export {
  ArtifactsError,
  artifactsRoot,
  columnWire,
  ensureArtifactsRoot,
  findingWire,
  jobInfo,
  KEEP_JOBS,
  newJobId,
  profileDocument,
  pruneJobs,
  qualityDocument,
  sampleWire,
  writeProfileArtifacts,
  type ArtifactPaths,
} from './artifacts';
