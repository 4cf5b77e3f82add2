import { Transform } from 'node:stream';
import type { TransformCallback } from 'node:stream';
import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import { MAX_ARGUMENT_VALUES, moreValuesThan } from './validate';

/**
 * What the stdio server reads before the MCP SDK does. The SDK's reader drops a line it cannot parse, or one its
 * message schema refuses, with no answer, so a client waiting on that id waits for good; and past 10 MiB of buffered
 * input it closes the transport, after which the process reads on and answers nothing. Here every line is checked with
 * the same parse and the same schema first: a line that passes goes on unchanged, any other is answered with the
 * JSON-RPC error it calls for (-32700 for bytes that are not JSON, -32600 for anything else) and never reaches the
 * SDK. A line longer than `maxLineBytes` is discarded as it streams in, without being held.
 */

/** The longest request line taken (the SDK gives up at 10 MiB of buffered input; tool arguments are far smaller). */
export const MAX_LINE_BYTES = 8 * 1024 * 1024;

export type JsonRpcId = string | number | null;

/** A JSON-RPC error response for a line that never reached the SDK. */
export interface InputErrorReply {
  readonly jsonrpc: '2.0';
  readonly id: JsonRpcId;
  readonly error: { readonly code: number; readonly message: string };
}

/** What is said of a refused line: the reply to send, and a note for the log (sizes and kinds, never the content). */
export type InputProblem = (reply: InputErrorReply, note: string) => void;

const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
const INVALID_PARAMS = -32602;

/**
 * Why a message's params are too large to check, or null. A tool call is left to the server, which answers it with an
 * `invalid_argument` envelope as the charter asks; any other method is answered here.
 */
export function paramsShapeProblem(message: unknown): string | null {
  if (message === null || typeof message !== 'object') return null;
  const m = message as { method?: unknown; params?: unknown };
  if (m.method === 'tools/call') return null;
  return moreValuesThan(m.params, MAX_ARGUMENT_VALUES) ? `hold more than ${MAX_ARGUMENT_VALUES} values; arguments are a few names and short lists` : null;
}

/** A request id as MCP takes it: a string or an integer. */
function usableId(id: unknown): JsonRpcId {
  return typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id)) ? id : null;
}

/**
 * The id at the head of a line too long to parse, when the line starts as clients write requests
 * (`{"jsonrpc":"2.0","id":…`); null otherwise, so a key named id inside the params is never taken for it.
 */
function leadingId(head: string): JsonRpcId {
  const m = /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*(-?\d{1,15}(?=\s*[,}])|"(?:[^"\\]|\\.){0,256}")/.exec(head);
  if (!m) return null;
  try {
    return usableId(JSON.parse(m[1]!));
  } catch {
    return null;
  }
}

/** The check of one complete line: null when it may go on to the SDK, else the error to answer. */
export function checkLine(line: string): { reply: InputErrorReply; note: string } | null {
  if (line.trim() === '') return null; // the SDK skips blank lines too
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { reply: { jsonrpc: '2.0', id: null, error: { code: PARSE_ERROR, message: 'Parse error: the line is not JSON' } }, note: `a line of ${line.length} characters that is not JSON` };
  }
  if (JSONRPCMessageSchema.safeParse(value).success) {
    const problem = paramsShapeProblem(value);
    if (!problem) return null;
    const id = usableId((value as { id?: unknown }).id);
    return { reply: { jsonrpc: '2.0', id, error: { code: INVALID_PARAMS, message: `Invalid params: ${problem}` } }, note: `a message whose params ${problem}` };
  }
  const id = value !== null && typeof value === 'object' && !Array.isArray(value) ? usableId((value as { id?: unknown }).id) : null;
  const what = Array.isArray(value)
    ? 'a batch (an array); send one message per line'
    : value === null || typeof value !== 'object'
      ? 'not an object'
      : describeMessageProblem(value as Record<string, unknown>);
  return { reply: { jsonrpc: '2.0', id, error: { code: INVALID_REQUEST, message: `Invalid Request: ${what}` } }, note: `an invalid JSON-RPC message (${what})` };
}

const MEMBERS = new Set(['jsonrpc', 'id', 'method', 'params', 'result', 'error']);

/** One line on what makes an object no JSON-RPC 2.0 message, in the order a reader would check. */
function describeMessageProblem(m: Record<string, unknown>): string {
  if (m.jsonrpc !== '2.0') return `"jsonrpc" must be "2.0"`;
  const extra = Object.keys(m).find((k) => !MEMBERS.has(k));
  if (extra !== undefined) return `unknown member "${extra.slice(0, 40)}"`;
  if ('id' in m && usableId(m.id) === null) return '"id" must be a string or an integer';
  if ('method' in m && typeof m.method !== 'string') return '"method" must be a string';
  if ('params' in m && (m.params === null || typeof m.params !== 'object' || Array.isArray(m.params))) return '"params" must be an object';
  return 'not a request, notification or response of JSON-RPC 2.0';
}

/** The filter itself: bytes in, checked lines out; refused lines go to `problem`. */
export class StdioInput extends Transform {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Set while the rest of an over-long line is skipped; holds the id found at its head. */
  private skipping: { id: JsonRpcId; bytes: number } | null = null;

  constructor(
    private readonly problem: InputProblem,
    private readonly maxLineBytes = MAX_LINE_BYTES,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(0x0a, start);
      const piece = chunk.subarray(start, nl === -1 ? chunk.length : nl);
      if (this.skipping) this.skipping.bytes += piece.length;
      else if (this.pendingBytes + piece.length > this.maxLineBytes) {
        const head = Buffer.concat([...this.pending, piece]).subarray(0, 1024).toString('utf8');
        this.skipping = { id: leadingId(head), bytes: this.pendingBytes + piece.length };
        this.pending = [];
        this.pendingBytes = 0;
      } else if (piece.length > 0) {
        this.pending.push(piece);
        this.pendingBytes += piece.length;
      }
      if (nl === -1) break;
      this.endLine();
      start = nl + 1;
    }
    done();
  }

  override _flush(done: TransformCallback): void {
    if (this.skipping || this.pendingBytes > 0) this.endLine();
    done();
  }

  private endLine(): void {
    if (this.skipping) {
      const { id, bytes } = this.skipping;
      this.skipping = null;
      const limit = `${Math.round(this.maxLineBytes / 1024 / 1024)} MiB`;
      this.problem({ jsonrpc: '2.0', id, error: { code: INVALID_REQUEST, message: `Invalid Request: a message of more than ${limit}; it was not read` } }, `a message of ${bytes} bytes, over the ${limit} a line may hold`);
      return;
    }
    // A byte order mark before the first message is not JSON; it is dropped, as an editor would.
    const line = Buffer.concat(this.pending).toString('utf8').replace(/^\uFEFF/, '');
    this.pending = [];
    this.pendingBytes = 0;
    const refused = checkLine(line.replace(/\r$/, ''));
    if (refused) this.problem(refused.reply, refused.note);
    else this.push(`${line}\n`);
  }
}
