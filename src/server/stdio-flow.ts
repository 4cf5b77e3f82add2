import type { Readable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** Requests read and not yet answered past which no further request is read. */
export const MAX_IN_FLIGHT = 64;
/** Bytes of answers waiting in stdout past which no further request is read. */
export const OUTPUT_PAUSE_BYTES = 16 * 1024 * 1024;

/** The stdout a stdio transport writes to: `write` only (the transport waits for 'drain' when it returns false). */
export interface FlowOutput {
  write(chunk: string): boolean;
  once(event: 'drain', listener: () => void): unknown;
}

/**
 * Backpressure for the stdio server. A client that sends requests faster than it reads the answers (or stops reading
 * them) would otherwise have the server read every request, compute every answer and hold them all in stdout's
 * buffer until the heap runs out. Here reading stops (the input stream is paused, and through its pipe stdin too)
 * while `MAX_IN_FLIGHT` requests are unanswered or `OUTPUT_PAUSE_BYTES` of answers wait to be written, and goes on
 * once both are below half. Writes never make the transport wait on 'drain' (one listener per answer piled up on
 * stdout): the pause is what bounds the buffer. The server sends the client no requests of its own (no roots,
 * sampling or elicitation), so no unanswered request waits on a message the pause holds back.
 */
export function withFlowControl(transport: Transport, input: Readable, stdout: NodeJS.WriteStream | (FlowOutput & { writableLength: number }), opts: { stopped: () => boolean } = { stopped: () => false }): FlowOutput {
  const pending = new Set<string>();
  let paused = false;
  let waitingDrain = false;
  const key = (id: unknown): string => JSON.stringify(id);
  const onDrain = (): void => {
    waitingDrain = false;
    update();
  };
  const update = (): void => {
    const backed = stdout.writableLength;
    if (!paused && (pending.size >= MAX_IN_FLIGHT || backed > OUTPUT_PAUSE_BYTES)) {
      paused = true;
      input.pause();
    } else if (paused && pending.size < MAX_IN_FLIGHT / 2 && backed <= OUTPUT_PAUSE_BYTES / 2) {
      paused = false;
      if (!opts.stopped()) input.resume();
    }
    if (paused && backed > OUTPUT_PAUSE_BYTES / 2 && !waitingDrain) {
      waitingDrain = true;
      stdout.once('drain', onDrain);
    }
  };
  const handle = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const m = message as { id?: unknown; method?: unknown };
    if (m.id !== undefined && m.id !== null && typeof m.method === 'string') {
      pending.add(key(m.id));
      update();
    }
    handle?.(message, extra);
  };
  const output: FlowOutput = {
    write(chunk) {
      stdout.write(chunk);
      return true;
    },
    once(event, listener) {
      return stdout.once(event, listener);
    },
  };
  const send = transport.send.bind(transport);
  transport.send = async (message: JSONRPCMessage, options) => {
    const m = message as { id?: unknown; method?: unknown };
    await send(message, options);
    if (m.id !== undefined && typeof m.method !== 'string' && pending.delete(key(m.id))) update();
    else if (paused) update();
  };
  return output;
}
