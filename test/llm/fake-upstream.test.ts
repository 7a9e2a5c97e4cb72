import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';

describe('fake upstream speaks the OpenAI wire format', () => {
  let upstream: FakeUpstream;
  let client: OpenAI;
  beforeAll(async () => {
    upstream = await startFakeUpstream();
    client = new OpenAI({ baseURL: upstream.url, apiKey: 'sk-fake', maxRetries: 0 });
  });
  afterAll(() => upstream.close());
  beforeEach(() => {
    upstream.requests.length = 0;
  });

  it('echoes the last user message by default, with usage', async () => {
    const completion = await client.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'hello there' }],
      temperature: 0.3,
    });
    expect(completion.object).toBe('chat.completion');
    expect(completion.choices[0].message.content).toBe('echo: hello there');
    expect(completion.choices[0].finish_reason).toBe('stop');
    expect(completion.usage).toMatchObject({
      prompt_tokens: 10,
      completion_tokens: 5,
      total_tokens: 15,
      prompt_tokens_details: { cached_tokens: 0 },
    });
    const [request] = upstream.chatRequests();
    expect(request.body.temperature).toBe(0.3);
    expect(request.headers.authorization).toBe('Bearer sk-fake');
  });

  it('streams text chunks, a finish chunk, a usage chunk only when asked, then [DONE]', async () => {
    upstream.enqueue({
      kind: 'text',
      text: 'one two three four',
      usage: { prompt_tokens: 7, completion_tokens: 4, cached_tokens: 2 },
      chunks: 4,
    });
    const stream = await client.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks[0].choices[0].delta.role).toBe('assistant');
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe('one two three four');
    expect(chunks.filter((chunk) => chunk.choices[0]?.delta.content).length).toBe(4);
    expect(chunks.at(-2)?.choices[0].finish_reason).toBe('stop');
    expect(chunks.at(-1)?.choices).toEqual([]);
    expect(chunks.at(-1)?.usage).toMatchObject({
      prompt_tokens: 7,
      completion_tokens: 4,
      prompt_tokens_details: { cached_tokens: 2 },
    });

    upstream.enqueue({ kind: 'text', text: 'no usage please' });
    const plain = await client.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
    });
    const plainChunks = [];
    for await (const chunk of plain) plainChunks.push(chunk);
    expect(plainChunks.every((chunk) => chunk.usage == null)).toBe(true);
    expect(plainChunks.at(-1)?.choices[0].finish_reason).toBe('stop');
  });

  it('returns tool calls, non-streamed and streamed with split arguments', async () => {
    upstream.enqueue({
      kind: 'tool_calls',
      calls: [{ name: 'get_current_time', arguments: { timezone: 'UTC' }, id: 'call_1' }],
    });
    const completion = await client.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'time?' }],
    });
    expect(completion.choices[0].finish_reason).toBe('tool_calls');
    expect(completion.choices[0].message.tool_calls).toEqual([
      { id: 'call_1', type: 'function', function: { name: 'get_current_time', arguments: '{"timezone":"UTC"}' } },
    ]);

    upstream.enqueue({
      kind: 'tool_calls',
      calls: [
        { name: 'a', arguments: { x: 1 } },
        { name: 'b', arguments: '{"y":"two"}' },
      ],
    });
    const runner = client.chat.completions.stream({ model: 'm', messages: [{ role: 'user', content: 'go' }] });
    const final = await runner.finalChatCompletion();
    const calls = final.choices[0].message.tool_calls ?? [];
    expect(
      calls.map((call) => call.type === 'function' && [call.function.name, JSON.parse(call.function.arguments)]),
    ).toEqual([
      ['a', { x: 1 }],
      ['b', { y: 'two' }],
    ]);
    expect(calls.every((call) => call.id.startsWith('call_'))).toBe(true);
    expect(final.choices[0].finish_reason).toBe('tool_calls');
  });

  it('returns errors in the OpenAI shape with status and headers', async () => {
    upstream.enqueue({ kind: 'error', status: 429, headers: { 'retry-after': '3' } });
    const error = await client.chat.completions
      .create({ model: 'm', messages: [{ role: 'user', content: 'x' }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    const apiError = error as InstanceType<typeof OpenAI.APIError>;
    expect(apiError.status).toBe(429);
    expect(apiError.headers?.get('retry-after')).toBe('3');
    expect(apiError.type).toBe('rate_limit_error');
  });

  it('lists models and records every request', async () => {
    const models = await client.models.list();
    expect(models.data.map((model) => model.id)).toEqual(['fake-model']);
    expect(upstream.requests.map((request) => `${request.method} ${request.path}`)).toEqual(['GET /v1/models']);
    expect(upstream.chatRequests()).toEqual([]);
  });

  it('drops the connection mid-stream on disconnect', async () => {
    upstream.enqueue({ kind: 'disconnect', afterChunks: 2 });
    const stream = await client.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'x' }],
      stream: true,
    });
    const seen: string[] = [];
    const failure = await (async () => {
      for await (const chunk of stream) seen.push(chunk.choices[0]?.delta.content ?? '');
    })().catch((caught: unknown) => caught);
    expect(failure).toBeInstanceOf(Error);
    expect(seen.join('')).toBe('part0 part1 ');
  });

  it('hangs until the client aborts, and the connection closes', async () => {
    // A fresh server, so no pooled keep-alive connection from earlier tests is counted.
    const fresh = await startFakeUpstream();
    try {
      fresh.enqueue({ kind: 'hang' });
      const freshClient = new OpenAI({ baseURL: fresh.url, apiKey: 'sk-fake', maxRetries: 0 });
      const controller = new AbortController();
      const pending = freshClient.chat.completions.create(
        { model: 'm', messages: [{ role: 'user', content: 'x' }] },
        { signal: controller.signal },
      );
      await expect.poll(() => fresh.chatRequests().length).toBe(1);
      expect(fresh.openConnections()).toBe(1);
      controller.abort();
      await expect(pending).rejects.toThrow();
      await expect.poll(() => fresh.openConnections()).toBe(0);
    } finally {
      await fresh.close();
    }
  });
});
