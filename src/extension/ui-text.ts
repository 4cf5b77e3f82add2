import { terminalSafe } from '../core/util/terminal-text';

/**
 * Text the editor shows for the extension (notification toasts, its log channel) can carry what a database, a team
 * server or an agent wrote: a table name, a driver's error, a server version string, a principal. The editor reads
 * some of that text as markup. A toast turns `[label](command:…)`, `(file:…)` or `(https:…)` into a link that runs
 * a command or opens a file with one click; a line feed in a log line starts a line of its own that looks like the
 * extension's. These helpers are the sinks' last step, so no message path has to remember to escape its parts.
 */

/** Breaks the `](` of a markdown link with a zero-width space: the text reads the same, nothing is a link. */
function noLinks(text: string): string {
  return text.replace(/\]\s*\(/g, ']\u200b(');
}

/** A message for a toast: line breaks folded to spaces, other control and bidi characters shown as escapes, no links. */
export function toastText(message: string): string {
  return noLinks(terminalSafe(message.replace(/\r\n|[\r\n]/g, ' ')));
}

/** A button label on a toast: the same, and kept short. */
export function buttonText(label: string): string {
  const t = toastText(label);
  return t.length > 60 ? `${t.slice(0, 59)}…` : t;
}

/** One log line: every control character (line feeds too) shown as an escape, so a value cannot forge a line. */
export function logLine(message: string): string {
  return terminalSafe(message);
}

const ZWSP = '\u200b';

/**
 * Breaks what the editor's markdown would act on inside any text, code spans included: a theme icon `$(name)`
 * (spoofed status marks) and a bare `scheme://` or `www.` address (an autolink). A zero-width space between the
 * characters keeps the text readable and stops the pattern; backslash escapes would not, since icons are drawn after
 * the markdown is parsed and code spans take no escapes.
 */
function inertPatterns(text: string): string {
  return text
    .replace(/\$\(/g, `$${ZWSP}(`)
    .replace(/:\/\//g, `:${ZWSP}//`)
    .replace(/\bwww\./gi, (m) => `${m.slice(0, 3)}${ZWSP}.`);
}

/**
 * Untrusted text (a name, comment, kind or message from a database, a team store or a log) placed in markdown that
 * this extension writes: every markdown syntax character escaped, raw HTML and links impossible, no icon or autolink.
 */
export function markdownText(text: string): string {
  return inertPatterns(terminalSafe(text.replace(/\r\n|[\r\n]/g, ' '))).replace(/[\\`*_{}[\]()#+\-.!|<>~&]/g, (ch) => `\\${ch}`);
}

/** A code span of any text: a fence longer than any run of backticks in it, and no icon or autolink inside. */
export function markdownCode(text: string): string {
  const s = inertPatterns(terminalSafe(text.replace(/\r\n|[\r\n]/g, ' ')));
  const longest = Math.max(0, ...(s.match(/`+/g) ?? []).map((r) => r.length));
  const fence = '`'.repeat(longest + 1);
  const pad = s.startsWith('`') || s.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${s}${pad}${fence}`;
}
