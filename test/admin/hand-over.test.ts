import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TEST_API_KEY } from '../support/app.js';
import { createPostgresDatabase, postgresUnavailable, type TestDatabase } from '../support/databases.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { redisUnavailable, TEST_REDIS_URL } from '../support/redis.js';
import { callAdmin } from './admin-harness.js';
import { spawnServer, type ServerProcess } from './spawn-server.js';

const skip = (await postgresUnavailable()) ?? (await redisUnavailable());

const ANSWER = 'word '.repeat(200);
const config = (upstream: string) => `
auth: { api_keys: ["${TEST_API_KEY}"] }
server: { shutdown_timeout_ms: 1000 }
providers:
  upstream: { type: openai-compatible, base_url: "${upstream}", max_retries: 0 }
agents:
  - { name: helper, model: upstream/test-model }
runs: { lease_seconds: 2, resume: true }
`;
const auth = { authorization: `Bearer ${TEST_API_KEY}` };

/** An AG-UI SSE stream read to its end, with each event's id (for Last-Event-ID). */
function readAgui(response: Response) {
  const events: { id?: string; type: string; data: any }[] = [];
  const parser = createParser({
    onEvent: (message: EventSourceMessage) => {
      const data = JSON.parse(message.data);
      events.push({ id: message.id, type: data.type ?? message.event, data });
    },
  });
  const done = (async () => {
    for await (const chunk of response.body!.pipeThrough(new TextDecoderStream())) parser.feed(chunk);
  })();
  const text = () =>
    events
      .filter((event) => event.type === 'TEXT_MESSAGE_CONTENT')
      .map((event) => event.data.delta)
      .join('');
  const lastId = () => events.findLast((event) => event.id !== undefined)?.id;
  return { events, done, text, lastId };
}

/**
 * The end an attached client gets: the run's own, or `events_lost` when the bus cannot give the whole answer
 * (seen once in a loaded CI run); the stored run is checked to have completed whole either way.
 */
function expectEnd(event: { type: string; data: any } | undefined): void {
  if (event?.type === 'RUN_ERROR') expect(event.data, JSON.stringify(event)).toMatchObject({ code: 'events_lost' });
  else expect(event, JSON.stringify(event)).toMatchObject({ type: 'RUN_FINISHED' });
}

/** Follows a run through a replica (GET /agui/ws?run_id=) from after `lastEventId` to its end. */
async function attach(url: string, runId: string, lastEventId?: string) {
  const headers: Record<string, string> = { ...auth };
  if (lastEventId !== undefined) headers['last-event-id'] = lastEventId;
  const stream = readAgui(await fetch(`${url}/agui/ws?run_id=${runId}`, { headers }));
  await stream.done;
  return stream;
}

describe.skipIf(skip !== undefined)(
  `SIGTERM hands runs on to the other replica${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    let db: TestDatabase;
    let upstream: FakeUpstream;
    let a: ServerProcess;
    let b: ServerProcess;

    beforeAll(async () => {
      db = await createPostgresDatabase();
      upstream = await startFakeUpstream();
      // Answers of about 10 s: still streaming when A's 1 s drain runs out.
      upstream.setDefault({ kind: 'text', text: ANSWER, chunks: 200, chunkDelayMs: 50 });
      const file = join(db.dataDir, 'agent-gateway.yaml');
      writeFileSync(file, config(upstream.url));
      const env = { DATABASE_URL: db.databaseUrl, REDIS_URL: TEST_REDIS_URL, LOG_LEVEL: 'warn' };
      [a, b] = await Promise.all(
        ['a', 'b'].map((name) => spawnServer(['--config', file, '--data-dir', join(db.dataDir, name)], env)),
      );
    });
    afterAll(async () => {
      await Promise.all([a?.kill('SIGKILL'), b?.kill()]);
      await upstream?.close();
      await db?.drop();
    });

    it('every streamed client sees its run end, there or after attaching again, and a paused run stays paused', async () => {
      const openai = new OpenAI({ baseURL: `${a.url}/v1`, apiKey: TEST_API_KEY, maxRetries: 0 });
      // Three OpenAI streams and two AG-UI streams, each mid-answer when A gets SIGTERM.
      const chats = await Promise.all(
        [0, 1, 2].map(async (index) => {
          const { data: stream, response } = await openai.chat.completions
            .create({ model: 'helper', stream: true, messages: [{ role: 'user', content: `chat ${index}` }] })
            .withResponse();
          let text = '';
          const done = (async () => {
            for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
          })().then(
            () => undefined,
            (error: unknown) => error,
          );
          await vi.waitFor(() => expect(text.length).toBeGreaterThan(0), { timeout: 10_000 });
          return { runId: response.headers.get('x-run-id')!, done };
        }),
      );
      const aguis = await Promise.all(
        [0, 1].map(async (index) => {
          const response = await fetch(`${a.url}/agui/runs`, {
            method: 'POST',
            headers: { ...auth, 'content-type': 'application/json' },
            body: JSON.stringify({ agent_name: 'helper', message: `agui ${index}` }),
          });
          const stream = readAgui(response);
          await vi.waitFor(() => expect(stream.text().length).toBeGreaterThan(0), { timeout: 10_000 });
          return { runId: response.headers.get('x-run-id')!, stream };
        }),
      );
      const pausedRun = await fetch(`${a.url}/agui/runs`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ agent_name: 'helper', message: 'paused one' }),
      });
      const pausedId = pausedRun.headers.get('x-run-id')!;
      const pausedStream = readAgui(pausedRun);
      await vi.waitFor(() => expect(pausedStream.text().length).toBeGreaterThan(0), { timeout: 10_000 });
      expect((await callAdmin(a.url, 'POST', `/runs/${pausedId}/pause`)).status).toBe(200);

      await a.kill('SIGTERM');

      // OpenAI clients: the stream ends with the run_handed_over error (no [DONE]), then they attach on B.
      for (const chat of chats) {
        const error = await chat.done;
        expect(error).toBeInstanceOf(OpenAI.APIError);
        expect((error as InstanceType<typeof OpenAI.APIError>).code).toBe('run_handed_over');
        const attached = await attach(b.url, chat.runId);
        expectEnd(attached.events.at(-1));
      }
      // AG-UI clients: a CUSTOM run_handed_over with their message left open; Last-Event-ID goes on from there.
      for (const agui of aguis) {
        await agui.stream.done;
        expect(agui.stream.events.at(-1)).toMatchObject({ type: 'CUSTOM', data: { name: 'run_handed_over' } });
        const attached = await attach(b.url, agui.runId, agui.stream.lastId());
        expectEnd(attached.events.at(-1));
      }
      for (const runId of [...chats, ...aguis].map((run) => run.runId))
        await vi.waitFor(async () =>
          expect((await callAdmin(b.url, 'GET', `/runs/${runId}`)).body).toMatchObject({
            status: 'completed',
            output: ANSWER,
            attempts: 2,
          }),
        );

      // The paused run was not cancelled: B holds it, still paused, and resumes it on request.
      await pausedStream.done;
      await vi.waitFor(
        async () => expect((await callAdmin(b.url, 'GET', `/runs/${pausedId}`)).body).toMatchObject({ attempts: 2 }),
        { timeout: 15_000 },
      );
      expect((await callAdmin(b.url, 'GET', `/runs/${pausedId}`)).body.status).toBe('paused');
      expect((await callAdmin(b.url, 'POST', `/runs/${pausedId}/resume`)).status).toBe(200);
      const resumed = await attach(b.url, pausedId, pausedStream.lastId());
      expect(resumed.events.at(-1)?.type).toBe('RUN_FINISHED');
      // The record is written just after the terminal event goes out.
      await vi.waitFor(async () =>
        expect((await callAdmin(b.url, 'GET', `/runs/${pausedId}`)).body).toMatchObject({ status: 'completed' }),
      );
    }, 90_000);
  },
);
