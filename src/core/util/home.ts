import os from 'node:os';
import path from 'node:path';

/** `SCHEMABRAIN_HOME`, default `~/.schemabrain/`: the catalog, audit log and events live here. */
export function schemabrainHome(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.SCHEMABRAIN_HOME;
  return fromEnv && fromEnv.trim() ? path.resolve(fromEnv) : path.join(os.homedir(), '.schemabrain');
}

export function defaultCatalogPath(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(schemabrainHome(env), 'catalog.sqlite');
}

/** `$SCHEMABRAIN_HOME/pii-policy.yaml`: used by both the indexer (overrides) and the server (block list) when present. */
export function defaultPolicyPath(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(schemabrainHome(env), 'pii-policy.yaml');
}

export function defaultAuditPath(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(schemabrainHome(env), 'audit.log');
}

export function defaultEventsPath(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.SCHEMABRAIN_EVENTS_PATH;
  return fromEnv && fromEnv.trim() ? path.resolve(fromEnv) : path.join(schemabrainHome(env), 'events.jsonl');
}
