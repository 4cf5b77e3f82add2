/**
 * Column lists from the CREATE TABLE text of Spider 2.0-lite's DDL.csv rows (BigQuery, Snowflake and SQLite
 * dialects): top-level comma split of the parenthesised body, nested STRUCT<…>/ARRAY<…> kept whole, BigQuery
 * `OPTIONS(description="…")` read as the column comment.
 */
import type { ColumnSpec } from './table-info';

export function parseDdlColumns(ddl: string): ColumnSpec[] {
  const open = ddl.indexOf('(');
  if (open < 0) return [];
  const items: string[] = [];
  let depth = 0;
  let cur = '';
  let quote: string | null = null;
  for (let i = open + 1; i < ddl.length; i++) {
    const ch = ddl[i]!;
    if (quote !== null) {
      cur += ch;
      if (ch === '\\') {
        cur += ddl[++i] ?? '';
      } else if (ch === quote) quote = null;
      continue;
    }
    if (ch === '"' || ch === "'" || ch === '`') {
      quote = ch;
      cur += ch;
      continue;
    }
    if (ch === '(' || ch === '<') depth++;
    if (ch === ')' || ch === '>') {
      if (depth === 0) {
        items.push(cur);
        break;
      }
      depth--;
    }
    if (ch === ',' && depth === 0) {
      items.push(cur);
      cur = '';
      continue;
    }
    cur += ch;
  }
  const out: ColumnSpec[] = [];
  for (const raw of items) {
    const item = raw.trim();
    if (item.length === 0 || /^(PRIMARY|FOREIGN|CONSTRAINT|UNIQUE|CHECK|KEY)\b/i.test(item)) continue;
    const m = /^(`[^`]+`|"[^"]+"|\[[^\]]+\]|[^\s]+)\s*(.*)$/s.exec(item);
    if (!m) continue;
    const name = m[1]!.replace(/^[`"[]|[`"\]]$/g, '');
    const desc = /description\s*=\s*"((?:[^"\\]|\\.)*)"/.exec(m[2]!);
    out.push({ name, dataType: (m[2]!.split(/\s/)[0] ?? '').slice(0, 40) || 'text', comment: desc ? desc[1]!.replace(/\\(.)/g, '$1') : null });
  }
  return out;
}
