import { randomUUID } from 'node:crypto';
import { TaskState, type Task } from '@a2a-js/sdk';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { TEST_API_KEY } from '../support/app.js';
import { describeEachDialect, type TestDatabase } from '../support/databases.js';
import { bearer, discover, startA2aGateway, userMessage, type A2aGateway } from '../gateway/a2a/a2a-harness.js';
import { connectWs } from '../gateway/agui/ws/ws-client.js';
import { parseExposition } from '../metrics/parse-exposition.js';

const headers = { authorization: `Bearer ${TEST_API_KEY}`, 'content-type': 'application/json' };

/**
 * Issue #38: every stateless call was listed as an "active session" (49 after about 50 calls). A call without
 * a session id still gets one back that continues its conversation, but "active sessions" (the admin list,
 * status active_sessions, the agent_gateway_active_sessions gauge) are the ones a caller asked for: named
 * (X-Session-Id, AG-UI session_id) or continued (the id sent back, a second run on a socket or in an A2A context).
 */
await describeEachDialect('active sessions', (dialect) => {
  let db: TestDatabase;
  let gateway: A2aGateway;
  const url = (path: string) => `${gateway.app.url}${path}`;
  /** Every view of active sessions; they must agree. */
  const active = async () => {
    const list = (await (await fetch(url('/api/v1/admin/sessions?limit=500'), { headers })).json()) as {
      session_id: string;
    }[];
    const status = (await (await fetch(url('/api/v1/admin/status'), { headers })).json()) as {
      active_sessions: number;
    };
    const metrics = parseExposition(await (await fetch(url('/metrics'), { headers })).text());
    const gauge = metrics.get('agent_gateway_active_sessions')?.samples[0]?.value;
    const listed = list.map((session) => session.session_id).sort();
    expect(status.active_sessions).toBe(listed.length);
    expect(gauge).toBe(listed.length);
    return listed;
  };
  const chat = async (content: string, sessionId?: string) => {
    const response = await fetch(url('/v1/chat/completions'), {
      method: 'POST',
      headers: sessionId ? { ...headers, 'x-session-id': sessionId } : headers,
      body: JSON.stringify({ model: 'helper', messages: [{ role: 'user', content }] }),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { choices: { message: { content: string } }[] };
    return { sessionId: response.headers.get('x-session-id')!, answer: body.choices[0].message.content };
  };
  const aguiRun = async (message: string, sessionId?: string) => {
    const response = await fetch(url('/agui/runs'), {
      method: 'POST',
      headers,
      body: JSON.stringify({ agent_name: 'helper', message, session_id: sessionId }),
    });
    expect(response.status).toBe(200);
    await response.text();
    return response.headers.get('x-session-id')!;
  };

  beforeAll(async () => {
    db = await dialect.create();
    gateway = await startA2aGateway({ databaseUrl: db.databaseUrl, dataDir: db.dataDir });
  });
  afterAll(async () => {
    await gateway?.stop();
    await db?.drop();
  });

  let stateless: string[] = [];
  it('lists none of 50 stateless chat completions as active, though each gets a session id back', async () => {
    for (let batch = 0; batch < 5; batch += 1) {
      const calls = await Promise.all(Array.from({ length: 10 }, (_, index) => chat(`call ${batch * 10 + index}`)));
      stateless.push(...calls.map((call) => call.sessionId));
    }
    expect(new Set(stateless).size).toBe(50);
    expect(await active()).toEqual([]);
    // Still stored, and an operator still reads it by id.
    const detail = await fetch(url(`/api/v1/admin/sessions/${stateless[0]}`), { headers });
    expect(detail.status).toBe(200);
    expect(((await detail.json()) as { message_count: number }).message_count).toBe(2);
  });

  it('lists a stateless session once its caller continues it, and a named one from its first turn', async () => {
    const continued = await chat('and then?', stateless[0]);
    expect(continued.sessionId).toBe(stateless[0]);
    expect(await active()).toEqual([stateless[0]]);
    await chat('hello', 'named-by-the-caller');
    expect(await active()).toEqual(['named-by-the-caller', stateless[0]].sort());
    stateless = [];
  });

  it('counts an AG-UI session the same way: over SSE once continued, on a WebSocket from its second run', async () => {
    const before = await active();
    const sseSession = await aguiRun('hi');
    expect(sseSession).toMatch(/^ses_/);
    expect(await active()).toEqual(before);
    await aguiRun('again', sseSession);
    expect(await active()).toEqual([...before, sseSession].sort());

    const socket = await connectWs(`${url('/agui/ws').replace('http', 'ws')}?agent_name=helper`, headers);
    const isTerminal = (frame: { type: string }) => frame.type === 'RUN_FINISHED' || frame.type === 'RUN_ERROR';
    socket.send({ type: 'message', content: 'first' });
    const first = await socket.until(isTerminal);
    expect(first.at(-1).type).toBe('RUN_FINISHED');
    const wsSession = first[0].threadId as string;
    expect(await active()).toEqual([...before, sseSession].sort());
    socket.send({ type: 'message', content: 'second' });
    expect((await socket.until(isTerminal)).at(-1).type).toBe('RUN_FINISHED');
    expect(await active()).toEqual([...before, sseSession, wsSession].sort());
    await socket.close();
  });

  it('counts an A2A context once a second task runs in it', async () => {
    const token = await gateway.createToken('helper', ['a2a']);
    const client = await discover(`${gateway.app.url}/a2a/helper/`);
    const before = await active();
    const first = (await client.sendMessage(userMessage('one-off'), bearer(token.token))) as Task;
    expect(first.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(await active()).toEqual(before);
    const contextId = randomUUID();
    await client.sendMessage(userMessage('start', { contextId }), bearer(token.token));
    expect(await active()).toEqual(before);
    const second = (await client.sendMessage(userMessage('go on', { contextId }), bearer(token.token))) as Task;
    expect(second.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const now = await active();
    expect(now).toHaveLength(before.length + 1);
    expect(now.filter((id) => !before.includes(id))[0]).toMatch(/^a2a-ctx-/);
  });
});
