import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UpstreamError } from '../../src/errors.js';
import {
  CHAT_PROVIDER_TYPES,
  clientFor,
  collectFailure,
  recordingLogger,
  USER_HELLO,
} from './model-client-fixtures.js';
import { chatChunk, startSseUpstream, type SseUpstream } from './sse-upstream.js';

describe.each(CHAT_PROVIDER_TYPES)('an error chunk inside a %s stream', (type) => {
  let upstream: SseUpstream;
  beforeAll(async () => {
    upstream = await startSseUpstream();
  });
  afterAll(() => upstream.close());

  it('throws an UpstreamError that carries the upstream message, after the parts before it, without retrying', async () => {
    upstream.enqueue({
      events: [
        chatChunk({ role: 'assistant', content: 'partial' }),
        {
          error: { message: 'context length exceeded', type: 'invalid_request_error', code: 'context_length_exceeded' },
        },
        '[DONE]',
      ],
    });
    const { client } = clientFor(upstream, {}, recordingLogger(), type);
    const { error, parts } = await collectFailure(client.stream({ model: 'up/m', messages: USER_HELLO }));
    expect(parts).toEqual([{ type: 'text-delta', delta: 'partial' }]);
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toMatchObject({ retryable: false });
    expect((error as Error).message).toBe(
      `${type} provider "up" model "m": upstream reported an error in its stream: context length exceeded`,
    );
    expect(upstream.requests).toHaveLength(1);
  });
});
