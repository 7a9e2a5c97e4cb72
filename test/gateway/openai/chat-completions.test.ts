import type OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { authHeaders, readSse, startGateway, type GatewayHarness } from './openai-harness.js';

describe('POST /v1/chat/completions', () => {
  let gateway: GatewayHarness;
  beforeAll(async () => {
    gateway = await startGateway();
  });
  afterAll(() => gateway.stop());
  beforeEach(() => {
    gateway.upstream.requests.length = 0;
  });

  it('answers a non-streamed request with a chat.completion object', async () => {
    gateway.upstream.enqueue({
      kind: 'text',
      text: 'Hello there!',
      usage: { prompt_tokens: 21, completion_tokens: 4 },
    });
    const { data: completion, response } = await gateway.client.chat.completions
      .create({ model: 'helper', messages: [{ role: 'user', content: 'Hi' }] })
      .withResponse();
    expect(completion).toMatchObject({
      object: 'chat.completion',
      model: 'helper',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Hello there!' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 21, completion_tokens: 4, total_tokens: 25 },
    });
    expect(completion.id).toMatch(/^chatcmpl-/);
    expect(completion.created).toBeTypeOf('number');
    expect(response.headers.get('x-run-id')).toMatch(/^run_/);
  });

  it('sends the system prompt, the whole history and the agent temperature upstream', async () => {
    await gateway.client.chat.completions.create({
      model: 'helper',
      messages: [
        { role: 'user', content: 'My name is Ada.' },
        { role: 'assistant', content: 'Nice to meet you, Ada.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is ' },
            { type: 'text', text: 'my name?' },
          ],
        },
      ],
    });
    const [sent] = gateway.upstream.chatRequests();
    expect(sent.body.model).toBe('test-model');
    expect(sent.body.temperature).toBe(0.2);
    expect(sent.body.messages).toEqual([
      { role: 'system', content: 'You are a helpful assistant.' },
      { role: 'user', content: 'My name is Ada.' },
      { role: 'assistant', content: 'Nice to meet you, Ada.' },
      { role: 'user', content: 'What is my name?' },
    ]);
  });

  it('lets the request override temperature and max_tokens', async () => {
    await gateway.client.chat.completions.create({
      model: 'helper',
      messages: [{ role: 'user', content: 'x' }],
      temperature: 1.5,
      max_tokens: 42,
    });
    const [sent] = gateway.upstream.chatRequests();
    expect(sent.body.temperature).toBe(1.5);
    expect(sent.body.max_tokens ?? sent.body.max_completion_tokens).toBe(42);
  });

  it('streams chat.completion.chunk events: role first, then content, finish_reason, [DONE]', async () => {
    gateway.upstream.enqueue({ kind: 'text', text: 'one two three four', chunks: 4 });
    const stream = await gateway.client.chat.completions.create({
      model: 'helper',
      messages: [{ role: 'user', content: 'count' }],
      stream: true,
    });
    const chunks: OpenAI.ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks[0].choices[0].delta).toEqual({ role: 'assistant', content: '' });
    const deltas = chunks.slice(1, -1).map((chunk) => chunk.choices[0].delta.content);
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.every((delta) => typeof delta === 'string' && delta.length > 0)).toBe(true);
    expect(deltas.join('')).toBe('one two three four');
    expect(chunks.at(-1)?.choices[0]).toMatchObject({ delta: {}, finish_reason: 'stop' });
    expect(
      chunks.every(
        (chunk) => chunk.object === 'chat.completion.chunk' && chunk.model === 'helper' && chunk.id === chunks[0].id,
      ),
    ).toBe(true);
    expect(chunks.some((chunk) => chunk.usage)).toBe(false);
  });

  it('adds a usage chunk when stream_options.include_usage is set, then [DONE]', async () => {
    gateway.upstream.enqueue({ kind: 'text', text: 'usage please', usage: { prompt_tokens: 7, completion_tokens: 2 } });
    const response = await fetch(`${gateway.app.url}/v1/chat/completions`, {
      method: 'POST',
      headers: authHeaders,
      body: JSON.stringify({
        model: 'helper',
        messages: [{ role: 'user', content: 'x' }],
        stream: true,
        stream_options: { include_usage: true },
      }),
    });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(response.headers.get('x-accel-buffering')).toBe('no');
    expect(response.headers.get('x-run-id')).toMatch(/^run_/);
    const events = await readSse(response);
    expect(events.at(-1)).toBe('[DONE]');
    const chunks = events.slice(0, -1).map((data) => JSON.parse(data));
    const usageChunk = chunks.at(-1);
    expect(usageChunk).toMatchObject({
      choices: [],
      usage: { prompt_tokens: 7, completion_tokens: 2, total_tokens: 9 },
    });
    expect(chunks.at(-2).choices[0].finish_reason).toBe('stop');
    expect(chunks.slice(0, -1).every((chunk) => chunk.usage === null)).toBe(true);
    expect(gateway.upstream.chatRequests()[0].body.stream_options).toEqual({ include_usage: true });
  });

  it('streams with the official client and include_usage', async () => {
    gateway.upstream.enqueue({ kind: 'text', text: 'abc', usage: { prompt_tokens: 3, completion_tokens: 1 } });
    const stream = await gateway.client.chat.completions.create({
      model: 'helper',
      messages: [{ role: 'user', content: 'x' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      usage = chunk.usage ?? usage;
    }
    expect(text).toBe('abc');
    expect(usage).toEqual({ prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 });
  });
});

describe('GET /v1/models', () => {
  let gateway: GatewayHarness;
  beforeAll(async () => {
    gateway = await startGateway();
  });
  afterAll(() => gateway.stop());

  it('lists agents as models', async () => {
    const models: OpenAI.Model[] = [];
    for await (const model of gateway.client.models.list()) models.push(model);
    expect(models.map((model) => model.id)).toEqual(['helper', 'timekeeper', 'other']);
    expect(models[0]).toEqual({
      id: 'helper',
      object: 'model',
      created: expect.any(Number),
      owned_by: 'agent-gateway',
    });
    expect(await gateway.client.models.retrieve('other')).toMatchObject({ id: 'other', object: 'model' });
  });
});
