import path from 'node:path';
import * as vscode from 'vscode';
import { AuditService } from './audit/audit-service';
import { CatalogWatcher } from './catalog-watcher';
import { registerCommands } from './commands/register';
import { readSettings, type Settings } from './config';
import { ConnectionStore } from './connections/store';
import { CONFIG_SECTION, CONTEXT_KEYS, LOG_CHANNEL_NAME, VIEW_IDS } from './constants';
import { IndexController } from './indexing/index-controller';
import { createLog } from './log';
import { registerMcpProvider, type McpRegistration, type McpRegistrationApi } from './mcp/provider';
import { registerSemanticFeatures, type SemanticFeatures } from './semantic/register';
import { Notifier, windowPrompter, type Prompter } from './prompter';
import { StatusBar } from './status-bar';
import { registerTeamCommands } from './team/team-commands';
import { TeamConnection, TeamData } from './team/team-connection';
import { TailChannel } from './tail/tail-channel';
import { AuditTreeProvider } from './views/audit-tree';
import { ConnectionsTreeProvider } from './views/connections-tree';
import { DescribeProvider } from './views/describe-provider';
import { MetricsTreeProvider } from './views/metrics-tree';
import { AuditPanel } from './webviews/audit-panel';
import { ConnectionForm } from './webviews/connection-form';
import type { CatalogState } from '../core/catalog/provider';

/** What `activate` returns: the services, for other extensions and for the integration checks. */
export interface SchemaBrainApi {
  readonly connections: ConnectionStore;
  readonly settings: () => Settings;
  readonly catalog: CatalogWatcher;
  readonly connectionsTree: ConnectionsTreeProvider;
  readonly metricsTree: MetricsTreeProvider;
  readonly auditTree: AuditTreeProvider;
  readonly audit: AuditService;
  readonly indexer: IndexController;
  readonly tail: TailChannel;
  readonly statusBar: StatusBar;
  readonly notifier: Notifier;
  readonly mcp: () => McpRegistration;
  /** The team server link (URL setting + token in SecretStorage) and what the views read from it. */
  readonly team: TeamConnection;
  readonly teamData: TeamData;
  /** The open connection form, if any. */
  readonly connectionForm: () => ConnectionForm | undefined;
  /** The open audit panel, if any (a getter: checks run from another bundle and cannot see the class's static). */
  readonly auditPanel: () => AuditPanel | undefined;
  /** Run Metric / Profile Table panels and the definitions' diagnostics. */
  readonly semantic: SemanticFeatures;
  readonly activationMs: number;
  /** Where the editor keeps this extension's files (checked for leaked secrets). */
  readonly storagePaths: readonly string[];
  readonly testing: {
    /** Replaces the QuickPick/InputBox/dialog surface (undefined restores the real one). */
    setPrompter(p: Prompter | undefined): void;
    /** Registers the MCP provider against a given `lm` object (simulates editors without the MCP API). */
    registerMcpWith(lm: McpRegistrationApi | undefined): McpRegistration;
  };
}

export function activate(context: vscode.ExtensionContext): SchemaBrainApi {
  const t0 = performance.now();
  const logChannel = vscode.window.createOutputChannel(LOG_CHANNEL_NAME, { log: true });
  context.subscriptions.push(logChannel);
  const log = createLog(logChannel);
  let prompter: Prompter = windowPrompter;
  const notifier = new Notifier(() => prompter);
  const settings = (): Settings => readSettings();
  const dist = (f: string): string => path.join(context.extensionPath, 'dist', f);

  const connections = new ConnectionStore(context.secrets);
  const catalog = new CatalogWatcher(settings().catalogPath);
  const audit = new AuditService(() => settings().auditPath, context.globalState);
  const tail = new TailChannel();
  const statusBar = new StatusBar();
  context.subscriptions.push(connections, catalog, audit, tail, statusBar);

  let catalogState: CatalogState | undefined;
  // Connected to a team server, the views show its catalog, published definitions and audit rows instead.
  const team = new TeamConnection(context.secrets, log);
  const teamData = new TeamData(team, path.join(context.globalStorageUri.fsPath, 'team'));
  context.subscriptions.push(team);
  const connectionsTree = new ConnectionsTreeProvider({
    connections: () => (team.active ? [] : connections.list()),
    catalog: () => (team.active ? teamData.catalogState : catalogState),
    indexing: () => indexer.progress,
    failures: () => indexer.failures,
  });
  const metricsTree = new MetricsTreeProvider();
  const auditTree = new AuditTreeProvider({
    list: (q) => (team.active ? teamData.audit.list(q) : audit.list(q)),
    get verification() {
      return team.active ? teamData.audit.verification() : audit.verification;
    },
    head: () => (team.active ? teamData.audit.head() : audit.head()),
  });
  context.subscriptions.push(
    vscode.window.createTreeView(VIEW_IDS.connections, { treeDataProvider: connectionsTree, showCollapseAll: true }),
    vscode.window.createTreeView(VIEW_IDS.metrics, { treeDataProvider: metricsTree, showCollapseAll: true }),
    vscode.window.createTreeView(VIEW_IDS.audit, { treeDataProvider: auditTree }),
  );

  const mcpDeps = { serverPath: dist('server.js'), extensionVersion: String(context.extension.packageJSON.version ?? '0.0.0'), connections, settings, nodePath: process.execPath, log, team };
  const mcp = registerMcpProvider(context, vscode.lm as McpRegistrationApi | undefined, mcpDeps);
  if (!mcp.registered) void vscode.window.showWarningMessage(mcp.message);
  void vscode.commands.executeCommand('setContext', CONTEXT_KEYS.mcpApiMissing, !mcp.registered);

  const indexer = new IndexController({
    store: connections,
    settings,
    cliPath: dist('cli.js'),
    nodePath: process.execPath,
    notifier,
    prompter: () => prompter,
    log,
    approvals: context.globalState,
    indexedAt: async (name) => {
      const s = await catalog.check();
      return s.state === 'ready' ? s.view.sourceByName(name)?.indexedAt : undefined;
    },
    onProgress: (running) => {
      const first = [...running.entries()][0];
      statusBar.setProgress(first ? `indexing ${first[0]} ${first[1]}` : undefined);
      connectionsTree.refresh();
    },
    onFinished: () => void catalog.check(true),
  });

  const refresh = async (): Promise<void> => {
    if (team.active) {
      await teamData.load();
      await metricsTree.reload(teamData.catalogState?.state === 'ready' ? teamData.catalogState.view : undefined, teamData.definitionsRoot);
      connectionsTree.refresh();
      auditTree.refresh();
      return;
    }
    catalogState = await catalog.check(true);
    await metricsTree.reload(catalogState.state === 'ready' ? catalogState.view : undefined);
    auditTree.refresh();
  };
  const syncContext = (): void => {
    const indexed = catalogState?.state === 'ready' && !catalogState.view.isEmpty;
    void vscode.commands.executeCommand('setContext', CONTEXT_KEYS.hasConnections, connections.list().length > 0);
    void vscode.commands.executeCommand('setContext', CONTEXT_KEYS.hasIndex, indexed);
  };

  context.subscriptions.push(
    catalog.onDidChange((state) => {
      catalogState = state;
      statusBar.setCatalog(state);
      connectionsTree.refresh();
      syncContext();
      if (mcp.registered) mcp.provider.changed();
    }),
    connections.onDidChange(() => {
      connectionsTree.refresh();
      syncContext();
      if (mcp.registered) mcp.provider.changed();
    }),
    metricsTree.onDidLoad((has) => void vscode.commands.executeCommand('setContext', CONTEXT_KEYS.hasDefinitions, has)),
    tail.onDidAppend(() => auditTree.refresh()),
    audit.onDidVerify(() => auditTree.refresh()),
    team.onDidChange(() => {
      if (mcp.registered) mcp.provider.bumpVersion();
      void refresh().then(() => connectionsTree.refresh());
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration(CONFIG_SECTION)) return;
      const s = settings();
      catalog.setPath(s.catalogPath);
      tail.follow(s.eventsPath);
      auditTree.refresh();
      if (mcp.registered) mcp.provider.changed();
    }),
    vscode.workspace.onDidSaveTextDocument((d) => {
      if (/[\\/]\.schemabrain[\\/].*\.ya?ml$/i.test(d.fileName)) void metricsTree.reload(catalogState?.state === 'ready' ? catalogState.view : undefined);
    }),
  );

  registerCommands(context, {
    store: connections,
    prompter: () => prompter,
    notifier,
    indexAfterSave: (name) => void indexer.index(name),
    extensionUri: context.extensionUri,
    indexer,
    audit,
    tail,
    mcp: () => (mcp.registered ? mcp.provider : undefined),
    mcpUnavailableMessage: () => (mcp.registered ? undefined : mcp.message),
    refresh,
    log,
    catalogView: () => (catalogState?.state === 'ready' ? catalogState.view : undefined),
  });

  registerTeamCommands(context, { team, prompter: () => prompter, notifier, log });

  const describe = DescribeProvider.register(context, () => (catalogState?.state === 'ready' ? catalogState.view : undefined));
  context.subscriptions.push(catalog.onDidChange(() => describe.refresh()));

  const semantic = registerSemanticFeatures(context, {
    extensionUri: context.extensionUri,
    nodePath: process.execPath,
    cliPath: dist('cli.js'),
    settings,
    store: connections,
    prompter: () => prompter,
    notifier,
    log,
    catalogView: () => (catalogState?.state === 'ready' ? catalogState.view : undefined),
    definitions: () => metricsTree.loaded,
    reloadDefinitions: () => metricsTree.reload(catalogState?.state === 'ready' ? catalogState.view : undefined),
  });
  context.subscriptions.push(catalog.onDidChange(() => semantic.diagnostics.schedule()));

  tail.follow(settings().eventsPath);
  syncContext();
  // A token kept from an earlier session reconnects the views and the provider without a prompt.
  void team.init().then(() => {
    if (!team.active) return;
    if (mcp.registered) mcp.provider.changed();
    void refresh();
  });
  void refresh();
  const activationMs = performance.now() - t0;
  log.info(`activated in ${activationMs.toFixed(1)} ms`);

  return {
    connections, settings, catalog, connectionsTree, metricsTree, auditTree, audit, indexer, tail, statusBar, notifier,
    mcp: () => mcp,
    team,
    teamData,
    auditPanel: () => AuditPanel.instance,
    connectionForm: () => ConnectionForm.instance,
    semantic,
    activationMs,
    storagePaths: [context.globalStorageUri.fsPath, context.storageUri?.fsPath, context.logUri.fsPath].filter((p): p is string => Boolean(p)),
    testing: {
      setPrompter: (p) => (prompter = p ?? windowPrompter),
      registerMcpWith: (lm) => {
        const r = registerMcpProvider(context, lm, mcpDeps);
        if (!r.registered) notifier.notify('warning', r.message);
        return r;
      },
    },
  };
}

export function deactivate(): void {
  // Everything is in context.subscriptions.
}
