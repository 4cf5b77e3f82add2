/**
 * Lower case for ASCII letters only, as SQLite and MySQL compare names: `Ä`/`ä` and the Kelvin sign `K`/`k` stay
 * apart (JavaScript's toLowerCase folds U+212A onto `k`, so a look-alike name would match a real one).
 */
export function asciiLower(s: string): string {
  return s.replace(/[A-Z]/g, (c) => c.toLowerCase());
}
