import type { EventStore } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** Events kept per session for `Last-Event-ID` replay; the oldest go first. */
export const REPLAY_BUFFER_EVENTS = 500;
/** …and at most this many bytes of them (a few large resource reads must not pin memory). */
export const REPLAY_BUFFER_BYTES = 4 * 1024 * 1024;

interface Stored {
  readonly seq: number;
  readonly streamId: string;
  readonly message: JSONRPCMessage;
  readonly bytes: number;
}

/**
 * The resumability buffer of one Streamable HTTP session: every SSE event the session sends (on its GET stream and
 * on POST response streams) gets an id `<seq>.<stream>`; a client that lost its connection reconnects with
 * `Last-Event-ID` and gets the events of that stream sent after it. Bounded by count and bytes; an id that has
 * left the buffer (or was never issued) is refused, so the client knows to start over rather than miss events.
 */
export class SessionEventStore implements EventStore {
  private readonly events: Stored[] = [];
  private seq = 0;
  private bytes = 0;

  constructor(
    private readonly maxEvents = REPLAY_BUFFER_EVENTS,
    private readonly maxBytes = REPLAY_BUFFER_BYTES,
  ) {}

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    const seq = ++this.seq;
    const bytes = JSON.stringify(message).length;
    this.events.push({ seq, streamId, message, bytes });
    this.bytes += bytes;
    while (this.events.length > 1 && (this.events.length > this.maxEvents || this.bytes > this.maxBytes)) {
      this.bytes -= this.events.shift()!.bytes;
    }
    return `${seq}.${streamId}`;
  }

  /** The stream of an id still in the buffer; undefined for an unknown or evicted id (the transport answers 400). */
  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return this.find(eventId)?.streamId;
  }

  async replayEventsAfter(lastEventId: string, { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> }): Promise<string> {
    const last = this.find(lastEventId);
    if (!last) return '';
    for (const e of this.events) {
      // Priming events (empty messages that only carry an id) are not replayed.
      if (e.seq <= last.seq || e.streamId !== last.streamId || Object.keys(e.message).length === 0) continue;
      await send(`${e.seq}.${e.streamId}`, e.message);
    }
    return last.streamId;
  }

  /** Events held now (for tests and metrics). */
  get size(): number {
    return this.events.length;
  }

  private find(eventId: string): Stored | undefined {
    const m = /^(\d{1,15})\.(.+)$/.exec(eventId);
    if (!m) return undefined;
    const seq = Number(m[1]);
    const first = this.events[0];
    if (!first || seq < first.seq) return undefined;
    const e = this.events[seq - first.seq];
    return e && e.seq === seq && e.streamId === m[2] ? e : undefined;
  }
}
