/**
 * Timestamps and `--since` cursors shared by the event bus, its tail and the audit log.
 * Seed 002 fixes the wire form: ISO 8601 UTC with microsecond precision and a trailing `Z`.
 */

/** Microseconds since the Unix epoch, from the high-resolution clock (Date alone only has milliseconds). */
export function nowMicros(): number {
  return Math.floor((performance.timeOrigin + performance.now()) * 1000);
}

/** `2025-01-02T03:04:05.678901Z` for a microsecond epoch value. */
export function isoMicros(micros: number = nowMicros()): string {
  const ms = Math.floor(micros / 1000);
  const frac = String(((micros % 1000) + 1000) % 1000).padStart(3, '0');
  return new Date(ms).toISOString().replace(/Z$/, `${frac}Z`);
}

const DURATION = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d|w)$/i;
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/**
 * Parses a `--since` value: a duration back from `now` (`90s`, `5m`, `24h`, `7d`) or an ISO 8601 timestamp.
 * Returns the cut-off as an ISO string in the same microsecond form the files use, so comparisons are plain
 * string comparisons; `undefined` when the text is neither.
 */
export function parseSince(text: string, now: number = Date.now()): string | undefined {
  const t = text.trim();
  const d = DURATION.exec(t);
  if (d) return isoMicros(Math.round((now - Number(d[1]) * UNIT_MS[d[2].toLowerCase()]) * 1000));
  // Bare dates and date-times without a zone are read as UTC: the files are UTC and a local reading would shift the window.
  if (!/^\d{4}-\d{2}-\d{2}/.test(t)) return undefined;
  const hasZone = /(Z|[+-]\d{2}:?\d{2})$/i.test(t);
  const withZone = hasZone || t.length === 10 ? t : `${t}Z`;
  const ms = Date.parse(withZone);
  if (Number.isNaN(ms)) return undefined;
  // Keep sub-millisecond digits the user typed, when the input is already UTC.
  const micro = /\.(\d{4,6})Z$/i.exec(t);
  if (micro) return isoMicros(Math.floor(ms) * 1000 + (Number(micro[1].padEnd(6, '0').slice(3)) || 0));
  return isoMicros(ms * 1000);
}

/** Timestamps written by this product sort lexically; anything else is compared by its parsed instant. */
export function isAtOrAfter(timestamp: string, cutoff: string): boolean {
  if (timestamp.length === cutoff.length) return timestamp >= cutoff;
  const a = Date.parse(timestamp);
  const b = Date.parse(cutoff);
  if (Number.isNaN(a) || Number.isNaN(b)) return timestamp >= cutoff;
  return a === b ? timestamp >= cutoff : a > b;
}
