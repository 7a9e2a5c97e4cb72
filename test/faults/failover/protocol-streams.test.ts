import { HttpAgent, verifyEvents, type BaseEvent } from '@ag-ui/client';
import { TaskState, type StreamResponse } from '@a2a-js/sdk';
import { from, lastValueFrom, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, discover, userMessage } from '../../gateway/a2a/a2a-harness.js';
import type { FakeResponse } from '../../support/fake-upstream.js';
import { FALLBACK_TEXT, settledRun, startFailoverHarness, type FailoverHarness } from './failover-harness.js';

const CUT_AFTER_TWO_CHUNKS: FakeResponse = { kind: 'disconnect', afterChunks: 2 };

describe('an agent with fallback models, through AG-UI and A2A', () => {
  let harness: FailoverHarness;
  let a2aToken: string;
  beforeAll(async () => {
    harness = await startFailoverHarness();
    const response = await fetch(`${harness.gateway.url}/gateway/tokens`, {
      method: 'POST',
      headers: { authorization: `Bearer ${harness.gateway.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ agent_name: 'resilient', scopes: ['a2a'] }),
    });
    a2aToken = ((await response.json()) as { token: string }).token;
  });
  afterAll(() => harness.close());

  /** An @ag-ui/client run of the agent: every event it received, verified by the official verifier. */
  async function runAgui(): Promise<{ events: BaseEvent[]; types: string[] }> {
    const agent = new HttpAgent({
      url: `${harness.gateway.url}/agui/agents/resilient`,
      headers: { authorization: `Bearer ${harness.gateway.apiKey}` },
      threadId: 'thread-failover',
      initialMessages: [{ id: 'u1', role: 'user', content: 'hello' }],
    });
    const events: BaseEvent[] = [];
    await agent.runAgent({}, { onEvent: ({ event }) => void events.push(event) }).catch(() => undefined);
    await lastValueFrom(from(events).pipe(verifyEvents(), toArray()));
    return { events, types: events.map((event) => event.type) };
  }

  /** An A2A SendStreamingMessage through the official SDK: the streamed text and the task's last state. */
  async function streamA2a(): Promise<{ text: string; state: TaskState | undefined }> {
    const client = await discover(`${harness.gateway.url}/a2a/resilient/`);
    const events: StreamResponse[] = [];
    for await (const event of client.sendMessageStream(userMessage('hello'), bearer(a2aToken))) events.push(event);
    const text = events
      .flatMap((event) => (event.payload?.$case === 'artifactUpdate' ? event.payload.value.artifact!.parts : []))
      .map((part) => (part.content?.$case === 'text' ? part.content.value : ''))
      .join('');
    const last = events.at(-1)?.payload;
    return { text, state: last?.$case === 'statusUpdate' ? last.value.status?.state : undefined };
  }

  it('AG-UI: a primary 500 moves on to the fallback, and the run finishes with its answer', async () => {
    harness.primaryAnswers({ kind: 'error', status: 500 });
    const { events, types } = await runAgui();
    expect(types.at(-1)).toBe('RUN_FINISHED');
    const text = events.map((event) => (event as { delta?: string }).delta ?? '');
    expect(text.join('')).toBe(FALLBACK_TEXT);
  });

  it('AG-UI: a stream cut after its first token ends with RUN_ERROR, never RUN_FINISHED, and the fallback is not tried', async () => {
    harness.primaryAnswers(CUT_AFTER_TWO_CHUNKS);
    const { types } = await runAgui();
    expect(types).toContain('TEXT_MESSAGE_CONTENT');
    expect(types.at(-1)).toBe('RUN_ERROR');
    expect(types).not.toContain('RUN_FINISHED');
    expect(harness.secondary.chatRequests()).toHaveLength(0);
  });

  it('A2A: a primary 503 moves on to the fallback, and the task completes with its answer', async () => {
    harness.primaryAnswers({ kind: 'error', status: 503 });
    const { text, state } = await streamA2a();
    expect(state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(text).toBe(FALLBACK_TEXT);
  });

  it('A2A: a stream cut after its first token ends the task failed, billed once, the fallback untried', async () => {
    harness.primaryAnswers(CUT_AFTER_TWO_CHUNKS);
    const { text, state } = await streamA2a();
    expect(text).toContain('part0 ');
    expect(state).toBe(TaskState.TASK_STATE_FAILED);
    expect(harness.secondary.chatRequests()).toHaveLength(0);
    const runs = await harness.gateway.app.database.db
      .selectFrom('runs')
      .select('run_id')
      .where('source', '=', 'a2a')
      .orderBy('started_at', 'desc')
      .execute();
    const { run, records } = await settledRun(harness, runs[0].run_id);
    expect(run.status).toBe('failed');
    expect(records).toHaveLength(1);
  });
});
