import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { UpstreamError } from '../../src/errors.js';
import { clientFor, collect, collectFailure, FAKE_API_KEY, USER_HELLO } from './model-client-fixtures.js';
import { chatChunk, startSseUpstream, type SseUpstream } from './sse-upstream.js';

const LOOKUP = {
  name: 'lookup',
  description: 'Look something up',
  parameters: { type: 'object' as const, properties: { q: { type: 'string' } }, required: ['q'] },
};
const usageChunk = (usage: object) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'm',
  choices: [],
  usage,
});

describe('openai-compatible providers: the Chat Completions wire format', () => {
  let upstream: SseUpstream;
  beforeAll(async () => {
    upstream = await startSseUpstream();
  });
  afterAll(() => upstream.close());
  beforeEach(() => {
    upstream.requests.length = 0;
  });

  it('sends the history, tools and settings in the Chat Completions shape, with the configured headers', async () => {
    upstream.enqueue({ events: [chatChunk({ content: 'ok' }), chatChunk({}, 'stop'), '[DONE]'] });
    const { client } = clientFor(upstream, { headers: { 'x-team': 'core' } });
    await collect(
      client.stream({
        model: 'up/meta-llama/Llama-3-8b',
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'find x' },
          { role: 'assistant', content: '', tool_calls: [{ id: 'call_1', name: 'lookup', arguments: '{"q": "x"}' }] },
          { role: 'tool', tool_call_id: 'call_1', name: 'lookup', content: 'found' },
        ],
        tools: [LOOKUP],
        temperature: 0.2,
        maxTokens: 64,
      }),
    );
    const [request] = upstream.requests;
    expect(request.path).toBe('/v1/chat/completions');
    expect(request.body).toEqual({
      model: 'meta-llama/Llama-3-8b',
      max_tokens: 64,
      temperature: 0.2,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'find x' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{"q": "x"}' } }],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'found' },
      ],
      tools: [
        {
          type: 'function',
          function: { name: 'lookup', description: 'Look something up', parameters: LOOKUP.parameters },
        },
      ],
      tool_choice: 'auto',
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(request.headers).toMatchObject({
      authorization: `Bearer ${FAKE_API_KEY}`,
      'content-type': 'application/json',
      'x-team': 'core',
    });
  });

  it('sends no authorization header when the provider has no api_key', async () => {
    upstream.enqueue({ events: [chatChunk({ content: 'ok' }, 'stop'), '[DONE]'] });
    const { client } = clientFor(upstream, { api_key: undefined });
    await collect(client.stream({ model: 'up/m', messages: USER_HELLO }));
    expect(upstream.requests[0].headers.authorization).toBeUndefined();
  });

  it('assembles tool calls whose fragments interleave by index, taking id and name from the first fragment', async () => {
    upstream.enqueue({
      events: [
        chatChunk({ role: 'assistant', content: null }),
        chatChunk({
          tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'lookup', arguments: '' } }],
        }),
        chatChunk({
          tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'lookup', arguments: '{"q":' } }],
        }),
        chatChunk({ tool_calls: [{ index: 0, function: { arguments: '{"q":"first' } }] }),
        chatChunk({ tool_calls: [{ index: 1, function: { arguments: '"second"}' } }] }),
        chatChunk({ tool_calls: [{ index: 0, function: { arguments: '"}' } }] }),
        chatChunk({}, 'tool_calls'),
        usageChunk({ prompt_tokens: 20, completion_tokens: 12 }),
        '[DONE]',
      ],
    });
    const { client } = clientFor(upstream);
    const parts = await collect(client.stream({ model: 'up/m', messages: USER_HELLO, tools: [LOOKUP] }));
    const calls = [
      { id: 'call_a', name: 'lookup', arguments: '{"q":"first"}' },
      { id: 'call_b', name: 'lookup', arguments: '{"q":"second"}' },
    ];
    expect(parts).toEqual([
      { type: 'tool-call', toolCall: calls[0] },
      { type: 'tool-call', toolCall: calls[1] },
      {
        type: 'end',
        finishReason: 'tool_calls',
        text: '',
        toolCalls: calls,
        usage: { inputTokens: 20, outputTokens: 12, cachedInputTokens: 0, estimated: false },
        responseModel: 'm',
      },
    ]);
  });

  it('gives a tool call that arrived without an id one, so its result can refer to it', async () => {
    upstream.enqueue({
      events: [
        chatChunk({ tool_calls: [{ index: 0, function: { name: 'lookup', arguments: '{"q":"x"}' } }] }),
        chatChunk({}, 'tool_calls'),
        '[DONE]',
      ],
    });
    const { client } = clientFor(upstream);
    const result = await client.generate({ model: 'up/m', messages: USER_HELLO, tools: [LOOKUP] });
    expect(result.toolCalls).toEqual([
      { id: expect.stringMatching(/^call_\w{8,}$/), name: 'lookup', arguments: '{"q":"x"}' },
    ]);
  });

  it('reports cached prompt tokens, and estimates only the counts the upstream left out', async () => {
    upstream.enqueue(
      {
        events: [
          chatChunk({ content: 'cached' }, 'stop'),
          usageChunk({ prompt_tokens: 100, completion_tokens: 7, prompt_tokens_details: { cached_tokens: 64 } }),
          '[DONE]',
        ],
      },
      { events: [chatChunk({ content: 'two words' }, 'stop'), usageChunk({ prompt_tokens: 9 }), '[DONE]'] },
    );
    const { client } = clientFor(upstream);
    expect((await client.generate({ model: 'up/m', messages: USER_HELLO })).usage).toEqual({
      inputTokens: 100,
      outputTokens: 7,
      cachedInputTokens: 64,
      estimated: false,
    });
    expect((await client.generate({ model: 'up/m', messages: USER_HELLO })).usage).toEqual({
      inputTokens: 9,
      outputTokens: 2,
      cachedInputTokens: 0,
      estimated: true,
    });
  });

  it.each([
    [
      'a chunk that is not JSON',
      '{"choices": [',
      /invalid response from upstream: a stream chunk is not valid JSON: \{"choices": \[$/,
    ],
    [
      'choices that are not an array',
      { choices: { index: 0 } },
      /invalid response from upstream: a stream chunk has "choices" that is not an array/,
    ],
  ])('fails at once, without retrying, on %s', async (_name, event, message) => {
    upstream.enqueue({ events: [event, chatChunk({ content: 'never seen' }, 'stop'), '[DONE]'] });
    const { client } = clientFor(upstream);
    const { error, parts } = await collectFailure(client.stream({ model: 'up/m', messages: USER_HELLO }));
    expect(parts).toEqual([]);
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toMatchObject({ status: 502, retryable: false });
    expect((error as Error).message).toMatch(message);
    expect(upstream.requests).toHaveLength(1);
  });

  it('fails a stream that ends without a finish reason rather than pass a cut-off answer as complete', async () => {
    upstream.enqueue({ events: [chatChunk({ content: 'half an ans' })] });
    const { client } = clientFor(upstream);
    const { error, parts } = await collectFailure(client.stream({ model: 'up/m', messages: USER_HELLO }));
    expect(parts).toEqual([{ type: 'text-delta', delta: 'half an ans' }]);
    expect((error as Error).message).toMatch(
      /invalid response from upstream: the stream ended without a finish reason/,
    );
  });

  it('waits as retry-after-ms asks on a 429 and then streams the answer', async () => {
    upstream.enqueue(
      {
        status: 429,
        headers: { 'retry-after-ms': '30' },
        body: JSON.stringify({ error: { message: 'slow down', type: 'rate_limit_error' } }),
      },
      { events: [chatChunk({ content: 'after the wait' }, 'stop'), '[DONE]'] },
    );
    const { client, logger } = clientFor(upstream);
    const parts = await collect(client.stream({ model: 'up/m', messages: USER_HELLO }));
    expect(parts.at(-1)).toMatchObject({ type: 'end', text: 'after the wait' });
    expect(logger.warnings[0].obj).toMatchObject({
      retry: 1,
      delayMs: 30,
      upstreamStatus: 429,
      reason: expect.stringContaining('slow down'),
    });
    expect(upstream.requests).toHaveLength(2);
  });

  it("reports a proxy's plain-text error body as the reason", async () => {
    const proxyError = {
      status: 503,
      headers: { 'content-type': 'text/plain' },
      body: 'upstream connect error or disconnect/reset before headers',
    };
    upstream.enqueue(proxyError, proxyError);
    const { client } = clientFor(upstream, { max_retries: 1 });
    const error = await client.generate({ model: 'up/m', messages: USER_HELLO }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 502, upstreamStatus: 503, retryable: true });
    expect((error as Error).message).toBe(
      'openai-compatible provider "up" model "m": upstream answered HTTP 503: upstream connect error or disconnect/reset before headers',
    );
  });
});
