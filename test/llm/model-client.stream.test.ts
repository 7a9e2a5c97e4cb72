import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { CHAT_PROVIDER_TYPES, clientFor, collect, recordingLogger, USER_HELLO } from './model-client-fixtures.js';

const TIME_TOOL = {
  name: 'get_current_time',
  description: 'Current time',
  parameters: { type: 'object' as const, properties: { timezone: { type: 'string' } }, required: ['timezone'] },
};

describe.each(CHAT_PROVIDER_TYPES)('ModelClient.stream through a %s provider', (type) => {
  let upstream: FakeUpstream;
  beforeAll(async () => {
    upstream = await startFakeUpstream();
  });
  afterAll(() => upstream.close());
  beforeEach(() => {
    upstream.requests.length = 0;
  });

  it('streams text deltas, then an end part with the reported usage', async () => {
    upstream.enqueue({
      kind: 'text',
      text: 'Hello there, friend',
      chunks: 3,
      usage: { prompt_tokens: 12, completion_tokens: 4, cached_tokens: 3 },
    });
    const { client } = clientFor(upstream, {}, recordingLogger(), type);
    const parts = await collect(client.stream({ model: 'up/llama3.1', messages: USER_HELLO }));
    const deltas = parts.filter((part) => part.type === 'text-delta');
    expect(deltas.length).toBe(3);
    expect(deltas.map((part) => part.delta).join('')).toBe('Hello there, friend');
    expect(parts.at(-1)).toEqual({
      type: 'end',
      finishReason: 'stop',
      text: 'Hello there, friend',
      toolCalls: [],
      usage: { inputTokens: 12, outputTokens: 4, cachedInputTokens: 3, estimated: false },
      // The model id the upstream's answer names.
      responseModel: 'llama3.1',
    });
  });

  it('sends the model, temperature, max tokens, history and stream_options.include_usage upstream', async () => {
    const { client } = clientFor(upstream, {}, recordingLogger(), type);
    const messages = [
      { role: 'system' as const, content: 'Be brief.' },
      { role: 'user' as const, content: 'first' },
      { role: 'assistant' as const, content: 'answer one' },
      { role: 'user' as const, content: 'second' },
    ];
    await collect(client.stream({ model: 'up/llama3.1', messages, temperature: 0.2, maxTokens: 64 }));
    const [request] = upstream.chatRequests();
    expect(request.body).toMatchObject({
      model: 'llama3.1',
      stream: true,
      stream_options: { include_usage: true },
      temperature: 0.2,
      max_tokens: 64,
    });
    expect(request.body.messages.map((message: { role: string }) => message.role)).toEqual([
      'system',
      'user',
      'assistant',
      'user',
    ]);
    expect(request.headers.authorization).toBe('Bearer sk-fake-secret-key-0123456789');
  });

  it('counts tokens locally and marks usage estimated when the upstream sends none', async () => {
    upstream.enqueue({ kind: 'text', text: 'no usage here', usage: null });
    const { client } = clientFor(upstream, {}, recordingLogger(), type);
    const end = (await collect(client.stream({ model: 'up/m', messages: USER_HELLO }))).at(-1);
    expect(end?.type).toBe('end');
    if (end?.type !== 'end') return;
    expect(end.usage.estimated).toBe(true);
    expect(end.usage.inputTokens).toBeGreaterThan(0);
    expect(end.usage.outputTokens).toBe(3);
  });

  it('assembles tool calls whose arguments arrive split over several fragments', async () => {
    upstream.enqueue({
      kind: 'tool_calls',
      calls: [
        { name: 'get_current_time', arguments: { timezone: 'Europe/Berlin' }, id: 'call_a' },
        { name: 'get_current_time', arguments: { timezone: 'Asia/Tokyo' }, id: 'call_b' },
      ],
    });
    const { client } = clientFor(upstream, {}, recordingLogger(), type);
    const parts = await collect(client.stream({ model: 'up/m', messages: USER_HELLO, tools: [TIME_TOOL] }));
    const calls = parts.flatMap((part) => (part.type === 'tool-call' ? [part.toolCall] : []));
    expect(calls).toEqual([
      { id: 'call_a', name: 'get_current_time', arguments: '{"timezone":"Europe/Berlin"}' },
      { id: 'call_b', name: 'get_current_time', arguments: '{"timezone":"Asia/Tokyo"}' },
    ]);
    const end = parts.at(-1);
    expect(end).toMatchObject({ type: 'end', finishReason: 'tool_calls', toolCalls: calls });
    const [request] = upstream.chatRequests();
    expect(request.body.tools).toEqual([
      {
        type: 'function',
        function: { name: 'get_current_time', description: 'Current time', parameters: TIME_TOOL.parameters },
      },
    ]);
  });

  it('sends tool results back in the OpenAI shape', async () => {
    const { client } = clientFor(upstream, {}, recordingLogger(), type);
    const messages = [
      { role: 'user' as const, content: 'time?' },
      {
        role: 'assistant' as const,
        content: '',
        tool_calls: [{ id: 'call_a', name: 'get_current_time', arguments: '{"timezone":"UTC"}' }],
      },
      { role: 'tool' as const, tool_call_id: 'call_a', name: 'get_current_time', content: '12:00' },
    ];
    await collect(client.stream({ model: 'up/m', messages, tools: [TIME_TOOL] }));
    const sent = upstream.chatRequests()[0].body.messages;
    expect(sent[1]).toMatchObject({
      role: 'assistant',
      tool_calls: [
        { id: 'call_a', type: 'function', function: { name: 'get_current_time', arguments: '{"timezone":"UTC"}' } },
      ],
    });
    expect(sent[2]).toEqual({ role: 'tool', tool_call_id: 'call_a', content: '12:00' });
  });
});
