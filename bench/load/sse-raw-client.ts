import { connect, type Socket } from 'node:net';
import { nowMs } from '../upstream/chunk-text.js';

/** One SSE response read off a raw socket: every read kept with its arrival time, parsed only at the end. */
export interface RawSseStream {
  readonly socket: Socket;
  /** The reads as they arrived (headers included), and when each arrived. */
  readonly reads: Buffer[];
  readonly times: number[];
  /** Resolves when the socket closed; `clean` once the chunked body's last chunk had arrived. */
  readonly ended: Promise<{ clean: boolean }>;
}

const STAMP_PATTERN = /\[t=(\d+\.\d+)\]/g;
const LAST_CHUNK = '0\r\n\r\n';

/**
 * GETs `path` on a plain socket and resolves once the status line says 200. A thousand of these in one load
 * process must not charge their own CPU to the gateway's delivery lag: the per-read work is a timestamp and
 * an array push, no HTTP parser, no stream decoding and no string building (parseStamps runs after the run).
 */
export function openRawSse(baseUrl: string, path: string, headers: Record<string, string>): Promise<RawSseStream> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    socket.setNoDelay(true);
    const reads: Buffer[] = [];
    const times: number[] = [];
    let tail = '';
    let answered = false;
    let finishEnded: (value: { clean: boolean }) => void = () => undefined;
    const ended = new Promise<{ clean: boolean }>((done) => (finishEnded = done));
    socket.on('data', (data: Buffer) => {
      times.push(nowMs());
      reads.push(data);
      // The response may keep the connection alive: the chunked body's last chunk is its end.
      tail = (tail + data.toString('latin1', Math.max(0, data.length - LAST_CHUNK.length))).slice(-LAST_CHUNK.length);
      if (!answered) {
        const head = Buffer.concat(reads).toString('latin1');
        if (!head.includes('\r\n\r\n')) return;
        answered = true;
        const status = head.slice(0, head.indexOf('\r\n'));
        if (!/^HTTP\/1\.1 200 /.test(status)) {
          socket.destroy();
          return reject(new Error(`GET ${path}: ${status}`));
        }
        resolve({ socket, reads, times, ended });
      }
      if (tail === LAST_CHUNK) socket.destroy();
    });
    socket.on('error', (error) => {
      if (!answered) reject(error);
    });
    socket.on('close', () => {
      if (!answered) reject(new Error(`GET ${path}: closed before the response`));
      finishEnded({ clean: tail === LAST_CHUNK });
    });
    const lines = Object.entries({ host: url.host, accept: 'text/event-stream', ...headers }).map(
      ([name, value]) => `${name}: ${value}\r\n`,
    );
    socket.write(`GET ${path} HTTP/1.1\r\n${lines.join('')}\r\n`);
  });
}

/**
 * Every stamp in the stream's body, each with the arrival time of the read that completed its SSE event
 * (its blank line), as a client that parses whole events would see it: [stamp, receivedAt] pairs.
 */
export function stampArrivals(stream: RawSseStream): Array<[number, number]> {
  const text = Buffer.concat(stream.reads).toString('latin1');
  const readEnds: number[] = [];
  let offset = 0;
  for (const read of stream.reads) readEnds.push((offset += read.length));
  const bodyStart = text.indexOf('\r\n\r\n') + 4;
  const arrivals: Array<[number, number]> = [];
  let read = 0;
  for (const match of text.slice(bodyStart).matchAll(STAMP_PATTERN)) {
    const eventEnd = text.indexOf('\n\n', bodyStart + match.index);
    if (eventEnd < 0) break;
    // The blank line's last byte is at eventEnd + 1; reads are in order, so the search only moves forward.
    while (readEnds[read] <= eventEnd + 1) read += 1;
    arrivals.push([Number(match[1]), stream.times[read]]);
  }
  return arrivals;
}
