import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startGateway, type GatewayHarness } from './openai-harness.js';

const SYSTEM = { role: 'system', content: 'You are a helpful assistant.' };

describe('sessions (X-Session-Id)', () => {
  let gateway: GatewayHarness;
  beforeAll(async () => {
    gateway = await startGateway();
  });
  afterAll(() => gateway.stop());
  beforeEach(() => {
    gateway.upstream.requests.length = 0;
  });

  const chat = (
    sessionId: string,
    messages: { role: 'user' | 'assistant' | 'system'; content: string }[],
    model = 'helper',
  ) => gateway.client.chat.completions.create({ model, messages }, { headers: { 'X-Session-Id': sessionId } });
  const sentMessages = () => gateway.upstream.chatRequests().map((request) => request.body.messages);

  it('keeps the conversation so a client may send only the new message', async () => {
    const first = await chat('chat:ada-1', [{ role: 'user', content: 'My name is Ada.' }]);
    expect(first.choices[0].message.content).toBe('echo: My name is Ada.');
    await chat('chat:ada-1', [{ role: 'user', content: 'What is my name?' }]);
    expect(sentMessages()[1]).toEqual([
      SYSTEM,
      { role: 'user', content: 'My name is Ada.' },
      { role: 'assistant', content: 'echo: My name is Ada.' },
      { role: 'user', content: 'What is my name?' },
    ]);
    const session = await gateway.app.sessions.find('chat:ada-1');
    expect(session).toMatchObject({ session_id: 'chat:ada-1', agent_name: 'helper', message_count: 4 });
    expect(session!.last_active >= session!.created_at).toBe(true);
  });

  it('does not duplicate history that the client resends in full', async () => {
    await chat('full-2', [{ role: 'user', content: 'one' }]);
    await chat('full-2', [
      { role: 'user', content: 'one' },
      { role: 'assistant', content: 'echo: one' },
      { role: 'user', content: 'two' },
    ]);
    expect(sentMessages()[1]).toEqual([
      SYSTEM,
      { role: 'user', content: 'one' },
      { role: 'assistant', content: 'echo: one' },
      { role: 'user', content: 'two' },
    ]);
    expect((await gateway.app.sessions.find('full-2'))?.message_count).toBe(4);
  });

  it('keeps streamed answers too', async () => {
    const stream = await gateway.client.chat.completions.create(
      { model: 'helper', messages: [{ role: 'user', content: 'streamed' }], stream: true },
      { headers: { 'X-Session-Id': 'stream-3' } },
    );
    for await (const chunk of stream) void chunk;
    await chat('stream-3', [{ role: 'user', content: 'next' }]);
    expect(sentMessages()[1].slice(1, 3)).toEqual([
      { role: 'user', content: 'streamed' },
      { role: 'assistant', content: 'echo: streamed' },
    ]);
  });

  it('does not store the turns of a failed run, so the client can retry', async () => {
    gateway.upstream.enqueue({ kind: 'error', status: 500 });
    await expect(chat('retry-4', [{ role: 'user', content: 'first try' }])).rejects.toMatchObject({ status: 502 });
    expect((await gateway.app.sessions.find('retry-4'))?.message_count).toBe(0);
    await chat('retry-4', [{ role: 'user', content: 'first try' }]);
    expect((await gateway.app.sessions.find('retry-4'))?.message_count).toBe(2);
  });

  it('refuses a session of another agent with 409', async () => {
    await chat('owned-5', [{ role: 'user', content: 'hi' }]);
    const error = await chat('owned-5', [{ role: 'user', content: 'hi' }], 'other').catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 409, code: 'session_agent_mismatch' });
  });

  it('records the session on the run', async () => {
    const { response } = await gateway.client.chat.completions
      .create(
        { model: 'helper', messages: [{ role: 'user', content: 'hi' }] },
        { headers: { 'X-Session-Id': 'rec-6' } },
      )
      .withResponse();
    expect(response.headers.get('x-session-id')).toBe('rec-6');
    expect((await gateway.app.runs.find(response.headers.get('x-run-id')!))?.run.session_id).toBe('rec-6');
  });
});
