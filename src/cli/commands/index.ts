import type { CliCommand } from '../command';

/**
 * Every CLI verb, listed by hand. A verb's module is required only when that verb runs: `index` never pays for the
 * MCP client `demo` uses or the tool schemas `metric` builds, which keeps each start-up (and every indexer the
 * editor spawns) short. The summaries are repeated here for `--help`; a test keeps them equal to the modules'.
 */
export interface CommandEntry {
  readonly name: string;
  readonly summary: string;
  load(): CliCommand;
}

export const commands: readonly CommandEntry[] = [
  { name: 'index', summary: 'Index a PostgreSQL or MySQL/MariaDB database or a SQLite file into the catalog', load: () => (require('./index-source') as typeof import('./index-source')).indexCommand },
  { name: 'serve', summary: 'Run the MCP server on stdio (what MCP clients launch)', load: () => (require('./serve') as typeof import('./serve')).serveCommand },
  { name: 'tail', summary: 'Print tool-call events as they happen (redacted); --no-follow prints and exits', load: () => (require('./tail') as typeof import('./tail')).tailCommand },
  { name: 'audit verify', summary: 'Check the audit log hash chain (and its anchor): exit 0 intact, 1 broken', load: () => (require('./audit') as typeof import('./audit')).auditVerifyCommand },
  { name: 'audit list', summary: 'List audit rows (newest first), filtered by time, status or tool', load: () => (require('./audit') as typeof import('./audit')).auditListCommand },
  { name: 'audit keygen', summary: 'Create the Ed25519 key pair for signed audit checkpoints (keep the private key away from the server)', load: () => (require('./audit-checkpoint') as typeof import('./audit-checkpoint')).auditKeygenCommand },
  { name: 'audit checkpoint', summary: 'Verify the audit log and append a signed checkpoint of its head (run by a witness, not the server)', load: () => (require('./audit-checkpoint') as typeof import('./audit-checkpoint')).auditCheckpointCommand },
  { name: 'token create', summary: 'Issue a bearer token for a team server (printed once; only its hash is stored)', load: () => (require('./token') as typeof import('./token')).tokenCreateCommand },
  { name: 'token revoke', summary: 'Revoke a team server token by its id (every replica stops accepting it)', load: () => (require('./token') as typeof import('./token')).tokenRevokeCommand },
  { name: 'token list', summary: 'List team server tokens (ids, principals, roles, expiry; never the tokens)', load: () => (require('./token') as typeof import('./token')).tokenListCommand },
  { name: 'definitions publish', summary: 'Publish .schemabrain/ definitions to a team store (versioned, with who and when)', load: () => (require('./definitions') as typeof import('./definitions')).definitionsPublishCommand },
  { name: 'pii-policy publish', summary: 'Publish the PII policy and per-role blocks to a team store (every replica applies them)', load: () => (require('./definitions') as typeof import('./definitions')).piiPolicyPublishCommand },
  { name: 'check', summary: 'Check .schemabrain/ definitions against the catalog (drift, bad references); exit 1 on problems', load: () => (require('./check') as typeof import('./check')).checkCommand },
  { name: 'metric', summary: 'Compute a governed metric from .schemabrain/ definitions (get_metric); exit 1 when refused', load: () => (require('./metric') as typeof import('./metric')).metricCommand },
  { name: 'profile', summary: 'Profile a table and check its data quality (profile_table); writes HTML/JSON reports', load: () => (require('./profile') as typeof import('./profile')).profileCommand },
  { name: 'query', summary: 'Run one read-only SQL statement as the agent would (run_query: guard, PII masking, caps, audit)', load: () => (require('./query') as typeof import('./query')).queryCommand },
  { name: 'role-sql', summary: 'Print the SQL for a dedicated read-only PostgreSQL role for SchemaBrain (pg_read_all_data on 14+)', load: () => (require('./role-sql') as typeof import('./role-sql')).roleSqlCommand },
  { name: 'init', summary: 'Print or write the MCP client configuration that starts this server (VS Code, Claude, Cursor)', load: () => (require('./init') as typeof import('./init')).initCommand },
  { name: 'demo', summary: 'Index the bundled Chinook sample and run a scripted agent session against it through a real MCP client', load: () => (require('./demo') as typeof import('./demo')).demoCommand },
];
