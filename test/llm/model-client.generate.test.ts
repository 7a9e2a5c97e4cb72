import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/errors.js';
import { createModelClient } from '../../src/llm/index.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { clientFor, USER_HELLO } from './model-client-fixtures.js';

describe('ModelClient.generate and describe', () => {
  let upstream: FakeUpstream;
  beforeAll(async () => {
    upstream = await startFakeUpstream();
  });
  afterAll(() => upstream.close());
  beforeEach(() => {
    upstream.requests.length = 0;
  });

  it('returns the collected text and the reported usage', async () => {
    const { client } = clientFor(upstream);
    const result = await client.generate({ model: 'up/llama3.1', messages: USER_HELLO, temperature: 0.7 });
    expect(result).toMatchObject({
      text: 'echo: hello',
      toolCalls: [],
      finishReason: 'stop',
      usage: { inputTokens: 10, outputTokens: 5, cachedInputTokens: 0, estimated: false },
    });
    expect(result.timeToFirstTokenMs).toBeLessThanOrEqual(result.latencyMs);
    const [request] = upstream.chatRequests();
    expect(request.body.temperature).toBe(0.7);
  });

  it('returns tool calls with their arguments as JSON text', async () => {
    upstream.enqueue({ kind: 'tool_calls', calls: [{ name: 'lookup', arguments: { q: 'x' }, id: 'call_1' }] });
    const { client } = clientFor(upstream);
    const result = await client.generate({
      model: 'up/m',
      messages: USER_HELLO,
      tools: [
        {
          name: 'lookup',
          description: 'Look up',
          parameters: { type: 'object', properties: { q: { type: 'string' } } },
        },
      ],
    });
    expect(result.toolCalls).toEqual([{ id: 'call_1', name: 'lookup', arguments: '{"q":"x"}' }]);
    expect(result.finishReason).toBe('tool_calls');
  });

  it('estimates usage when the answer has none', async () => {
    upstream.enqueue({ kind: 'text', text: 'short answer', usage: null });
    const { client } = clientFor(upstream);
    const result = await client.generate({ model: 'up/m', messages: USER_HELLO });
    expect(result.usage.estimated).toBe(true);
    expect(result.usage.outputTokens).toBe(2);
  });

  it('speaks to an openai provider (Chat Completions) at its base_url', async () => {
    const client = createModelClient({
      providers: {
        oa: {
          type: 'openai',
          api_key: 'sk-openai-test-key-123456',
          base_url: upstream.url,
          timeout_ms: 5_000,
          max_retries: 0,
          headers: { 'x-team': 'core' },
        },
      },
    });
    const result = await client.generate({ model: 'oa/gpt-4o-mini', messages: USER_HELLO });
    expect(result.text).toBe('echo: hello');
    const [request] = upstream.chatRequests();
    expect(request.headers.authorization).toBe('Bearer sk-openai-test-key-123456');
    expect(request.headers['x-team']).toBe('core');
  });

  it('describes configured models and rejects unknown providers with a ValidationError', async () => {
    const { client } = clientFor(upstream);
    expect(client.describe('up/meta-llama/Llama-3-8b')).toEqual({
      provider: 'up',
      modelId: 'meta-llama/Llama-3-8b',
      providerType: 'openai-compatible',
    });
    expect(() => client.describe('nope/model')).toThrow(ValidationError);
    expect(() => client.describe('nope/model')).toThrow(expect.objectContaining({ code: 'unknown_provider' }));
    expect(() => client.describe('no-slash')).toThrow(ValidationError);
    expect(() => client.stream({ model: 'nope/model', messages: USER_HELLO })).toThrow(/provider "nope"/);
    await expect(client.generate({ model: 'nope/model', messages: USER_HELLO })).rejects.toBeInstanceOf(
      ValidationError,
    );
    expect(upstream.chatRequests()).toEqual([]);
  });
});
