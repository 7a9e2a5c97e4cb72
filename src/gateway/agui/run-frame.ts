import type { StreamEvent } from './agui-event.js';
import { formatSseEvents } from './format-sse-events.js';

/**
 * The events one RunEvent became, encoded on first use and then reused by every stream that sends
 * them: one JSON text per event (a WebSocket frame each) and one SSE block (a Buffer, so no stream
 * encodes it again).
 */
export class RunFrame {
  readonly events: StreamEvent[];
  /** The RunEvent's seq, sent as the SSE `id:`; undefined for the error that closes an interrupted stream. */
  readonly seq: number | undefined;
  private jsonText: string[] | undefined;
  private sseBytes: Buffer | undefined;
  private chunkBytes: Buffer | undefined;

  constructor(events: StreamEvent[], seq?: number) {
    this.events = events;
    this.seq = seq;
  }

  get json(): string[] {
    return (this.jsonText ??= this.events.map((event) => JSON.stringify(event)));
  }

  get sse(): Buffer {
    return (this.sseBytes ??= Buffer.from(formatSseEvents(this.events, this.seq, this.json)));
  }

  /**
   * The SSE block as one HTTP/1.1 chunk (hex size, CRLF, block, CRLF): what Node's chunked response writes
   * for it, made once for every subscriber instead of three socket writes per subscriber.
   */
  get chunk(): Buffer {
    if (!this.chunkBytes) {
      const sse = this.sse;
      const head = `${sse.length.toString(16)}\r\n`;
      const bytes = Buffer.allocUnsafe(head.length + sse.length + 2);
      bytes.write(head, 0, 'latin1');
      sse.copy(bytes, head.length);
      bytes.write('\r\n', head.length + sse.length, 'latin1');
      this.chunkBytes = bytes;
    }
    return this.chunkBytes;
  }
}
