/**
 * Stable resource URIs for the catalog:
 *   schemabrain://<source>                         the source's overview
 *   schemabrain://<source>/<schema>/<table>        a table or view
 *   schemabrain://<source>/<schema>/<table>/<col>  one column
 *   schemabrain://<source>/entities/<name>         a semantic-layer entity
 *   schemabrain://<source>/metrics/<name>          a semantic-layer metric
 * Every segment is percent-encoded. A schema literally named `metrics` or `entities` has its first letter encoded
 * (`%6Detrics`), so the raw segment alone tells a table from a definition and no URI is ambiguous.
 */

export const SCHEME = 'schemabrain:';

export type ResourceRef =
  | { readonly kind: 'source'; readonly source: string }
  | { readonly kind: 'table'; readonly source: string; readonly schema: string; readonly table: string }
  | { readonly kind: 'column'; readonly source: string; readonly schema: string; readonly table: string; readonly column: string }
  | { readonly kind: 'entity'; readonly source: string; readonly name: string }
  | { readonly kind: 'metric'; readonly source: string; readonly name: string };

const RESERVED = new Set(['metrics', 'entities']);

function enc(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function encSchema(s: string): string {
  const e = enc(s);
  return RESERVED.has(e) ? `%${e.charCodeAt(0).toString(16).toUpperCase()}${e.slice(1)}` : e;
}

export function sourceUri(source: string): string {
  return `schemabrain://${enc(source)}`;
}

export function tableUri(source: string, schema: string, table: string): string {
  return `schemabrain://${enc(source)}/${encSchema(schema)}/${enc(table)}`;
}

export function columnUri(source: string, schema: string, table: string, column: string): string {
  return `${tableUri(source, schema, table)}/${enc(column)}`;
}

export function entityUri(source: string, name: string): string {
  return `schemabrain://${enc(source)}/entities/${enc(name)}`;
}

export function metricUri(source: string, name: string): string {
  return `schemabrain://${enc(source)}/metrics/${enc(name)}`;
}

export function refUri(ref: ResourceRef): string {
  switch (ref.kind) {
    case 'source':
      return sourceUri(ref.source);
    case 'table':
      return tableUri(ref.source, ref.schema, ref.table);
    case 'column':
      return columnUri(ref.source, ref.schema, ref.table, ref.column);
    case 'entity':
      return entityUri(ref.source, ref.name);
    case 'metric':
      return metricUri(ref.source, ref.name);
  }
}

function dec(s: string): string | null {
  if (s === '') return null;
  try {
    return decodeURIComponent(s);
  } catch {
    return null;
  }
}

/** Parses a SchemaBrain resource URI; null for anything else (another scheme, a malformed segment). */
export function parseResourceUri(uri: string): ResourceRef | null {
  const prefix = 'schemabrain://';
  if (!uri.startsWith(prefix)) return null;
  const raw = uri.slice(prefix.length).replace(/\/$/, '').split('/');
  const parts = raw.map(dec);
  if (parts.some((p) => p === null)) return null;
  const [source, a, b, c] = parts as string[];
  if (source === undefined) return null;
  if (raw.length === 1) return { kind: 'source', source };
  if (raw.length === 3 && raw[1] === 'metrics') return { kind: 'metric', source, name: b! };
  if (raw.length === 3 && raw[1] === 'entities') return { kind: 'entity', source, name: b! };
  if (raw.length === 3) return { kind: 'table', source, schema: a!, table: b! };
  if (raw.length === 4) return { kind: 'column', source, schema: a!, table: b!, column: c! };
  return null;
}

/** The resource templates clients fill in (completion/complete offers the variables). */
export const RESOURCE_TEMPLATES = [
  {
    uriTemplate: 'schemabrain://{source}/{schema}/{table}',
    name: 'table',
    title: 'Table or view',
    description: 'Columns, keys, joins, PII tags and comments of one indexed table or view.',
    mimeType: 'text/markdown',
  },
  {
    uriTemplate: 'schemabrain://{source}/{schema}/{table}/{column}',
    name: 'column',
    title: 'Column',
    description: 'One column in depth: type, nullability, comment, statistics and foreign keys.',
    mimeType: 'application/json',
  },
  {
    uriTemplate: 'schemabrain://{source}/metrics/{metric}',
    name: 'metric',
    title: 'Metric',
    description: 'A semantic-layer metric: its definition and the SQL it compiles to.',
    mimeType: 'text/markdown',
  },
  {
    uriTemplate: 'schemabrain://{source}/entities/{entity}',
    name: 'entity',
    title: 'Entity',
    description: 'A semantic-layer entity: its table, identity, columns, joins and metrics.',
    mimeType: 'application/json',
  },
] as const;
