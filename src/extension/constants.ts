import { CATASTROPHIC_PII } from '../core/envelope/kinds';

/** Every id the manifest (package.json `contributes`) and the code share. Keep in sync with scripts/vscode/contributes.mjs. */
export const EXTENSION_ID = 'schemabrain.schemabrain';

export const VIEW_CONTAINER_ID = 'schemabrain';
export const VIEW_IDS = {
  connections: 'schemabrain.connections',
  metrics: 'schemabrain.metrics',
  audit: 'schemabrain.audit',
} as const;

export const COMMAND_IDS = {
  addConnection: 'schemabrain.addConnection',
  editConnection: 'schemabrain.editConnection',
  removeConnection: 'schemabrain.removeConnection',
  indexConnection: 'schemabrain.indexConnection',
  reindexAll: 'schemabrain.reindexAll',
  refresh: 'schemabrain.refresh',
  showTail: 'schemabrain.showTail',
  openAuditPanel: 'schemabrain.openAuditPanel',
  verifyAudit: 'schemabrain.verifyAudit',
  copyQualifiedName: 'schemabrain.copyQualifiedName',
  describeTable: 'schemabrain.describeTable',
  restartMcpServer: 'schemabrain.restartMcpServer',
  runMetric: 'schemabrain.runMetric',
  profileTable: 'schemabrain.profileTable',
  applySuggestions: 'schemabrain.applySuggestions',
  askAgent: 'schemabrain.askAgent',
  previewRows: 'schemabrain.previewRows',
  connectTeamServer: 'schemabrain.connectTeamServer',
  disconnectTeamServer: 'schemabrain.disconnectTeamServer',
} as const;

export const WEBVIEW_TYPES = {
  metric: 'schemabrain.metricPanel',
  profile: 'schemabrain.profilePanel',
  results: 'schemabrain.resultsPanel',
} as const;

/** Source name of the squiggles on `.schemabrain/*.yaml` (Problems panel, code actions). */
export const DIAGNOSTIC_SOURCE = 'SchemaBrain';

export const MCP_PROVIDER_ID = 'schemabrain.mcp';
export const MCP_SERVER_LABEL = 'SchemaBrain';

export const CONFIG_SECTION = 'schemabrain';
export const SETTING_KEYS = {
  connections: 'connections',
  catalogHome: 'catalog.home',
  eventsPath: 'events.path',
  piiBlock: 'pii.block',
  rowCap: 'query.rowCap',
  personRowCap: 'query.personRowCap',
  statementTimeoutMs: 'query.statementTimeoutMs',
  mcpEnabled: 'mcp.enabled',
} as const;

export const OUTPUT_CHANNEL_NAME = 'SchemaBrain Tail';
export const TAIL_LANGUAGE_ID = 'schemabrain-tail';
export const LOG_CHANNEL_NAME = 'SchemaBrain';

/** SecretStorage key for one connection's password. */
export function passwordSecretKey(connectionName: string): string {
  return `schemabrain.password.${connectionName}`;
}

/** globalState key holding the last verified audit head hash (the external anchor). */
export const AUDIT_ANCHOR_STATE_KEY = 'schemabrain.audit.anchor';

export const CONTEXT_KEYS = {
  hasConnections: 'schemabrain.hasConnections',
  hasDefinitions: 'schemabrain.hasDefinitions',
  indexing: 'schemabrain.indexing',
  /** At least one source is in the catalog (Apply Suggestions, Preview Rows, Describe make sense). */
  hasIndex: 'schemabrain.hasIndex',
  mcpApiMissing: 'schemabrain.mcpApiMissing',
} as const;

export const WALKTHROUGH_ID = 'schemabrain.gettingStarted';

/** The always-on floor, from the charter's vocabulary in core. */
export const PII_FLOOR: readonly string[] = [...CATASTROPHIC_PII];
