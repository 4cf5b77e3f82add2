import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { GetPromptResult, Prompt, PromptMessage } from '@modelcontextprotocol/sdk/types.js';
import type { CatalogView } from '../../core/catalog/view';
import { MAX_QUERY_CHARS } from '../../core/search';
import { MAX_NAME_CHARS } from '../completion/complete';
import type { NameKind } from '../completion/complete';
import type { DerivedData } from '../derived';
import type { CatalogResources } from '../resources/catalog-resources';
import { entityUri, metricUri, sourceUri, tableUri } from '../resources/uri';

/**
 * Prompts an analyst starts from (VS Code shows them as slash commands). Each returns a user message with the plan
 * in the server's own tool names plus the relevant catalog resources embedded, so the model starts with the
 * structure in context instead of spending calls to find it.
 */
interface PromptArg {
  readonly name: string;
  readonly description: string;
  readonly required: boolean;
  readonly kind: NameKind;
  /** The longest value taken, in characters: the bound of the tool argument it stands for. */
  readonly maxLength: number;
}

/** Bounds of the tools' arguments: a question, a source, schema or metric name, a qualified table name. */
const QUESTION_CHARS = MAX_QUERY_CHARS;
const NAME_CHARS = 200;
const TABLE_CHARS = MAX_NAME_CHARS;

interface PromptDef {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly arguments: readonly PromptArg[];
}

export const PROMPTS: readonly PromptDef[] = [
  {
    name: 'explore_database',
    title: 'Explore a database',
    description: 'Tour an indexed source: its schemas, its most connected tables and how they join, ending with questions it can answer.',
    arguments: [{ name: 'source', description: 'Indexed source name', required: true, kind: 'source', maxLength: NAME_CHARS }],
  },
  {
    name: 'answer_with_sql',
    title: 'Answer a question with SQL',
    description: 'Answer a data question by finding the tables, checking their columns and joins, then running one guarded read-only query.',
    arguments: [
      { name: 'question', description: 'The question, in your words', required: true, kind: 'none', maxLength: QUESTION_CHARS },
      { name: 'source', description: 'Indexed source (optional when only one is indexed)', required: false, kind: 'source', maxLength: NAME_CHARS },
    ],
  },
  {
    name: 'explain_metric',
    title: 'Explain a metric',
    description: 'Explain what a semantic-layer metric measures, the SQL it compiles to, and how to break it down.',
    arguments: [{ name: 'metric', description: 'Metric name', required: true, kind: 'metric', maxLength: NAME_CHARS }],
  },
  {
    name: 'review_table_quality',
    title: 'Review data quality of a table',
    description: 'Profile a table and report nulls, duplicates, suspicious values and broken references, with the queries that show them.',
    arguments: [
      { name: 'table', description: "'schema.table'", required: true, kind: 'table', maxLength: TABLE_CHARS },
      { name: 'source', description: 'Indexed source (optional when only one is indexed)', required: false, kind: 'source', maxLength: NAME_CHARS },
    ],
  },
];

export function promptArgKind(prompt: string, arg: string): NameKind {
  return PROMPTS.find((p) => p.name === prompt)?.arguments.find((a) => a.name === arg)?.kind ?? 'none';
}

export function listPrompts(): Prompt[] {
  return PROMPTS.map((p) => ({ name: p.name, title: p.title, description: p.description, arguments: p.arguments.map((a) => ({ name: a.name, description: a.description, required: a.required })) }));
}

function invalid(message: string): McpError {
  return new McpError(ErrorCode.InvalidParams, message);
}

export class Prompts {
  constructor(
    private readonly resources: CatalogResources,
    private readonly derived: DerivedData,
  ) {}

  async get(name: string, args: Record<string, string> = {}): Promise<GetPromptResult> {
    const def = PROMPTS.find((p) => p.name === name);
    if (!def) throw invalid(`Unknown prompt '${name.slice(0, 100)}'; prompts/list names them: ${PROMPTS.map((p) => p.name).join(', ')}.`);
    for (const a of def.arguments) {
      if (a.required && !args[a.name]?.trim()) throw invalid(`Prompt '${name}' needs argument '${a.name}' (${a.description}).`);
      const given = args[a.name];
      if (given !== undefined && given.length > a.maxLength) throw invalid(`Argument '${a.name}' of prompt '${name}' is ${given.length} characters long; it takes at most ${a.maxLength}.`);
    }
    const view = await this.resources.view();
    if (!view) throw invalid("No catalog is indexed yet: run 'schemabrain index --source <postgres or mysql URL | sqlite file> --name <name>' first.");
    switch (def.name) {
      case 'explore_database':
        return this.explore(view, args.source!);
      case 'answer_with_sql':
        return this.answer(view, args.question!, args.source);
      case 'explain_metric':
        return this.explainMetric(view, args.metric!);
      default:
        return this.reviewTable(view, args.table!, args.source);
    }
  }

  private source(view: CatalogView, name: string | undefined): string | undefined {
    if (name === undefined || name === '') return view.sources.length === 1 ? view.sources[0]!.name : undefined;
    const s = view.sourceByName(name);
    if (!s) throw invalid(`Source '${name.slice(0, 100)}' is not indexed; indexed: ${view.sources.map((x) => x.name).join(', ') || 'none'}.`);
    return s.name;
  }

  private async embed(uri: string): Promise<PromptMessage> {
    const { contents } = await this.resources.read(uri);
    const c = contents[0]!;
    return { role: 'user', content: { type: 'resource', resource: { uri: c.uri, mimeType: c.mimeType, text: c.text } } };
  }

  private text(text: string): PromptMessage {
    return { role: 'user', content: { type: 'text', text } };
  }

  private async explore(view: CatalogView, sourceName: string): Promise<GetPromptResult> {
    const source = this.source(view, sourceName)!;
    const top = this.derived.searchIndex(view).search('*', { limit: 5, source }).hits;
    const tables = top.map((h) => view.resolveTable(h.qualifiedName, h.sourceName)).flatMap((r) => (r.ok ? [r.value] : []));
    const messages = [
      this.text(
        [
          `Explore the ${source} database for me. The source overview and its ${tables.length} most connected tables are attached.`,
          `1. Summarise what the database is about from its schemas and tables (list_indexed_schemas has the counts).`,
          `2. For the central tables, explain what one row is and how they join (suggest_joins with their names).`,
          `3. Use find_relevant_tables for areas the attachments do not cover, and describe_table before naming columns.`,
          `4. End with five business questions this data can answer, each with the tables it needs.`,
          `Do not run queries unless I ask; the catalog is enough for a tour.`,
        ].join('\n'),
      ),
      await this.embed(sourceUri(source)),
    ];
    for (const t of tables) messages.push(await this.embed(tableUri(t.source.name, t.table.schema, t.table.name)));
    return { description: `Tour of source ${source}`, messages };
  }

  private async answer(view: CatalogView, question: string, sourceName: string | undefined): Promise<GetPromptResult> {
    const source = this.source(view, sourceName);
    const hits = this.derived.searchIndex(view).search(question, { limit: 3, source }).hits;
    const srcArg = source ? `, "source": "${source}"` : '';
    const messages = [
      this.text(
        [
          `Answer this question with data: ${question}`,
          '',
          'Work through the SchemaBrain tools in this order:',
          `1. find_relevant_tables {"query": ${JSON.stringify(question)}${srcArg}} — the attached tables are its current top hits; check the ranking.`,
          '2. describe_table on each table you will use; never guess a column name.',
          '3. suggest_joins {"tables": [...]} when the answer needs more than one table; join only on the paths it returns.',
          '4. If list_metrics has a metric for this, prefer get_metric; otherwise run_query with one read-only SELECT (add LIMIT).',
          '5. Answer in plain words with the number(s), then show the SQL and say which tables and joins it used.',
          'If a tool answers with status error, follow error.recovery.suggested_tool before trying anything else.',
        ].join('\n'),
      ),
    ];
    for (const h of hits) {
      const r = view.resolveTable(h.qualifiedName, h.sourceName);
      if (r.ok) messages.push(await this.embed(tableUri(r.value.source.name, r.value.table.schema, r.value.table.name)));
    }
    return { description: `Answer with SQL: ${question.slice(0, 120)}`, messages };
  }

  private async explainMetric(view: CatalogView, metric: string): Promise<GetPromptResult> {
    const sm = await this.resources.semanticModel(view);
    const m = sm?.model.metrics.get(metric);
    if (!sm || !m) throw invalid(`No metric '${metric.slice(0, 100)}' is defined${sm ? `; defined: ${[...sm.model.metrics.keys()].slice(0, 20).join(', ') || 'none'}` : ' (the server has no workspace with .schemabrain/ definitions)'}.`);
    const entity = sm.model.entities.get(m.entity);
    const source = this.resources.metricSource(sm, m) ?? view.sources[0]!.name;
    if (!view.sourceByName(source)) {
      throw invalid(`Metric '${m.name}' is defined on source '${source.slice(0, 100)}', which this catalog has not indexed; index that source or correct the entity's source in .schemabrain/.`);
    }
    const messages = [
      this.text(
        [
          `Explain the metric ${m.name} to a business user. Its definition, compiled SQL and its entity are attached.`,
          '1. Say in one sentence what it measures and over which rows (its entity and filters).',
          '2. Walk through the compiled SQL: the joins, how fan-out is avoided, the time column.',
          '3. Show two useful breakdowns: call get_metric with group_by on a groupable column of the entity, and with a time_grain if it has a time dimension.',
          '4. Note caveats: its trust (origin, validation state) and columns it cannot be grouped by because of PII.',
        ].join('\n'),
      ),
      await this.embed(metricUri(source, m.name)),
    ];
    if (entity) messages.push(await this.embed(entityUri(source, entity.name)));
    return { description: `Explain metric ${m.name}`, messages };
  }

  private async reviewTable(view: CatalogView, table: string, sourceName: string | undefined): Promise<GetPromptResult> {
    const res = view.resolveTable(table, sourceName ? this.source(view, sourceName) : undefined);
    if (!res.ok) throw invalid(`${res.message}${res.candidates.length ? ` Closest: ${res.candidates.slice(0, 5).join(', ')}.` : ''}`);
    const e = res.value;
    const ref = `{"qualified_name": "${e.qualifiedName.replace(/"/g, '\\"')}", "source": "${e.source.name}"}`;
    const messages = [
      this.text(
        [
          `Review the data quality of ${e.qualifiedName} (source ${e.source.name}). Its structure is attached.`,
          `1. profile_table ${ref} — null fractions, distinct counts, ranges and sample values.`,
          '2. Flag: columns mostly null, keys that are not unique, values outside their plausible range, enum-like text with stray spellings.',
          '3. For each foreign key, run_query a LEFT JOIN anti-join counting orphans (rows whose reference is missing).',
          '4. describe_column on any column that looks wrong before concluding.',
          '5. Report findings by severity, each with the query that shows it. PII-redacted columns stay redacted: do not try to read them.',
        ].join('\n'),
      ),
      await this.embed(tableUri(e.source.name, e.table.schema, e.table.name)),
    ];
    return { description: `Data-quality review of ${e.qualifiedName}`, messages };
  }
}
