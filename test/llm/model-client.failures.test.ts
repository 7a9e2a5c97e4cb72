import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { UpstreamError } from '../../src/errors.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import {
  CHAT_PROVIDER_TYPES,
  clientFor,
  collect,
  collectFailure,
  FAKE_API_KEY,
  recordingLogger,
  USER_HELLO,
} from './model-client-fixtures.js';

describe.each(CHAT_PROVIDER_TYPES)('ModelClient retries and upstream failures through a %s provider', (type) => {
  let upstream: FakeUpstream;
  beforeAll(async () => {
    upstream = await startFakeUpstream();
  });
  afterAll(() => upstream.close());
  beforeEach(() => {
    upstream.requests.length = 0;
  });

  it('retries a 500 and then streams the answer', async () => {
    upstream.enqueue({ kind: 'error', status: 500 }, { kind: 'text', text: 'recovered' });
    const { client, logger } = clientFor(upstream, {}, recordingLogger(), type);
    const parts = await collect(client.stream({ model: 'up/m', messages: USER_HELLO }));
    expect(parts.at(-1)).toMatchObject({ type: 'end', text: 'recovered' });
    expect(upstream.chatRequests().length).toBe(2);
    expect(logger.warnings.map((warning) => warning.msg)).toEqual(['retrying model call']);
  });

  it('retries a non-streamed call on 503', async () => {
    upstream.enqueue({ kind: 'error', status: 503 }, { kind: 'text', text: 'fine now' });
    const { client } = clientFor(upstream, {}, recordingLogger(), type);
    expect((await client.generate({ model: 'up/m', messages: USER_HELLO })).text).toBe('fine now');
    expect(upstream.chatRequests().length).toBe(2);
  });

  it('waits as long as Retry-After asks on a 429, then succeeds', async () => {
    upstream.enqueue(
      { kind: 'error', status: 429, headers: { 'retry-after': '1' } },
      { kind: 'text', text: 'after the wait' },
    );
    const { client, logger } = clientFor(upstream, {}, recordingLogger(), type);
    const result = await client.generate({ model: 'up/m', messages: USER_HELLO });
    expect(result.text).toBe('after the wait');
    expect(logger.warnings[0].obj).toMatchObject({ retry: 1, delayMs: 1000, upstreamStatus: 429 });
  });

  it('passes a 429 through with retryAfterSeconds when Retry-After is longer than the cap', async () => {
    upstream.enqueue({ kind: 'error', status: 429, headers: { 'retry-after': '120' } });
    const { client } = clientFor(upstream, {}, recordingLogger(), type);
    const error = await client.generate({ model: 'up/m', messages: USER_HELLO }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toMatchObject({ status: 429, upstreamStatus: 429, retryAfterSeconds: 120, retryable: true });
    expect(upstream.chatRequests().length).toBe(1);
  });

  it('gives up after max_retries with a 502 that names the provider and model but not the key', async () => {
    upstream.setDefault({
      kind: 'error',
      status: 500,
      body: { error: { message: `backend exploded for key ${FAKE_API_KEY}`, type: 'server_error', code: null } },
    });
    try {
      const { client } = clientFor(upstream, { max_retries: 2 }, recordingLogger(), type);
      const { error } = await collectFailure(client.stream({ model: 'up/llama3.1', messages: USER_HELLO }));
      expect(error).toBeInstanceOf(UpstreamError);
      const upstreamError = error as UpstreamError;
      expect(upstreamError).toMatchObject({ status: 502, upstreamStatus: 500, retryable: true });
      expect(upstreamError.message).toContain('provider "up" model "llama3.1"');
      expect(upstreamError.message).toContain('backend exploded');
      expect(upstreamError.message).not.toContain(FAKE_API_KEY);
      expect(upstream.chatRequests().length).toBe(3);
    } finally {
      upstream.setDefault((request) => ({ kind: 'text', text: `echo: ${request.body.messages.at(-1).content}` }));
    }
  });

  it('does not retry a 400', async () => {
    upstream.enqueue({
      kind: 'error',
      status: 400,
      body: { error: { message: 'bad field', type: 'invalid_request_error', code: null } },
    });
    const { client } = clientFor(upstream, {}, recordingLogger(), type);
    const error = await client.generate({ model: 'up/m', messages: USER_HELLO }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 502, upstreamStatus: 400, retryable: false });
    expect(upstream.chatRequests().length).toBe(1);
  });

  it('retries a connection dropped before the first part', async () => {
    upstream.enqueue({ kind: 'disconnect', afterChunks: 0 }, { kind: 'text', text: 'second try' });
    const { client } = clientFor(upstream, {}, recordingLogger(), type);
    const parts = await collect(client.stream({ model: 'up/m', messages: USER_HELLO }));
    expect(parts.at(-1)).toMatchObject({ type: 'end', text: 'second try' });
    expect(upstream.chatRequests().length).toBe(2);
  });

  it('never retries once a part was yielded: a mid-stream disconnect throws from the iterator', async () => {
    upstream.enqueue({ kind: 'disconnect', afterChunks: 2 });
    const { client } = clientFor(upstream, {}, recordingLogger(), type);
    const { error, parts } = await collectFailure(client.stream({ model: 'up/m', messages: USER_HELLO }));
    expect(parts.map((part) => (part.type === 'text-delta' ? part.delta : part.type)).join('')).toBe('part0 part1 ');
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toMatchObject({ status: 502, retryable: true });
    expect((error as Error).message).toMatch(/provider "up" model "m": connection failed/);
    expect(upstream.chatRequests().length).toBe(1);
  });

  it('retries a refused connection, then fails with a retryable "connection failed" that names the cause', async () => {
    const closed = await startFakeUpstream();
    await closed.close();
    const { client, logger } = clientFor(closed, { max_retries: 1 }, recordingLogger(), type);
    const { error } = await collectFailure(client.stream({ model: 'up/m', messages: USER_HELLO }));
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toMatchObject({ status: 502, retryable: true });
    expect((error as Error).message).toMatch(/provider "up" model "m": connection failed: .*ECONNREFUSED/);
    // The provider's address is for the logs, never for the caller (issue #41): a token holder reads this message.
    const { host, port } = new URL(closed.url);
    expect((error as Error).message).not.toContain(host);
    expect((error as Error).message).not.toContain(`:${port}`);
    expect(logger.warnings.map((warning) => warning.msg)).toEqual(['retrying model call', 'model call failed']);
    expect(JSON.stringify(logger.warnings)).toContain(`${host}`);
  });

  it('keeps internal URLs and addresses an upstream names in its error out of the message', async () => {
    upstream.enqueue({
      kind: 'error',
      status: 400,
      body: {
        error: {
          message: 'model not served by http://10.20.30.40:8000/v1/pool (fallback [fd00::7]:9000, 192.168.5.6)',
          type: 'invalid_request_error',
          code: null,
        },
      },
    });
    const { client, logger } = clientFor(upstream, {}, recordingLogger(), type);
    const error = (await client
      .generate({ model: 'up/m', messages: USER_HELLO })
      .catch((caught: unknown) => caught)) as Error;
    expect(error.message).toContain('model not served by');
    for (const internal of ['10.20.30.40', 'fd00::7', '192.168.5.6', 'http://'])
      expect(error.message).not.toContain(internal);
    expect(JSON.stringify(logger.warnings)).toContain('http://10.20.30.40:8000/v1/pool');
  });

  it('fails with a 504 UpstreamError when the call exceeds timeout_ms', async () => {
    upstream.enqueue({ kind: 'hang' });
    const { client } = clientFor(upstream, { timeout_ms: 150 }, recordingLogger(), type);
    const { error } = await collectFailure(client.stream({ model: 'up/m', messages: USER_HELLO }));
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toMatchObject({ status: 504, type: 'timeout_error', code: 'upstream_timeout', retryable: false });
    expect(upstream.chatRequests().length).toBe(1);
  });

  it('times out a stream that stalls after it began', async () => {
    upstream.enqueue({ kind: 'text', text: 'slow slow slow', chunks: 3, chunkDelayMs: 300 });
    const { client } = clientFor(upstream, { timeout_ms: 200 }, recordingLogger(), type);
    const { error } = await collectFailure(client.stream({ model: 'up/m', messages: USER_HELLO }));
    expect(error).toMatchObject({ status: 504, code: 'upstream_timeout' });
  });
});
