import { z } from 'zod';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { Protocol, type RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { CallToolRequestSchema, type CallToolResult, type ServerNotification, type ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import { failure, fuzzyMatches } from '../core/envelope';
import type { Envelope } from '../core/envelope';

/**
 * Strict argument validation that answers with an envelope (kind `invalid_argument`) instead of a protocol error.
 * Messages follow the validator style of seed 003: `missing required argument 'q'`,
 * `argument 'limit' value must be <= 100`, `argument 'mode' must be one of the enum values`.
 */

type Issue = z.core.$ZodIssue;

function argPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : out ? `.${String(p)}` : String(p);
  return out;
}

function typeName(expected: string): string {
  switch (expected) {
    case 'int':
      return 'an integer';
    case 'number':
      return 'a number';
    case 'string':
      return 'a string';
    case 'boolean':
      return 'a boolean';
    case 'array':
      return 'an array';
    case 'object':
      return 'an object';
    default:
      return `of type ${expected}`;
  }
}

function getAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let v = value;
  for (const p of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[p];
  }
  return v;
}

export function issueMessage(issue: Issue, input: unknown): string {
  const name = argPath(issue.path);
  switch (issue.code) {
    case 'invalid_type': {
      if (getAt(input, issue.path) === undefined) return `missing required argument '${name}'`;
      return `argument '${name}' must be ${typeName(issue.expected)}`;
    }
    case 'too_small': {
      const op = issue.inclusive === false ? '>' : '>=';
      if (issue.origin === 'string') return `argument '${name}' string length must be ${op} ${String(issue.minimum)}`;
      if (issue.origin === 'array') return `argument '${name}' must have ${op} ${String(issue.minimum)} items`;
      return `argument '${name}' value must be ${op} ${String(issue.minimum)}`;
    }
    case 'too_big': {
      const op = issue.inclusive === false ? '<' : '<=';
      if (issue.origin === 'string') return `argument '${name}' string length must be ${op} ${String(issue.maximum)}`;
      if (issue.origin === 'array') return `argument '${name}' must have ${op} ${String(issue.maximum)} items`;
      return `argument '${name}' value must be ${op} ${String(issue.maximum)}`;
    }
    case 'invalid_value':
      return `argument '${name}' must be one of the enum values (${issue.values.map((v) => JSON.stringify(v)).join(', ')})`;
    case 'unrecognized_keys':
      return issue.keys.map((k) => `unknown argument '${argPath([...issue.path, k])}'`).join('; ');
    case 'invalid_format':
      // A pattern the tool explains in its own words ("the query is blank: …") says more than the pattern itself.
      if (issue.format === 'regex' && !/^Invalid/.test(issue.message)) return `argument '${name}': ${issue.message}`;
      return `argument '${name}' must match the format ${issue.format}`;
    case 'invalid_union':
      return `argument '${name}' does not match any accepted shape`;
    default:
      return `argument '${name}' ${issue.message}`;
  }
}

/** Best-effort corrected arguments for the recovery hint: clamp numbers, drop unknown keys, rename near-miss keys. */
function repairedArgs(input: Record<string, unknown>, issues: readonly Issue[], known: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = { ...input };
  for (const issue of issues) {
    if (issue.path.length !== 1 && issue.code !== 'unrecognized_keys') continue;
    const key = String(issue.path[0] ?? '');
    if (issue.code === 'too_big' && typeof out[key] === 'number') out[key] = Number(issue.maximum);
    if (issue.code === 'too_small' && typeof out[key] === 'number') out[key] = Number(issue.minimum);
    if (issue.code === 'unrecognized_keys' && issue.path.length === 0) {
      for (const k of issue.keys) {
        const near = fuzzyMatches(k, known, 1, 0.6)[0];
        if (near && out[near] === undefined) out[near] = out[k];
        delete out[k];
      }
    }
  }
  return out;
}

export type Validated<T> = { readonly ok: true; readonly args: T } | { readonly ok: false; readonly envelope: Envelope<never> };

export function validateArgs<S extends z.ZodObject>(toolName: string, schema: S, raw: unknown): Validated<z.infer<S>> {
  const input = raw === undefined ? {} : raw;
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    return {
      ok: false,
      envelope: failure('invalid_argument', `arguments of '${toolName}' must be an object`, {
        recovery: { suggested_tool: toolName, suggested_args: {} },
      }),
    };
  }
  const parsed = schema.safeParse(input);
  if (parsed.success) return { ok: true, args: parsed.data };
  const known = Object.keys(schema.shape);
  const issues = parsed.error.issues;
  const message = issues.map((i) => issueMessage(i, input)).join('; ');
  const unknownKeys = issues.flatMap((i) => (i.code === 'unrecognized_keys' ? i.keys : []));
  const fuzzy = [...new Set(unknownKeys.flatMap((k) => fuzzyMatches(k, known, 2, 0.4)))];
  return {
    ok: false,
    envelope: failure('invalid_argument', message, {
      recovery: {
        suggested_tool: toolName,
        suggested_args: repairedArgs(input as Record<string, unknown>, issues, known),
        fuzzy_matches: fuzzy.length ? fuzzy : unknownKeys.length ? known : [],
      },
    }),
  };
}

/** JSON Schema for `inputSchema` (draft-07, closed objects). */
export function inputJsonSchema(schema: z.ZodObject): Record<string, unknown> {
  const js = z.toJSONSchema(schema, { target: 'draft-7', io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete js.$schema;
  return js;
}

/**
 * `tools/call` as the SDK defines it, except that `arguments` may be anything: a call whose arguments are null, a
 * string, a number or an array must reach `validateArgs` and get an `invalid_argument` envelope, not a JSON-RPC
 * protocol error the agent cannot act on.
 */
export const LenientCallToolRequestSchema = CallToolRequestSchema.extend({
  params: CallToolRequestSchema.shape.params.extend({ arguments: z.unknown().optional() }),
});

export type LenientCallToolRequest = z.infer<typeof LenientCallToolRequestSchema>;

/**
 * Registers the tools/call handler with the lenient schema. The SDK's `Server.setRequestHandler` re-validates every
 * tools/call against its strict schema before the handler runs, so the registration goes through the protocol layer
 * underneath it; results are the envelopes `toResult` builds, valid CallToolResults by construction.
 */
export function setToolCallHandler(server: Server, handler: (req: LenientCallToolRequest, extra: RequestHandlerExtra<ServerRequest, ServerNotification>) => Promise<CallToolResult>): void {
  Protocol.prototype.setRequestHandler.call(server, LenientCallToolRequestSchema, handler as never);
}

/** The deepest nesting any tool argument may have; every tool's own schema needs at most three levels. */
export const MAX_ARGUMENT_DEPTH = 32;

/**
 * True when `value` nests objects or arrays deeper than `limit`, found without recursion so that an argument nested
 * thousands of levels deep is refused before validation, redaction or the audit fingerprint walk it.
 */
export function nestedDeeperThan(value: unknown, limit: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth >= limit) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, depth + 1]);
  }
  return false;
}

/**
 * The most values (object members and array elements, at any depth) a request's arguments may hold. Tool arguments
 * are a handful of names and short lists; checking a hundred thousand unknown keys one by one held every other client
 * for seconds.
 */
export const MAX_ARGUMENT_VALUES = 5000;

/** True when `value` holds more than `limit` values at any depth; counted without recursion, stopping at the bound. */
export function moreValuesThan(value: unknown, limit: number): boolean {
  const stack: unknown[] = [value];
  let count = 0;
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || typeof v !== 'object') continue;
    const children = Array.isArray(v) ? v : Object.values(v as Record<string, unknown>);
    count += children.length;
    if (count > limit) return true;
    for (const c of children) if (c !== null && typeof c === 'object') stack.push(c);
  }
  return false;
}
