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

/** Reads a stream, counting its text events; `reached(n)` resolves once n of them arrived. */
function readCounting(response: Response) {
  let text = '';
  const waiters: { n: number; resolve: () => void }[] = [];
  const count = () => text.split('event: TEXT_MESSAGE_CONTENT').length - 1;
  const done = (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of response.body!) {
      text += decoder.decode(chunk as Uint8Array, { stream: true });
      const seen = count();
      for (const waiter of waiters.filter((candidate) => candidate.n <= seen)) waiter.resolve();
    }
    return text;
  })();
  return {
    done,
    reached: (n: number) => new Promise<void>((resolve) => (count() >= n ? resolve() : waiters.push({ n, resolve }))),
  };
}

/** An SSE attach whose client reads the first events, then stops reading until told to go on. */
function attachAndStall(gateway: AguiGateway, runId: string) {
  let text = '';
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
        if (text.includes('TEXT_MESSAGE_CONTENT')) {
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
      const ended = new Promise((resolve) => res.on('end', resolve));
      res.resume();
      await ended;
      return parseSse(text);
    },
  };
}

const deltasOf = (messages: SseMessage[]) =>
  messages.filter((message) => message.event === 'TEXT_MESSAGE_CONTENT').map((message) => message.data.delta as string);

describe('an SSE subscriber that falls behind its run', () => {
  let gateway: AguiGateway;
  beforeAll(async () => {
    gateway = await startAguiGateway(`${aguiYaml}\nruns:\n  max_output_bytes: 100000000\n`);
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
    expect(last.data.value.message).toMatch(/re-attach with Last-Event-ID/);
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
  });
});
