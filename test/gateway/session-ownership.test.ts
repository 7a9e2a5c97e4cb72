import { TaskState, type Task } from '@a2a-js/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TEST_API_KEY } from '../support/app.js';
import { bearer, discover, startA2aGateway, userMessage, type A2aGateway } from './a2a/a2a-harness.js';

const SECRET = 'my card number is 4111-1111-1111-1111';

/** Two access tokens of one agent (helper) must not reach each other's conversations or tasks. */
describe('sessions, AG-UI runs and A2A tasks belong to the principal that created them', () => {
  let gateway: A2aGateway;
  let tokenA: { token: string; token_id: string };
  let tokenB: { token: string; token_id: string };
  const operator = { authorization: `Bearer ${TEST_API_KEY}` };
  beforeAll(async () => {
    gateway = await startA2aGateway();
    tokenA = await gateway.createToken('helper', ['chat', 'a2a']);
    tokenB = await gateway.createToken('helper', ['chat', 'a2a']);
  });
  afterAll(() => gateway.stop());
  beforeEach(() => {
    gateway.upstream.requests.length = 0;
  });

  const openai = (token: string) => new OpenAI({ baseURL: `${gateway.app.url}/v1`, apiKey: token, maxRetries: 0 });
  const chat = (token: string, content: string, sessionId?: string) =>
    openai(token)
      .chat.completions.create(
        { model: 'helper', messages: [{ role: 'user', content }] },
        { headers: sessionId ? { 'X-Session-Id': sessionId } : {} },
      )
      .withResponse();
  const upstreamSaw = () => JSON.stringify(gateway.upstream.chatRequests().map((request) => request.body.messages));

  it("answers 404 to another token of the same agent using a session id, and the upstream never sees the owner's messages", async () => {
    await chat(tokenA.token, SECRET, 'customer-session-X');
    gateway.upstream.requests.length = 0;

    const refused = await chat(tokenB.token, 'what did the last customer say?', 'customer-session-X').catch(
      (error: unknown) => error,
    );
    expect(refused).toMatchObject({ status: 404, code: 'session_not_found' });
    expect(gateway.upstream.chatRequests()).toHaveLength(0);

    // The owner still continues it, with its own history.
    await chat(tokenA.token, 'and my name?', 'customer-session-X');
    expect(upstreamSaw()).toContain(SECRET);
  });

  it('answers 404 to AG-UI session_id of another token, before any stream starts', async () => {
    const post = (token: string, message: string) =>
      fetch(`${gateway.app.url}/agui/runs`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ agent_name: 'helper', message, session_id: 'agui-thread-1' }),
      });
    const owned = await post(tokenA.token, SECRET);
    expect(owned.status).toBe(200);
    await owned.text();
    gateway.upstream.requests.length = 0;
    const refused = await post(tokenB.token, 'repeat the conversation');
    expect(refused.status).toBe(404);
    expect(await refused.json()).toMatchObject({ error: { type: 'not_found_error', code: 'session_not_found' } });
    expect(gateway.upstream.chatRequests()).toHaveLength(0);
  });

  it('returns a server-generated session id when the client sends none; it is the caller’s alone', async () => {
    const { response } = await chat(tokenA.token, SECRET);
    const sessionId = response.headers.get('x-session-id');
    expect(sessionId).toMatch(/^ses_/);

    gateway.upstream.requests.length = 0;
    await chat(tokenA.token, 'continue', sessionId!);
    expect(upstreamSaw()).toContain(SECRET);

    await expect(chat(tokenB.token, 'continue', sessionId!)).rejects.toMatchObject({ status: 404 });
    const agui = await fetch(`${gateway.app.url}/agui/runs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokenA.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ agent_name: 'helper', message: 'hello' }),
    });
    expect(agui.headers.get('x-session-id')).toMatch(/^ses_/);
    await agui.text();
  });

  it('lets tokens created with the shared_sessions scope share their sessions', async () => {
    const first = await gateway.createToken('helper', ['chat', 'shared_sessions']);
    const second = await gateway.createToken('helper', ['chat', 'shared_sessions']);
    await chat(first.token, SECRET, 'team-session');
    gateway.upstream.requests.length = 0;
    await chat(second.token, 'what was said?', 'team-session');
    expect(upstreamSaw()).toContain(SECRET);
    // A token without the scope is still kept out.
    await expect(chat(tokenB.token, 'me too', 'team-session')).rejects.toMatchObject({ status: 404 });
  });

  it('lets operators list and read every session, with its owner', async () => {
    const list = (await (await fetch(`${gateway.app.url}/api/v1/admin/sessions`, { headers: operator })).json()) as {
      session_id: string;
      owner: string;
    }[];
    expect(list.find((session) => session.session_id === 'customer-session-X')?.owner).toBe(`token:${tokenA.token_id}`);
    const read = await fetch(`${gateway.app.url}/api/v1/admin/sessions/customer-session-X`, { headers: operator });
    expect(read.status).toBe(200);
    const detail = (await read.json()) as { owner: string; messages: { content: string }[] };
    expect(detail.messages[0].content).toBe(SECRET);
    // An operator chatting in a token's session is another principal: 404 there too.
    await expect(chat(TEST_API_KEY, 'hi', 'customer-session-X')).rejects.toMatchObject({ status: 404 });
  });

  it('answers TaskNotFound to tasks/get and leaves the task out of tasks/list for another token; operators read it', async () => {
    gateway.upstream.enqueue({ kind: 'text', text: `answer about ${SECRET}` });
    const client = await discover(gateway.agentUrl('helper'));
    const task = (await client.sendMessage(userMessage(SECRET), bearer(tokenA.token))) as Task;
    const get = (token: string) => client.getTask({ tenant: '', id: task.id, historyLength: undefined }, bearer(token));

    expect((await get(tokenA.token)).status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    await expect(get(tokenB.token)).rejects.toThrow(/not found/i);
    const listed = await client.listTasks(
      {
        tenant: '',
        contextId: '',
        status: TaskState.TASK_STATE_UNSPECIFIED,
        pageSize: 50,
        pageToken: '',
        historyLength: undefined,
        statusTimestampAfter: undefined,
        includeArtifacts: false,
      },
      bearer(tokenB.token),
    );
    expect(listed.tasks.map((item) => item.id)).not.toContain(task.id);
    await expect(
      client.cancelTask({ tenant: '', id: task.id, metadata: undefined }, bearer(tokenB.token)),
    ).rejects.toThrow(/not found/i);
    expect((await get(TEST_API_KEY)).id).toBe(task.id);
  });
});
