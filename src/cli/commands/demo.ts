import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { schemabrainHome } from '../../core/util/home';
import { parseArgs, stringFlag } from '../args';
import { EXIT_CHECK_FAILED, EXIT_OK, EXIT_OPERATIONAL } from '../command';
import type { CliCommand, CliIO } from '../command';
import { indexCommand } from './index-source';
import { makeDirs } from '../../core/util/make-dirs';

/** Where the bundles and the bundled sample live, both from dist/cli.js and from source. */
export function packageRoot(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json')) && fs.existsSync(path.join(dir, 'samples'))) return dir;
    if (path.dirname(dir) === dir) return process.cwd();
  }
}

interface Step {
  readonly say: string;
  readonly tool: string;
  readonly args: Record<string, unknown>;
}

const STEPS: readonly Step[] = [
  { say: 'What is indexed?', tool: 'list_indexed_schemas', args: {} },
  { say: 'The user asks: "which artists sell the most songs?" — find the tables.', tool: 'find_relevant_tables', args: { query: 'which artists sell the most songs', limit: 5 } },
  { say: 'Describe the invoice line table.', tool: 'describe_table', args: { qualified_name: 'main.InvoiceLine' } },
  { say: 'How do artists connect to invoice lines?', tool: 'suggest_joins', args: { tables: ['main.Artist', 'main.InvoiceLine'] } },
  {
    say: 'Run the query, read-only and capped.',
    tool: 'run_query',
    args: {
      sql: 'SELECT ar.Name AS artist, SUM(il.UnitPrice * il.Quantity) AS revenue FROM Artist ar JOIN Album al ON al.ArtistId = ar.ArtistId JOIN Track t ON t.AlbumId = al.AlbumId JOIN InvoiceLine il ON il.TrackId = t.TrackId GROUP BY ar.Name ORDER BY revenue DESC LIMIT 5',
    },
  },
  { say: 'Which governed metrics exist?', tool: 'list_metrics', args: {} },
  {
    say: 'Invoice totals by genre: invoices fan out over many lines, so a naive join would double-count; the metric does not.',
    tool: 'get_metric',
    args: { name: 'invoice_total', group_by: ['genre.Name'], order_by: [{ column: 'invoice_total', direction: 'desc' }], limit: 5 },
  },
  { say: 'A mistyped name comes back as a typed error with a recovery.', tool: 'describe_table', args: { qualified_name: 'main.Invoices' } },
  { say: 'A write is refused before it reaches the database.', tool: 'run_query', args: { sql: 'DELETE FROM Invoice' } },
  { say: 'Freshness of the catalog.', tool: 'get_index_status', args: {} },
];

/** JSON with anything that fits on one line kept on one line, so an envelope reads at a glance. */
export function compactJson(value: unknown, indent = '', width = 100): string {
  const flat = JSON.stringify(value);
  if (flat === undefined) return 'null';
  if (flat.length + indent.length <= width || value === null || typeof value !== 'object') return flat;
  const inner = `${indent}  `;
  if (Array.isArray(value)) return `[\n${value.map((v) => inner + compactJson(v, inner, width)).join(',\n')}\n${indent}]`;
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  return `{\n${entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${compactJson(v, inner, width)}`).join(',\n')}\n${indent}}`;
}

function show(io: CliIO, value: unknown, maxLines: number): void {
  const lines = compactJson(value).split('\n');
  const cut = lines.length > maxLines ? [...lines.slice(0, maxLines), `  … (${lines.length - maxLines} more lines)`] : lines;
  io.stdout.write(`${cut.map((l) => `    ${l}`).join('\n')}\n`);
}

export const demoCommand: CliCommand = {
  name: 'demo',
  summary: 'Index the bundled Chinook sample and run a scripted agent session against it through a real MCP client',
  usage: 'schemabrain demo [--home DIR] [--full]   (--full prints whole envelopes)',
  async run(argv, io) {
    const p = parseArgs(argv, { home: 'string', full: 'boolean' });
    const root = packageRoot();
    const sample = path.join(root, 'samples', 'chinook.sqlite');
    const home = path.resolve(stringFlag(p, 'home') ?? path.join(schemabrainHome(io.env), 'demo'));
    makeDirs(home, 0o700);
    const catalog = path.join(home, 'catalog.sqlite');
    const maxLines = p.flags.full ? 10_000 : 24;

    io.stdout.write(`SchemaBrain demo — home ${home}\n\n1. Index the bundled Chinook sample (${sample})\n`);
    const code = await indexCommand.run(['--source', sample, '--name', 'chinook', '--catalog', catalog], { ...io, isTTY: false, stdout: { write: () => true } as unknown as NodeJS.WritableStream });
    if (code !== EXIT_OK) {
      io.stderr.write('indexing the sample failed\n');
      return EXIT_OPERATIONAL;
    }
    io.stdout.write(`   indexed into ${catalog}\n\n2. Start the MCP server and connect a client over stdio\n`);
    const serverJs = path.join(root, 'dist', 'server.js');
    if (!fs.existsSync(serverJs)) {
      io.stderr.write(`${serverJs} is missing; run 'npm run build' first\n`);
      return EXIT_OPERATIONAL;
    }
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
    env.SCHEMABRAIN_HOME = home;
    const workspace = path.join(root, 'samples', 'chinook-workspace');
    const transport = new StdioClientTransport({ command: process.execPath, args: [serverJs, '--catalog', catalog, '--workspace', workspace], env, stderr: 'ignore' });
    const client = new Client({ name: 'schemabrain-demo', version: '1.0.0' });
    let failures = 0;
    try {
      await client.connect(transport);
      const { tools } = await client.listTools();
      io.stdout.write(`   ${tools.length} tools: ${tools.map((t) => t.name).join(', ')}\n`);
      let n = 3;
      for (const step of STEPS) {
        if (!tools.some((t) => t.name === step.tool)) continue;
        io.stdout.write(`\n${n++}. ${step.say}\n   → ${step.tool} ${JSON.stringify(step.args)}\n`);
        const res = await client.callTool({ name: step.tool, arguments: step.args });
        const env = res.structuredContent as { status?: string; confidence?: string | null; data?: unknown; error?: unknown; follow_up_hints?: string[] | null } | undefined;
        if (!env?.status) failures++;
        const extras = [env?.confidence ? `confidence ${env.confidence}` : null, env?.follow_up_hints?.length ? `next: ${env.follow_up_hints.join(', ')}` : null].filter(Boolean);
        io.stdout.write(`   ← status: ${env?.status ?? 'missing envelope'}${extras.length ? ` (${extras.join('; ')})` : ''}\n`);
        show(io, p.flags.full ? env : (env?.error ?? env?.data), maxLines);
      }
    } finally {
      await client.close().catch(() => undefined);
    }
    io.stdout.write(`\nDone. Point any MCP client at: node ${serverJs} --catalog ${catalog} --workspace ${workspace}\n`);
    return failures ? EXIT_CHECK_FAILED : EXIT_OK;
  },
};
