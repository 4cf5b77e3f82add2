import * as vscode from 'vscode';
import type { CatalogView, TableEntry } from '../../core/catalog/view';
import type { ColumnInfo } from '../../core/catalog/model';
import { formatName } from '../../core/catalog/names';
import { engineLabel } from '../connections/engines';
import { formatCount, plural } from '../format';

/** Scheme of the read-only table descriptions (virtual documents: never dirty, never a "save?" prompt). */
export const DESCRIBE_SCHEME = 'schemabrain-table';

/** The description's address: `schemabrain-table:/<source>/<schema.table>.md`, with the parts in the query. */
export function describeUri(source: string, schema: string, table: string): vscode.Uri {
  const q = new URLSearchParams({ source, schema, table }).toString();
  return vscode.Uri.from({ scheme: DESCRIBE_SCHEME, path: `/${source}/${schema}.${table}.md`, query: q });
}

function parseUri(uri: vscode.Uri): { source: string; schema: string; table: string } | undefined {
  const q = new URLSearchParams(uri.query);
  const source = q.get('source');
  const schema = q.get('schema');
  const table = q.get('table');
  return source !== null && schema !== null && table !== null ? { source, schema, table } : undefined;
}

/** Text inside a Markdown table cell: pipes escaped, line breaks flattened. */
function cell(s: string | null | undefined): string {
  return (s ?? '').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

function link(entry: TableEntry): string {
  return `[${entry.qualifiedName}](${describeUri(entry.source.name, entry.table.schema, entry.table.name).toString()})`;
}

function stats(c: ColumnInfo): string {
  const s = c.stats;
  if (!s) return '';
  const bits: string[] = [];
  if (s.nullFraction !== null) bits.push(`${(s.nullFraction * 100).toFixed(1)}% null`);
  if (s.distinctEstimate !== null) bits.push(`~${formatCount(s.distinctEstimate)} distinct`);
  // Raw values of PII columns are scrubbed at index time; ranges only for the others.
  if (!c.pii && s.minValue !== null && s.maxValue !== null) bits.push(`${s.minValue} … ${s.maxValue}`);
  return bits.join(', ');
}

/** The whole description of one table as Markdown (what the document shows). */
export function describeTableMarkdown(view: CatalogView, entry: TableEntry): string {
  const t = entry.table;
  const out: string[] = [`# ${entry.qualifiedName}`, ''];
  const facts = [`${t.kind.replace('_', ' ')} in **${entry.source.name}** (${engineLabel(entry.source.engine)})`, plural(t.columns.length, 'column')];
  if (t.rowEstimate !== null && t.rowEstimate >= 0) facts.push(`~${formatCount(t.rowEstimate)} rows`);
  facts.push(`indexed ${entry.source.indexedAt}`);
  out.push(facts.join(' · '), '');
  if (t.comment) out.push(...t.comment.split('\n').map((l) => `> ${l}`), '');

  const pk = new Set(t.primaryKey?.columns ?? []);
  out.push('## Columns', '', '| # | column | type | null | default | key | PII | values | statistics | comment |', '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const c of [...t.columns].sort((a, b) => a.ordinal - b.ordinal)) {
    const fk = t.foreignKeys.find((f) => f.columns.includes(c.name));
    const key = [pk.has(c.name) ? 'PK' : '', fk ? `FK → ${formatName(fk.targetSchema, fk.targetTable)}` : ''].filter(Boolean).join(', ');
    const pii = c.pii ? `${c.pii.categories.join(', ')} (${c.pii.sensitivity})` : '';
    const def = c.isIdentity ? 'identity' : c.isGenerated ? `generated: ${c.defaultExpr ?? ''}` : c.defaultExpr ?? '';
    out.push(`| ${c.ordinal} | ${cell(c.name)} | ${cell(c.dataType)} | ${c.isNullable ? 'yes' : 'no'} | ${cell(def)} | ${cell(key)} | ${cell(pii)} | ${cell(c.enumLabels?.join(', '))} | ${cell(stats(c))} | ${cell(c.comment)} |`);
  }
  out.push('');

  out.push('## Keys', '');
  out.push(t.primaryKey ? `- Primary key ${t.primaryKey.name ? `\`${t.primaryKey.name}\` ` : ''}(${t.primaryKey.columns.join(', ')})` : '- No primary key');
  for (const u of t.uniqueConstraints) out.push(`- Unique \`${u.name}\` (${u.columns.join(', ')})`);
  for (const c of t.checkConstraints) out.push(`- Check \`${c.name}\`: ${c.expression}`);
  out.push('');

  out.push('## References (foreign keys of this table)', '');
  if (!t.foreignKeys.length) out.push('None.');
  for (const f of t.foreignKeys) {
    const target = view.lookup(entry.source.name, f.targetSchema, f.targetTable);
    const name = target ? link(target) : formatName(f.targetSchema, f.targetTable);
    const actions = [f.onDelete ? `on delete ${f.onDelete}` : '', f.onUpdate ? `on update ${f.onUpdate}` : ''].filter(Boolean).join(', ');
    out.push(`- (${f.columns.join(', ')}) → ${name} (${f.targetColumns.join(', ')})${actions ? ` — ${actions}` : ''}`);
  }
  out.push('');

  const incoming = view.incomingForeignKeys(entry);
  out.push('## Referenced by', '');
  if (!incoming.length) out.push('None.');
  for (const i of incoming) out.push(`- ${link(i.from)} (${i.fk.columns.join(', ')}) → (${i.fk.targetColumns.join(', ')})`);
  out.push('');

  out.push('## Indexes', '');
  if (!t.indexes.length) out.push('None.');
  for (const ix of t.indexes) {
    const kind = [ix.isPrimary ? 'primary' : ix.isUnique ? 'unique' : '', ix.method ?? ''].filter(Boolean).join(' ');
    out.push(`- \`${ix.name}\`${kind ? ` ${kind}` : ''} (${ix.columns.join(', ')})${ix.predicate ? ` where ${ix.predicate}` : ''}`);
  }
  out.push('');

  if (t.viewDefinition) out.push('## Definition', '', '```sql', t.viewDefinition.trim(), '```', '');
  return out.join('\n');
}

/**
 * Serves `schemabrain-table:` documents from the catalog as it is now, and turns the related-table references in
 * them into links (Ctrl+click or the link's keyboard shortcut opens the related table's description).
 */
export class DescribeProvider implements vscode.TextDocumentContentProvider, vscode.DocumentLinkProvider {
  private readonly emitter = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.emitter.event;

  constructor(private readonly view: () => CatalogView | undefined) {}

  static register(context: vscode.ExtensionContext, view: () => CatalogView | undefined): DescribeProvider {
    const p = new DescribeProvider(view);
    context.subscriptions.push(
      vscode.workspace.registerTextDocumentContentProvider(DESCRIBE_SCHEME, p),
      vscode.languages.registerDocumentLinkProvider({ scheme: DESCRIBE_SCHEME }, p),
      p.emitter,
    );
    return p;
  }

  /** The catalog changed: open descriptions re-render. */
  refresh(): void {
    for (const d of vscode.workspace.textDocuments) if (d.uri.scheme === DESCRIBE_SCHEME) this.emitter.fire(d.uri);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const at = parseUri(uri);
    const view = this.view();
    if (!at) return '# Not a table description\n';
    const entry = view?.lookup(at.source, at.schema, at.table);
    if (!view || !entry) return `# ${formatName(at.schema, at.table)}\n\nNot in the catalog (any more). Re-index '${at.source}' and open it again.\n`;
    return describeTableMarkdown(view, entry);
  }

  provideDocumentLinks(doc: vscode.TextDocument): vscode.DocumentLink[] {
    const links: vscode.DocumentLink[] = [];
    const re = new RegExp(`\\]\\((${DESCRIBE_SCHEME}:[^)\\s]+)\\)`, 'g');
    for (let line = 0; line < doc.lineCount; line++) {
      const text = doc.lineAt(line).text;
      for (const m of text.matchAll(re)) {
        const start = text.lastIndexOf('[', m.index);
        const range = new vscode.Range(line, start < 0 ? m.index : start, line, m.index + m[0].length);
        const l = new vscode.DocumentLink(range, vscode.Uri.parse(m[1]!));
        l.tooltip = 'Open the description of this table';
        links.push(l);
      }
    }
    return links;
  }
}
