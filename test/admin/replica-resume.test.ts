import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TEST_API_KEY } from '../support/app.js';
import { createPostgresDatabase, postgresUnavailable, type TestDatabase } from '../support/databases.js';
import { startFakeUpstream, type FakeUpstream, type RecordedRequest } from '../support/fake-upstream.js';
import { redisUnavailable, TEST_REDIS_URL } from '../support/redis.js';
import { callAdmin, readSse } from './admin-harness.js';
import { spawnServer, type ServerProcess } from './spawn-server.js';

const skip = (await postgresUnavailable()) ?? (await redisUnavailable());

const config = (upstream: string, shop: string) => `
auth: { api_keys: ["${TEST_API_KEY}"] }
providers:
  upstream: { type: openai-compatible, base_url: "${upstream}", max_retries: 0 }
tools:
  - { name: charge, url: "${shop}/charge", method: POST, allow_private: ["127.0.0.1/32"], timeout_ms: 60000 }
agents:
  - { name: helper, model: upstream/test-model, tools: [get_current_time, charge] }
# Long enough that a loaded machine (slow heartbeats) does not take live runs for orphans.
runs: { lease_seconds: 8 }
`;

/** The user message names the run ("task 3"); a request with a tool result in it is the run's second model step. */
function stepOf(request: RecordedRequest): { task: string; step: 1 | 2; toolResult?: string } {
  const messages = request.body.messages as { role: string; content: string }[];
  const task = messages.find((message) => message.role === 'user')!.content;
  const tool = messages.find((message) => message.role === 'tool');
  return tool ? { task, step: 2, toolResult: tool.content } : { task, step: 1 };
}

describe.skipIf(skip !== undefined)(`runs of a replica killed mid-run${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let db: TestDatabase;
  let upstream: FakeUpstream;
  let shop: Server;
  let charges = 0;
  let a: ServerProcess;
  let b: ServerProcess;
  /** Upstream calls per "task/step". */
  const calls = new Map<string, number>();

  beforeAll(async () => {
    db = await createPostgresDatabase();
    upstream = await startFakeUpstream();
    upstream.setDefault((request) => {
      const { task, step, toolResult } = stepOf(request);
      calls.set(`${task}/${step}`, (calls.get(`${task}/${step}`) ?? 0) + 1);
      if (step === 1)
        return {
          kind: 'tool_calls',
          calls: [{ name: task === 'buy' ? 'charge' : 'get_current_time', arguments: {} }],
        };
      if (task === 'buy') return { kind: 'text', text: `tool said: ${toolResult}` };
      // Slow: the second step is still streaming when A dies.
      return { kind: 'text', text: `answer to ${task}. `.repeat(20), chunks: 40, chunkDelayMs: 100 };
    });
    // A shop whose charge never answers: the tool call is in flight when A dies.
    shop = createServer(() => void (charges += 1));
    await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
    const file = join(db.dataDir, 'agent-gateway.yaml');
    writeFileSync(file, config(upstream.url, `http://127.0.0.1:${(shop.address() as AddressInfo).port}`));
    const env = { DATABASE_URL: db.databaseUrl, REDIS_URL: TEST_REDIS_URL, LOG_LEVEL: 'warn' };
    [a, b] = await Promise.all(
      ['a', 'b'].map((name) => spawnServer(['--config', file, '--data-dir', join(db.dataDir, name)], env)),
    );
    // Two servers compiling from source on a loaded machine take a while to listen.
  }, 180_000);
  afterAll(async () => {
    await Promise.all([a?.kill(), b?.kill()]);
    shop?.closeAllConnections();
    shop?.close();
    await upstream?.close();
    await db?.drop();
  });

  it('finishes every run on B from its last checkpoint; clients attached through B see each end', async () => {
    const tasks = [...Array.from({ length: 5 }, (_, index) => `task ${index}`), 'buy'];
    const started = await Promise.all(
      tasks.map(async (task) => {
        const response = await fetch(`${a.url}/agui/runs`, {
          method: 'POST',
          headers: { authorization: `Bearer ${TEST_API_KEY}`, 'content-type': 'application/json' },
          body: JSON.stringify({ agent_name: 'helper', message: task }),
        });
        // A's own clients lose their connection with A: that is the kill, not a failure.
        readSse(response).done.catch(() => undefined);
        return response.headers.get('x-run-id')!;
      }),
    );
    const attached = await Promise.all(
      started.map(async (runId) => {
        const client = readSse(
          await fetch(`${b.url}/agui/ws?run_id=${runId}`, { headers: { authorization: `Bearer ${TEST_API_KEY}` } }),
        );
        // Awaited below; observed here so a failure before that is not an unhandled rejection.
        client.done.catch(() => undefined);
        return client;
      }),
    );
    // Every run is mid-way: the five in their second (slow) model call, "buy" waiting on its charge.
    await vi.waitFor(
      () => {
        const seen = JSON.stringify({ calls: [...calls], charges });
        expect(
          tasks.slice(0, 5).every((task) => calls.get(`${task}/2`) === 1),
          seen,
        ).toBe(true);
        expect(charges, seen).toBe(1);
        // Part of each slow answer has reached its client through B.
        for (const [index, client] of attached.entries())
          if (tasks[index] !== 'buy')
            expect(
              client.events.some((event) => event.event === 'TEXT_MESSAGE_CONTENT'),
              seen,
            ).toBe(true);
      },
      { timeout: 20_000 },
    );

    await a.kill('SIGKILL');
    await Promise.all(attached.map((client) => client.done));

    for (const [index, client] of attached.entries()) {
      expect(client.events.at(-1), a.output() + b.output()).toMatchObject({ event: 'RUN_FINISHED' });
      // The terminal event goes out just before the run's end is written.
      const run = await vi.waitFor(
        async () => {
          const { body } = await callAdmin(b.url, 'GET', `/runs/${started[index]}`);
          expect(body.status, b.output()).not.toBe('running');
          return body;
        },
        { timeout: 10_000 },
      );
      // Stored before the kill: the first model step and, but for "buy", its tool step.
      const stored = tasks[index] === 'buy' ? 1 : 2;
      expect(run).toMatchObject({ status: 'completed', attempts: 2, resumed_from_step: stored });
      if (tasks[index] === 'buy') {
        expect(run.output).toMatch(/^tool said: Error: the call was interrupted/);
        expect(run.step_details.map((step: { name: string; status: string }) => [step.name, step.status])).toEqual([
          ['upstream/test-model', 'completed'],
          ['charge', 'failed'],
          ['upstream/test-model', 'completed'],
        ]);
        expect(client.events.some((event) => event.event === 'CUSTOM')).toBe(false);
      } else {
        expect(run.output).toBe(`answer to ${tasks[index]}. `.repeat(20));
        // The client saw part of the cut step's text, then the step named as restarted, then its whole text.
        const restarted = client.events.findIndex((event) => event.data.name === 'step_restarted');
        const partial = client.events.slice(0, restarted).findLast((event) => event.event === 'TEXT_MESSAGE_START');
        const seen = JSON.stringify(
          client.events.map((event) => [event.event, event.data.messageId ?? event.data.name]),
        );
        expect(client.events[restarted]?.data.value, seen).toEqual({
          step_index: 2,
          attempt: 2,
          message_id: partial?.data.messageId,
        });
        const again = client.events
          .slice(restarted)
          .filter((event) => event.event === 'TEXT_MESSAGE_CONTENT')
          .map((event) => event.data.delta as string)
          .join('');
        expect(again).toBe(run.output);
      }
    }
    // The completed first steps were not made again; the second steps, cut by the kill, were made once more on B.
    for (const task of tasks) expect(calls.get(`${task}/1`)).toBe(1);
    for (const task of tasks) expect(calls.get(`${task}/2`)).toBe(task === 'buy' ? 1 : 2);
    // The charge was not repeated: the tool is not marked idempotent.
    expect(charges).toBe(1);
  }, 90_000);
});
