/**
 * Text printed for a person (a terminal, the editor's output channel) that carries values from a database, an
 * agent's call or a log file. Such a value can hold control characters: an escape sequence that clears the screen,
 * recolours or retitles the terminal, a carriage return that overwrites the line, a NUL, or a bidi override that
 * shows text in another order than it is stored. Data must never drive the terminal, so these characters are shown
 * as visible escapes (`\x1b`, `\u202e`) instead. JSON output needs none of this: JSON.stringify escapes C0 itself.
 *
 * Escaped: C0 (U+0000–U+001F), DEL (U+007F), C1 (U+0080–U+009F) and the bidi embeddings, overrides and isolates
 * (U+202A–U+202E, U+2066–U+2069).
 */

const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** The same set less the line feed, for text whose lines this program itself laid out. */
const UNSAFE_BUT_NEWLINE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

function visible(c: string): string {
  const code = c.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** One value or name (a cell, a column name, a message part): every control character escaped, line feeds too. */
export function terminalSafe(text: string): string {
  return text.replace(UNSAFE, visible);
}

/**
 * A whole block of output laid out here: the line feeds between its lines are kept, every other control character
 * is escaped. The last guard of a printer, for parts that were not escaped one by one.
 */
export function terminalSafeLines(text: string): string {
  return text.replace(UNSAFE_BUT_NEWLINE, visible);
}

const RAW = Symbol.for('schemabrain.terminal.raw');

/**
 * A stream whose text writes are shown as `terminalSafeLines` shows them: every control character but the line feed is
 * escaped, so no message, name or value that reaches it (a database's error text, a table name, a token's principal)
 * can drive the terminal, whichever code path printed it. `redraw` is the one way to put a carriage return: it
 * escapes its text and returns to the start of the line (a progress bar).
 */
export interface TerminalStream extends NodeJS.WritableStream {
  readonly [RAW]: NodeJS.WritableStream;
}

export function terminalStream(stream: NodeJS.WritableStream): NodeJS.WritableStream {
  if ((stream as Partial<TerminalStream>)[RAW]) return stream;
  const write = (chunk: string | Uint8Array, ...rest: unknown[]): boolean => {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    return (stream.write as (c: string, ...r: unknown[]) => boolean)(terminalSafeLines(text), ...rest);
  };
  return new Proxy(stream, {
    get(target, prop) {
      if (prop === 'write') return write;
      if (prop === RAW) return target;
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** Redraws the current line of a terminal with `line` (escaped): a carriage return no written text can carry. */
export function redrawLine(stream: NodeJS.WritableStream, line: string): void {
  const raw = (stream as Partial<TerminalStream>)[RAW] ?? stream;
  raw.write(`\r${terminalSafe(line)}`);
}
