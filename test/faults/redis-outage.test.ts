import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { callAdmin, readSse } from '../admin/admin-harness.js';
import { spawnServer, type ServerProcess } from '../admin/spawn-server.js';
import { TEST_API_KEY } from '../support/app.js';
import { createPostgresDatabase, postgresUnavailable, type TestDatabase } from '../support/databases.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { freePort } from '../support/free-port.js';

function redisServerMissing(): string | undefined {
  if (spawnSync('redis-server', ['--version']).status === 0) return undefined;
  if (process.env.CI === 'true') throw new Error('redis-server must be on PATH under CI=true');
  return 'redis-server is not on PATH';
}

const skip = (await postgresUnavailable()) ?? redisServerMissing();
const ANSWER =
  'When the bus goes away mid-answer, every client still gets the whole answer or a clear error, never a truncated success.';
/** Waits on other processes (PostgreSQL, Redis, ioredis giving up its queued publishes after ~10 s). */
const SLOW = { timeout: 60_000, interval: 100 };

const config = (upstream: string) => `
auth: { api_keys: ["${TEST_API_KEY}"] }
providers:
  upstream: { type: openai-compatible, base_url: "${upstream}", max_retries: 0 }
agents:
  - { name: helper, model: upstream/test-model }
# Long enough that a loaded machine (slow heartbeats) does not take live runs for orphans.
runs: { lease_seconds: 8 }
`;

/** A Redis of this test's own that keeps nothing on disk: stopped, it comes back empty. */
async function startRedis(port: number) {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}:\n${output}`)));
  });
  return {
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGKILL');
      await once(child, 'exit');
    },
  };
}

type Outcome = { text: string; ended: 'success' | 'error' | undefined; error?: string };

/** An OpenAI stream through the official client: success is a finish_reason (then [DONE]), error a thrown API error. */
function readOpenAi(stream: AsyncIterable<OpenAI.Chat.Completions.ChatCompletionChunk>) {
  const outcome: Outcome = { text: '', ended: undefined };
  const done = (async () => {
    try {
      for await (const chunk of stream) {
        outcome.text += chunk.choices[0]?.delta?.content ?? '';
        if (chunk.choices[0]?.finish_reason) outcome.ended = 'success';
      }
    } catch (error) {
      outcome.ended = 'error';
      outcome.error = (error as Error).message;
    }
  })();
  return { outcome, done };
}

/** An AG-UI SSE stream: success is RUN_FINISHED, error RUN_ERROR. */
function readAgui(response: Response) {
  const sse = readSse(response);
  const outcome: Outcome = { text: '', ended: undefined };
  const done = sse.done.then(() => {
    outcome.text = sse.text();
    const last = sse.events.at(-1);
    if (last?.event === 'RUN_FINISHED') outcome.ended = 'success';
    if (last?.event === 'RUN_ERROR') {
      outcome.ended = 'error';
      outcome.error = `${last.data.code}: ${last.data.message}`;
    }
  });
  return { outcome, done, text: sse.text };
}

describe.skipIf(skip !== undefined)(
  `streams across a Redis outage, two server processes${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    let db: TestDatabase;
    let upstream: FakeUpstream;
    let redisPort: number;
    let redis: Awaited<ReturnType<typeof startRedis>>;
    let a: ServerProcess;
    let b: ServerProcess;

    beforeAll(async () => {
      db = await createPostgresDatabase();
      upstream = await startFakeUpstream();
      redisPort = await freePort();
      redis = await startRedis(redisPort);
      const file = join(db.dataDir, 'agent-gateway.yaml');
      writeFileSync(file, config(upstream.url));
      const env = { DATABASE_URL: db.databaseUrl, REDIS_URL: `redis://127.0.0.1:${redisPort}`, LOG_LEVEL: 'warn' };
      [a, b] = await Promise.all(
        ['a', 'b'].map((name) => spawnServer(['--config', file, '--data-dir', join(db.dataDir, name)], env)),
      );
    });
    afterAll(async () => {
      await Promise.all([a?.kill(), b?.kill()]);
      await redis?.stop();
      await upstream?.close();
      await db?.drop();
    });

    it('gives every client the whole answer or a protocol error, none hangs, and numbering goes on after a restart', async () => {
      let redisDown!: () => void;
      let redisBack!: () => void;
      const down = new Promise<void>((resolve) => (redisDown = resolve));
      const back = new Promise<void>((resolve) => (redisBack = resolve));
      const openai = new OpenAI({ baseURL: `${a.url}/v1`, apiKey: TEST_API_KEY, maxRetries: 0 });
      const auth = { authorization: `Bearer ${TEST_API_KEY}` };

      /**
       * One run on A, streamed by its client on A and attached through B, both past the answer's first piece.
       * `ending` runs finish while Redis is down; the others hold their second half until it is back.
       */
      async function startRun(kind: 'openai' | 'agui', ending: boolean) {
        const gates = ending
          ? [{ at: 1, open: down }]
          : [
              { at: 1, open: down },
              { at: 12, open: back },
            ];
        upstream.enqueue({ kind: 'text', text: ANSWER, chunks: 24, gates });
        let runId: string;
        let direct: { outcome: Outcome; done: Promise<void> };
        if (kind === 'openai') {
          const { data, response } = await openai.chat.completions
            .create({ model: 'helper', messages: [{ role: 'user', content: 'go' }], stream: true })
            .withResponse();
          runId = response.headers.get('x-run-id')!;
          direct = readOpenAi(data);
        } else {
          const response = await fetch(`${a.url}/agui/runs`, {
            method: 'POST',
            headers: { ...auth, 'content-type': 'application/json' },
            body: JSON.stringify({ agent_name: 'helper', message: 'go' }),
          });
          runId = response.headers.get('x-run-id')!;
          direct = readAgui(response);
        }
        const attached = readAgui(await fetch(`${b.url}/agui/ws?run_id=${runId}`, { headers: auth }));
        // Both readers are live on the run before Redis goes: B reads it from Redis, A from its own memory.
        await vi.waitFor(() => expect(attached.text()).not.toBe(''), SLOW);
        return {
          runId,
          kind,
          ending,
          clients: [
            { name: `${kind} on A`, ...direct },
            { name: 'attached via B', ...attached },
          ],
        };
      }

      const runs = [];
      for (const ending of [true, false])
        for (const kind of ['openai', 'agui'] as const) runs.push(await startRun(kind, ending));

      await redis.stop();
      redisDown();
      // The runs that end in the outage are stored as completed; ioredis then gives up the publishes it queued.
      for (const run of runs.filter((candidate) => candidate.ending))
        await vi.waitFor(
          async () => expect((await callAdmin(a.url, 'GET', `/runs/${run.runId}`)).body.status).toBe('completed'),
          SLOW,
        );
      await vi.waitFor(() => expect(a.output()).toContain('could not publish run events to the bus'), SLOW);

      // Redis comes back empty; the held runs go on and end.
      redis = await startRedis(redisPort);
      redisBack();
      const clients = runs.flatMap((run) => run.clients.map((client) => ({ ...client, runId: run.runId })));
      // None hangs: every stream ends (a hang fails this test by its timeout).
      await Promise.all(clients.map((client) => client.done));

      const summary = clients.map(({ name, runId, outcome }) => ({
        name,
        runId,
        ended: outcome.ended,
        whole: outcome.text === ANSWER,
        chars: outcome.text.length,
        error: outcome.error,
      }));
      // Never a success with a truncated answer; every stream ends one way or the other.
      for (const client of summary) {
        expect(client.ended, JSON.stringify(client)).toBeDefined();
        if (client.ended === 'success') expect(client.whole, JSON.stringify(client)).toBe(true);
        else expect(client.error, JSON.stringify(client)).toMatch(/events_lost|GET \/api\/v1\/admin\/runs\//);
      }
      // The run's own clients read it from their process's memory: the outage costs them nothing.
      for (const client of summary.filter((entry) => entry.name.endsWith('on A')))
        expect(client, JSON.stringify(client)).toMatchObject({ ended: 'success', whole: true });
      // Attached through B they fall back to the stored log once the run ended: whole as well.
      for (const client of summary.filter((entry) => entry.name === 'attached via B'))
        expect(client, JSON.stringify(client)).toMatchObject({ ended: 'success', whole: true });

      // Numbering went on in the Redis that came back empty: a held run's entries there continue the seqs its
      // start and first piece had before the outage (a restart would have numbered its next event 1).
      const probe = new Redis(`redis://127.0.0.1:${redisPort}`, { maxRetriesPerRequest: 1 });
      try {
        for (const run of runs.filter((candidate) => !candidate.ending)) {
          // A run's end does not wait for the bus: its last entries may still be on their way to Redis.
          const entries = await vi.waitFor(async () => {
            const read = await probe.xrange(`agent-gateway:run:${run.runId}:events`, '-', '+');
            expect(read.length).toBeGreaterThan(0);
            expect(JSON.parse(read.at(-1)![1][1])).toMatchObject({ type: 'run-end' });
            return read;
          });
          const seqs = entries.map(([id]) => Number(id.split('-')[1]));
          expect(seqs[0]).toBeGreaterThan(1);
          expect(seqs).toEqual([...seqs].sort((x, y) => x - y));
          expect(JSON.parse(entries.at(-1)![1][1])).toMatchObject({ type: 'run-end', output: ANSWER });
        }
      } finally {
        probe.disconnect();
      }

      // The stored event logs are whole: a later attach through B replays each answer in full.
      for (const run of runs) {
        const later = readAgui(await fetch(`${b.url}/agui/ws?run_id=${run.runId}`, { headers: auth }));
        await later.done;
        expect(later.outcome, run.runId).toMatchObject({ ended: 'success', text: ANSWER });
      }
    }, 180_000);

    it('gives a client attached through B the text a paused run held back when its replica died', async () => {
      let goOn!: () => void;
      const open = new Promise<void>((resolve) => (goOn = resolve));
      upstream.enqueue({ kind: 'text', text: ANSWER, chunks: 24, gates: [{ at: 1, open }] });
      const auth = { authorization: `Bearer ${TEST_API_KEY}` };
      const response = await fetch(`${a.url}/agui/runs`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ agent_name: 'helper', message: 'go' }),
      });
      const runId = response.headers.get('x-run-id')!;
      // A's own client loses its connection with A: that is the kill, not a failure.
      readSse(response).done.catch(() => undefined);
      const attached = readAgui(await fetch(`${b.url}/agui/ws?run_id=${runId}`, { headers: auth }));
      await vi.waitFor(() => expect(attached.text()).not.toBe(''), SLOW);

      expect((await callAdmin(b.url, 'POST', `/runs/${runId}/pause`)).status).toBe(200);
      await vi.waitFor(
        async () => expect((await callAdmin(b.url, 'GET', `/runs/${runId}`)).body.status).toBe('paused'),
        SLOW,
      );
      // A gets the rest of the answer while paused, holds it back, and stores the step whole.
      goOn();
      await vi.waitFor(
        async () =>
          expect((await callAdmin(b.url, 'GET', `/runs/${runId}`)).body).toMatchObject({
            step_details: [{ status: 'completed', prompt_log: { response: ANSWER } }],
          }),
        SLOW,
      );
      const heldAt = attached.text();
      expect(heldAt.length).toBeLessThan(ANSWER.length);

      // A dies with the text it held; B takes the run over once A's lease lapses and ends it.
      await a.kill('SIGKILL');
      await attached.done;
      expect(attached.outcome, b.output()).toMatchObject({ ended: 'success', text: ANSWER });
      // The terminal event goes out just before the run's end is written.
      await vi.waitFor(
        async () =>
          expect((await callAdmin(b.url, 'GET', `/runs/${runId}`)).body).toMatchObject({
            status: 'completed',
            attempts: 2,
            output: ANSWER,
          }),
        SLOW,
      );
    }, 120_000);
  },
);
