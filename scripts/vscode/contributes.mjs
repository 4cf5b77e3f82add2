// Writes the extension's manifest keys (contributes, activationEvents, icon, galleryBanner, keywords) into
// package.json, leaving every other key as it is. The ids must match src/extension/constants.ts.
// Usage: node scripts/vscode/contributes.mjs
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const pkgPath = path.join(root, 'package.json');

const PII = ['contact', 'financial', 'payment_card', 'health', 'genetic', 'biometric', 'behavioral', 'online_identifier',
  'credential', 'government_id', 'location', 'demographic_protected'];

const cmd = (id, icon, extra = {}) => ({ command: `schemabrain.${id}`, title: `%schemabrain.command.${id}%`, category: 'SchemaBrain', ...(icon ? { icon: `$(${icon})` } : {}), ...extra });

const contributes = {
  viewsContainers: {
    activitybar: [{ id: 'schemabrain', title: 'SchemaBrain', icon: 'media/schemabrain.svg' }],
  },
  views: {
    schemabrain: [
      { id: 'schemabrain.connections', name: '%schemabrain.view.connections%', icon: 'media/schemabrain.svg', contextualTitle: 'SchemaBrain' },
      { id: 'schemabrain.metrics', name: '%schemabrain.view.metrics%', icon: 'media/schemabrain.svg', contextualTitle: 'SchemaBrain' },
      { id: 'schemabrain.audit', name: '%schemabrain.view.audit%', icon: 'media/schemabrain.svg', contextualTitle: 'SchemaBrain' },
    ],
  },
  viewsWelcome: [
    { view: 'schemabrain.connections', contents: '%schemabrain.welcome.connections%', when: '!schemabrain.hasConnections' },
    { view: 'schemabrain.metrics', contents: '%schemabrain.welcome.metrics%', when: '!schemabrain.hasDefinitions && schemabrain.hasIndex' },
    { view: 'schemabrain.metrics', contents: '%schemabrain.welcome.metricsNoIndex%', when: '!schemabrain.hasDefinitions && !schemabrain.hasIndex' },
    { view: 'schemabrain.audit', contents: '%schemabrain.welcome.audit%' },
  ],
  commands: [
    cmd('addConnection', 'add'),
    cmd('connectTeamServer', 'plug'),
    cmd('disconnectTeamServer', 'debug-disconnect'),
    cmd('editConnection', 'edit'),
    cmd('removeConnection', 'trash'),
    cmd('indexConnection', 'database'),
    cmd('reindexAll', 'sync'),
    cmd('refresh', 'refresh'),
    cmd('showTail', 'output'),
    cmd('openAuditPanel', 'open-preview'),
    cmd('verifyAudit', 'verified'),
    cmd('copyQualifiedName', 'copy'),
    cmd('describeTable', 'info'),
    cmd('restartMcpServer', 'debug-restart'),
    cmd('runMetric', 'play'),
    cmd('profileTable', 'pulse'),
    cmd('applySuggestions', 'lightbulb'),
    cmd('askAgent', 'copilot'),
    cmd('previewRows', 'table'),
  ],
  menus: {
    // Every command is in the palette; those that act on a tree item ask which one when run from there. The
    // palette hides what cannot apply yet (nothing to re-index, nothing indexed to suggest from).
    commandPalette: [
      { command: 'schemabrain.reindexAll', when: 'schemabrain.hasConnections' },
      { command: 'schemabrain.applySuggestions', when: 'schemabrain.hasIndex' },
      { command: 'schemabrain.profileTable', when: 'schemabrain.hasIndex' },
      { command: 'schemabrain.describeTable', when: 'schemabrain.hasIndex' },
      { command: 'schemabrain.copyQualifiedName', when: 'schemabrain.hasIndex' },
      { command: 'schemabrain.previewRows', when: 'schemabrain.hasIndex' },
    ],
    'view/title': [
      { command: 'schemabrain.addConnection', when: 'view == schemabrain.connections', group: 'navigation@1' },
      { command: 'schemabrain.reindexAll', when: 'view == schemabrain.connections && schemabrain.hasConnections', group: 'navigation@2' },
      { command: 'schemabrain.refresh', when: 'view == schemabrain.connections || view == schemabrain.metrics', group: 'navigation@3' },
      { command: 'schemabrain.runMetric', when: 'view == schemabrain.metrics && schemabrain.hasDefinitions', group: 'navigation@1' },
      { command: 'schemabrain.applySuggestions', when: 'view == schemabrain.metrics && schemabrain.hasIndex', group: 'navigation@2' },
      { command: 'schemabrain.openAuditPanel', when: 'view == schemabrain.audit', group: 'navigation@1' },
      { command: 'schemabrain.verifyAudit', when: 'view == schemabrain.audit', group: 'navigation@2' },
      { command: 'schemabrain.showTail', when: 'view == schemabrain.audit', group: 'navigation@3' },
    ],
    // Each inline (hover) action is also in the item's context menu (Shift+F10 / the Menu key), so the keyboard
    // reaches all of them.
    'view/item/context': [
      { command: 'schemabrain.indexConnection', when: 'view == schemabrain.connections && viewItem =~ /^source/', group: 'inline@1' },
      { command: 'schemabrain.indexConnection', when: 'view == schemabrain.connections && viewItem =~ /^source/', group: '0_index@1' },
      { command: 'schemabrain.editConnection', when: 'view == schemabrain.connections && viewItem =~ /^source(\\.|$)/', group: '1_edit@1' },
      { command: 'schemabrain.removeConnection', when: 'view == schemabrain.connections && viewItem =~ /^source(\\.|$)/', group: '1_edit@2' },
      { command: 'schemabrain.describeTable', when: 'view == schemabrain.connections && viewItem =~ /^(table|view)/', group: 'inline@1' },
      { command: 'schemabrain.copyQualifiedName', when: 'view == schemabrain.connections && viewItem =~ /^(table|view|column)/', group: 'inline@2' },
      { command: 'schemabrain.profileTable', when: 'view == schemabrain.connections && viewItem =~ /^(table|view)$/', group: 'inline@3' },
      { command: 'schemabrain.previewRows', when: 'view == schemabrain.connections && viewItem =~ /^(table|view)$/', group: 'inline@0' },
      { command: 'schemabrain.previewRows', when: 'view == schemabrain.connections && viewItem =~ /^(table|view)$/', group: '2_data@0' },
      { command: 'schemabrain.describeTable', when: 'view == schemabrain.connections && viewItem =~ /^(table|view|column)/', group: '0_describe@1' },
      { command: 'schemabrain.profileTable', when: 'view == schemabrain.connections && viewItem =~ /^(table|view)$/', group: '2_data@1' },
      { command: 'schemabrain.copyQualifiedName', when: 'view == schemabrain.connections && viewItem =~ /^(table|view|column|schema)/', group: '9_copy@1' },
      { command: 'schemabrain.runMetric', when: 'view == schemabrain.metrics && viewItem == definition.metric', group: 'inline@1' },
      { command: 'schemabrain.runMetric', when: 'view == schemabrain.metrics && viewItem == definition.metric', group: '1_run@1' },
    ],
  },
  configuration: {
    title: 'SchemaBrain',
    properties: {
      'schemabrain.team.url': { type: 'string', scope: 'application', default: '', markdownDescription: '%schemabrain.config.teamUrl%' },
      'schemabrain.connections': {
        type: 'array',
        // Shown in User, Remote and Workspace settings: a team can keep its connections (never passwords) in the repo.
        scope: 'resource',
        default: [],
        markdownDescription: '%schemabrain.config.connections%',
        items: {
          type: 'object',
          required: ['name', 'engine'],
          additionalProperties: false,
          properties: {
            name: { type: 'string', pattern: '^[A-Za-z0-9_.-]{1,64}$', description: 'Unique connection name.' },
            engine: { type: 'string', enum: ['postgres', 'sqlite'] },
            host: { type: 'string' },
            port: { type: 'integer', minimum: 1, maximum: 65535 },
            database: { type: 'string' },
            user: { type: 'string' },
            sslmode: { type: 'string', enum: ['disable', 'prefer', 'require', 'verify-ca', 'verify-full'] },
            file: { type: 'string', description: 'Absolute path of a SQLite database file.' },
            hasPassword: { type: 'boolean', description: 'A password is stored in the editor\'s secret storage (never here).' },
          },
        },
      },
      'schemabrain.catalog.home': { type: 'string', scope: 'machine', default: '', markdownDescription: '%schemabrain.config.catalogHome%' },
      'schemabrain.events.path': { type: 'string', scope: 'machine', default: '', markdownDescription: '%schemabrain.config.eventsPath%' },
      'schemabrain.pii.block': {
        type: 'array', scope: 'window', default: ['credential', 'payment_card', 'government_id'], uniqueItems: true,
        items: { type: 'string', enum: PII }, markdownDescription: '%schemabrain.config.piiBlock%',
      },
      'schemabrain.query.rowCap': { type: 'integer', scope: 'window', default: 100, minimum: 1, maximum: 10000, markdownDescription: '%schemabrain.config.rowCap%' },
      'schemabrain.query.personRowCap': { type: 'integer', scope: 'window', default: 5000, minimum: 1, maximum: 10000, markdownDescription: '%schemabrain.config.personRowCap%' },
      'schemabrain.query.statementTimeoutMs': { type: 'integer', scope: 'window', default: 5000, minimum: 100, maximum: 600000, markdownDescription: '%schemabrain.config.statementTimeout%' },
      'schemabrain.mcp.enabled': { type: 'boolean', scope: 'window', default: true, markdownDescription: '%schemabrain.config.mcpEnabled%' },
    },
  },
  // Completion and hover for .schemabrain/ definitions where a YAML language server is installed (e.g. redhat.vscode-yaml);
  // the extension's own diagnostics work without one.
  yamlValidation: [
    { fileMatch: ['**/.schemabrain/*.yaml', '**/.schemabrain/**/*.yaml', '**/.schemabrain/*.yml', '**/.schemabrain/**/*.yml'], url: './schemas/semantic.schema.json' },
  ],
  languages: [{ id: 'schemabrain-tail', aliases: ['SchemaBrain Tail'], mimetypes: ['text/x-schemabrain-tail'] }],
  grammars: [{ language: 'schemabrain-tail', scopeName: 'source.schemabrain-tail', path: './syntaxes/schemabrain-tail.tmLanguage.json' }],
  mcpServerDefinitionProviders: [{ id: 'schemabrain.mcp', label: 'SchemaBrain', when: 'config.schemabrain.mcp.enabled' }],
  walkthroughs: [
    {
      id: 'schemabrain.gettingStarted',
      title: '%schemabrain.walkthrough.title%',
      description: '%schemabrain.walkthrough.description%',
      steps: [
        { id: 'addConnection', title: '%schemabrain.walkthrough.add.title%', description: '%schemabrain.walkthrough.add.description%',
          media: { markdown: 'media/walkthrough/add-connection.md' }, completionEvents: ['onCommand:schemabrain.addConnection'] },
        { id: 'index', title: '%schemabrain.walkthrough.index.title%', description: '%schemabrain.walkthrough.index.description%',
          media: { markdown: 'media/walkthrough/index.md' }, completionEvents: ['onCommand:schemabrain.indexConnection', 'onCommand:schemabrain.reindexAll'] },
        { id: 'ask', title: '%schemabrain.walkthrough.ask.title%', description: '%schemabrain.walkthrough.ask.description%',
          media: { markdown: 'media/walkthrough/ask.md' }, completionEvents: ['onCommand:schemabrain.askAgent'] },
      ],
    },
  ],
};

const pkg = JSON.parse(fs.readFileSync(pkgPath, 'utf8'));
pkg.contributes = contributes;
// onView/onCommand/onMcpCollection activation events are generated by VS Code from the contributions (views, commands,
// the MCP server definition provider).
// No onStartupFinished: windows without a database stay untouched. A workspace with definitions activates on open.
// MCP: List Servers and MCP: Browse Resources do not fire the provider's onMcpCollection activation (editor 1.139), so
// they activate it themselves: the server is listed in a window without .schemabrain/.
pkg.activationEvents = ['workspaceContains:.schemabrain/**', 'onCommand:workbench.mcp.listServer', 'onCommand:workbench.mcp.browseResources'];
pkg.icon = 'media/icon.png';
pkg.galleryBanner = { color: '#1e2a3a', theme: 'dark' };
pkg.keywords = ['database', 'schema', 'catalog', 'postgresql', 'sqlite', 'mcp', 'copilot', 'agent'];
fs.writeFileSync(pkgPath, JSON.stringify(pkg, null, 2) + '\n');
console.log('package.json: contributes, activationEvents, icon, galleryBanner, keywords written');
