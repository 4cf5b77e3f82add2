/**
 * Parsing of the names agents pass: `schema.table` and `schema.table.column`. Segments may be double-quoted
 * (`"Sales Data"."Order Items"`), with `""` as an escaped quote, so dots, spaces and mixed case survive.
 */

export type ParsedName = { readonly ok: true; readonly parts: readonly string[] } | { readonly ok: false; readonly reason: string };

export function splitName(input: string): ParsedName {
  const parts: string[] = [];
  let i = 0;
  const s = input.trim();
  if (s.length === 0) return { ok: false, reason: 'name is empty' };
  while (i <= s.length) {
    let seg = '';
    if (s[i] === '"') {
      i++;
      let closed = false;
      while (i < s.length) {
        if (s[i] === '"') {
          if (s[i + 1] === '"') {
            seg += '"';
            i += 2;
            continue;
          }
          closed = true;
          i++;
          break;
        }
        seg += s[i++];
      }
      if (!closed) return { ok: false, reason: 'unterminated double quote' };
      if (i < s.length && s[i] !== '.') return { ok: false, reason: `unexpected character after quoted segment at position ${i}` };
    } else {
      while (i < s.length && s[i] !== '.') {
        if (s[i] === '"') return { ok: false, reason: `unexpected double quote at position ${i}` };
        seg += s[i++];
      }
      seg = seg.trim();
    }
    if (seg.length === 0) return { ok: false, reason: 'empty name segment' };
    if (/[\u0000-\u001f\u007f]/.test(seg)) return { ok: false, reason: 'control characters are not allowed in names' };
    parts.push(seg);
    if (i >= s.length) break;
    i++; // skip '.'
    if (i >= s.length) return { ok: false, reason: 'name ends with a dot' };
  }
  return { ok: true, parts };
}

/**
 * Renders a segment so `splitName` reads it back: bare unless it holds a dot, a quote or edge whitespace.
 * Case and spaces stay bare (`main.Album`, `public.Order Items`) because lookups are exact first.
 */
export function quoteSegment(seg: string): string {
  return /[."]|^\s|\s$/.test(seg) ? `"${seg.replace(/"/g, '""')}"` : seg;
}

export function formatName(...parts: string[]): string {
  return parts.map(quoteSegment).join('.');
}
