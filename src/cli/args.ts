/** Minimal flag parser shared by the CLI verbs: `--flag value`, `--flag=value`, booleans, and positional words. */

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export interface FlagSpec {
  readonly [flag: string]: 'string' | 'boolean';
}

export interface ParsedArgs {
  readonly flags: Record<string, string | boolean | undefined>;
  readonly positional: string[];
}

export function parseArgs(argv: readonly string[], spec: FlagSpec): ParsedArgs {
  const flags: Record<string, string | boolean | undefined> = {};
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith('--')) {
      positional.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const name = eq > 0 ? a.slice(2, eq) : a.slice(2);
    const kind = spec[name];
    if (!kind) {
      const known = Object.keys(spec).map((k) => `--${k}`).join(', ');
      throw new UsageError(`unknown option '--${name}' (known: ${known})`);
    }
    if (kind === 'boolean') {
      if (eq > 0) throw new UsageError(`--${name} takes no value`);
      flags[name] = true;
      continue;
    }
    const value = eq > 0 ? a.slice(eq + 1) : argv[++i];
    if (value === undefined || (eq < 0 && value.startsWith('--'))) throw new UsageError(`--${name} needs a value`);
    // One value per option: with two, which one was meant is a guess (repeatable options are taken out before this).
    if (flags[name] !== undefined && flags[name] !== value) throw new UsageError(`--${name} is given twice ('${String(flags[name]).slice(0, 60)}' and '${value.slice(0, 60)}'); give it once`);
    flags[name] = value;
  }
  return { flags, positional };
}

export function stringFlag(p: ParsedArgs, name: string): string | undefined {
  const v = p.flags[name];
  return typeof v === 'string' ? v : undefined;
}

export function intFlag(p: ParsedArgs, name: string, min: number, max: number): number | undefined {
  const v = stringFlag(p, name);
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min || n > max) throw new UsageError(`--${name} must be an integer between ${min} and ${max}`);
  return n;
}
