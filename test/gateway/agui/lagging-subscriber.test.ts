import { request, type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFirehoseStats } from '../../support/fake-upstream.js';
import {
  aguiYaml,
  authHeaders,
  parseSse,
  postRun,
  startAguiGateway,
  type AguiGateway,
  type SseMessage,
} from './agui-harness.js';

/**
 * 64 KiB per event: the kernel's socket buffers hold some dozens of them. The subscriber is dropped once it is
 * more than half the run's 1,000-event log behind; 900 events in, its next one is still in the log.
 */
const CHUNK_BYTES = 64 * 1024;
const FIRST_PART = 900;
const CHUNKS = FIRST_PART + 20;

const TEXT_EVENT = 'event: TEXT_MESSAGE_CONTENT';

/**
 * Reads a stream, counting its text events as they arrive; `reached(n)` resolves once n of them did, and fails
 * (with the stream's end) if the stream ends before.
 */
function readCounting(response: Response) {
  const pieces: string[] = [];
  let seen = 0;
  let tail = '';
  const waiters: { n: number; resolve: () => void; reject: (error: Error) => void }[] = [];
  const ended = (text: string) =>
    new Error(`the stream ended after ${seen} text events: …${text.slice(-400).replace(/lorem ipsum /g, '')}`);
  const done = (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of response.body!) {
      const piece = decoder.decode(chunk as Uint8Array, { stream: true });
      pieces.push(piece);
      // Only matches that end in the new piece: those within the carried-over tail were counted before.
      const window = tail + piece;
      for (let at = window.indexOf(TEXT_EVENT); at >= 0; at = window.indexOf(TEXT_EVENT, at + 1))
        if (at + TEXT_EVENT.length > tail.length) seen += 1;
      tail = window.slice(-TEXT_EVENT.length);
      for (const waiter of waiters) if (waiter.n <= seen) waiter.resolve();
    }
    const text = pieces.join('');
    for (const waiter of waiters) if (waiter.n > seen) waiter.reject(ended(text));
    return text;
  })();
  return {
    done,
    reached: (n: number) =>
      new Promise<void>((resolve, reject) => (seen >= n ? resolve() : waiters.push({ n, resolve, reject }))),
  };
}

/** An SSE attach whose client reads the first events, then stops reading until told to go on. */
function attachAndStall(gateway: AguiGateway, runId: string) {
  let text = '';
  let stalled = false;
  let response: IncomingMessage | undefined;
  const started = new Promise<void>((resolve, reject) => {
    const req = request(gateway.url(`/agui/ws?run_id=${runId}`), {
      headers: { authorization: authHeaders.authorization },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      response = res;
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
        // Once only: a handler that paused on every chunk with the event in the text would stop again after resume().
        if (!stalled && text.includes('TEXT_MESSAGE_CONTENT')) {
          stalled = true;
          res.pause();
          resolve();
        }
      });
    });
    req.end();
  });
  return {
    started,
    /** Reads the rest of the stream to its end. */
    async finish(): Promise<SseMessage[]> {
      const res = response!;
      const ended = new Promise((resolve) => res.on('close', resolve));
      res.resume();
      await ended;
      return parseSse(text);
    },
  };
}

const deltasOf = (messages: SseMessage[]) =>
  messages
    .filter((message) => message.event === 'TEXT_MESSAGE_CONTENT')
    .map((message) => (message.data as { delta: string }).delta);

// About 60 MB pass through the gateway in one model call: 10-20 s alone, minutes under a load of 13 on two cores.
// Every wait is on an event (a count of events read, a stream's end), so the bounds only need to be far above that:
// the call's deadline too (the harness's 10 s failed the run under load, and its client then waited for nothing).
const yaml = aguiYaml.replace(/timeout_ms: \d+/, 'timeout_ms: 600000');
describe('an SSE subscriber that falls behind its run', () => {
  let gateway: AguiGateway;
  beforeAll(async () => {
    // The subscriber stops reading for longer than the default stall timeout would allow.
    gateway = await startAguiGateway(
      `${yaml}\nruns:\n  max_output_bytes: 100000000\nserver:\n  stalled_client_timeout_seconds: 600\n`,
    );
  });
  afterAll(() => gateway.stop());

  it('is dropped with subscriber_lagging, and re-attaches with Last-Event-ID without a gap', async () => {
    let start!: () => void;
    let finish!: () => void;
    gateway.upstream.enqueue({
      kind: 'firehose',
      chunks: CHUNKS,
      chunkBytes: CHUNK_BYTES,
      stats: createFirehoseStats(),
      gates: [
        { at: 1, open: new Promise<void>((resolve) => (start = resolve)) },
        { at: FIRST_PART, open: new Promise<void>((resolve) => (finish = resolve)) },
      ],
    });
    const response = await postRun(gateway, { agent_name: 'helper', message: 'everything' });
    const runId = response.headers.get('x-run-id')!;
    const own = readCounting(response);
    const subscriber = attachAndStall(gateway, runId);
    await subscriber.started;
    // The run's own client reads on; the subscriber does not.
    start();
    await own.reached(FIRST_PART);

    const before = await subscriber.finish();
    const last = before.at(-1)!;
    expect(last).toMatchObject({ event: 'CUSTOM', data: { type: 'CUSTOM', name: 'subscriber_lagging' } });
    expect((last.data as { value: { message: string } }).value.message).toMatch(/re-attach with Last-Event-ID/);
    expect(before.some((message) => message.event === 'RUN_ERROR' || message.event === 'RUN_FINISHED')).toBe(false);
    const lastId = before.filter((message) => message.id).at(-1)!.id!;

    const again = await fetch(gateway.url(`/agui/ws?run_id=${runId}`), {
      headers: { authorization: authHeaders.authorization, 'last-event-id': lastId },
    });
    const rest = again.text();
    finish();
    const after = parseSse(await rest);
    expect(Number(after.find((message) => message.id)!.id)).toBeGreaterThan(Number(lastId));
    expect(after.at(-1)?.event).toBe('RUN_FINISHED');
    const whole = deltasOf(parseSse(await own.done)).join('');
    expect(whole).toHaveLength(CHUNKS * CHUNK_BYTES);
    expect(deltasOf(before).join('') + deltasOf(after).join('')).toBe(whole);
  }, 360_000);
});
