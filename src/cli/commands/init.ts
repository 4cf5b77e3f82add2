import fs from 'node:fs';
import path from 'node:path';
import { defaultCatalogPath } from '../../core/util/home';
import { parseArgs, stringFlag, UsageError } from '../args';
import { EXIT_OK, EXIT_OPERATIONAL } from '../command';
import type { CliCommand } from '../command';
import { NOT_REGULAR, readRegularFile } from '../../core/util/regular-file';
import { makeDirs } from '../../core/util/make-dirs';

const CLIENTS = ['vscode', 'claude', 'cursor', 'generic'] as const;
type Client = (typeof CLIENTS)[number];

const USAGE = `schemabrain init [--client vscode|claude|cursor|generic] [--catalog PATH] [--workspace DIR] [--write FILE]

  Prints the MCP client configuration that starts this SchemaBrain server (no secrets: passwords come from
  \${VAR} references in the indexed URL, PGPASSWORD or ~/.pgpass). --write merges it into FILE (e.g.
  .vscode/mcp.json or ~/.cursor/mcp.json), keeping the other servers there.`;

/** The server entry for one client's config format (VS Code uses `servers`, the others `mcpServers`). */
export function serverConfig(client: Client, serverJs: string, catalog: string, workspace: string | null): { key: string; entry: Record<string, unknown> } {
  const args = [serverJs, '--catalog', catalog, ...(workspace ? ['--workspace', workspace] : [])];
  const entry = client === 'vscode' ? { type: 'stdio', command: 'node', args } : { command: 'node', args };
  return { key: client === 'vscode' ? 'servers' : 'mcpServers', entry };
}

/** A JSON object (not an array or null): the only shape a client configuration file or its server map may have. */
function isJsonObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** How a JSON value is named in a refusal ("an array", "null", "a number"). */
function jsonKind(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

export const initCommand: CliCommand = {
  name: 'init',
  summary: 'Print or write the MCP client configuration that starts this server (VS Code, Claude, Cursor)',
  usage: USAGE,
  async run(argv, io) {
    const p = parseArgs(argv, { client: 'string', catalog: 'string', workspace: 'string', write: 'string' });
    const client = (stringFlag(p, 'client') ?? 'generic') as Client;
    if (!CLIENTS.includes(client)) throw new UsageError(`--client must be one of ${CLIENTS.join(', ')}`);
    const serverJs = path.join(__dirname, 'server.js');
    if (!fs.existsSync(serverJs)) {
      io.stderr.write(`schemabrain init: ${serverJs} is missing; run 'npm run build' first\n`);
      return EXIT_OPERATIONAL;
    }
    const catalog = path.resolve(stringFlag(p, 'catalog') ?? defaultCatalogPath(io.env));
    const workspace = stringFlag(p, 'workspace');
    const { key, entry } = serverConfig(client, serverJs, catalog, workspace ? path.resolve(workspace) : null);
    const target = stringFlag(p, 'write');
    if (!target) {
      io.stdout.write(`${JSON.stringify({ [key]: { schemabrain: entry } }, null, 2)}\n`);
      return EXIT_OK;
    }
    const file = path.resolve(target);
    const refuse = (why: string): number => {
      io.stderr.write(`schemabrain init: ${file} ${why}; fix or move it, nothing was written\n`);
      return EXIT_OPERATIONAL;
    };
    let existing: Record<string, unknown> = {};
    if (fs.existsSync(file)) {
      let text: string;
      try {
        // A pipe would block the read for good, and a directory cannot be merged into.
        text = readRegularFile(file).toString('utf8');
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        return refuse(code === NOT_REGULAR ? 'is not a regular file' : `cannot be read (${code ?? (e as Error).message})`);
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch (e) {
        return refuse(`is not valid JSON (${(e as Error).message})`);
      }
      // Merging into anything but an object would rewrite the user's file into another shape (an array's items
      // become "0", "1" members; a scalar member is replaced), so the file is refused as it is.
      if (!isJsonObject(parsed)) return refuse(`holds ${jsonKind(parsed)} at the top level, not an object`);
      if (parsed[key] !== undefined && !isJsonObject(parsed[key])) return refuse(`has "${key}" as ${jsonKind(parsed[key])}, not an object of servers`);
      existing = parsed;
    }
    const servers = { ...((existing[key] as Record<string, unknown> | undefined) ?? {}), schemabrain: entry };
    try {
      makeDirs(path.dirname(file));
      fs.writeFileSync(file, `${JSON.stringify({ ...existing, [key]: servers }, null, 2)}\n`);
    } catch (e) {
      io.stderr.write(`schemabrain init: cannot write ${file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})\n`);
      return EXIT_OPERATIONAL;
    }
    io.stdout.write(`wrote the schemabrain server into ${file} (${key}.schemabrain)\n`);
    return EXIT_OK;
  },
};
