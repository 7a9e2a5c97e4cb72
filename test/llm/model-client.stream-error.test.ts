import { describe, expect, it } from 'vitest';
import { UpstreamError } from '../../src/errors.js';
import { createModelClient } from '../../src/llm/index.js';
import { collectFailure, USER_HELLO } from './model-client-fixtures.js';

function sse(events: unknown[]): Response {
  const body = events.map((event) => `data: ${typeof event === 'string' ? event : JSON.stringify(event)}\n\n`).join('');
  return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
}

describe('an error chunk inside a stream', () => {
  it('throws an UpstreamError that carries the upstream message, after the parts before it', async () => {
    let calls = 0;
    const fetchImpl = (async () => {
      calls += 1;
      return sse([
        { id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { role: 'assistant', content: 'partial' }, finish_reason: null }] },
        { error: { message: 'context length exceeded', type: 'invalid_request_error', code: 'context_length_exceeded' } },
        '[DONE]',
      ]);
    }) as typeof fetch;
    const client = createModelClient({ providers: { up: { type: 'openai-compatible', base_url: 'http://upstream.invalid/v1', timeout_ms: 5_000, max_retries: 2, headers: {} } }, fetch: fetchImpl });
    const { error, parts } = await collectFailure(client.stream({ model: 'up/m', messages: USER_HELLO }));
    expect(parts).toEqual([{ type: 'text-delta', delta: 'partial' }]);
    expect(error).toBeInstanceOf(UpstreamError);
    expect((error as Error).message).toBe('openai-compatible provider "up" model "m": upstream reported an error in its stream: context length exceeded');
    expect(calls).toBe(1);
  });
});
