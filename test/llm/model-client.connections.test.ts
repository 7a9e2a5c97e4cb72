import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UpstreamError } from '../../src/errors.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import {
  CHAT_PROVIDER_TYPES,
  clientFor,
  collect,
  collectFailure,
  recordingLogger,
  USER_HELLO,
} from './model-client-fixtures.js';

describe.each(CHAT_PROVIDER_TYPES)('ModelClient connections through a %s provider: keep-alive and abort', (type) => {
  // A fresh upstream per test, so pooled keep-alive connections from other tests are not counted.
  let upstream: FakeUpstream;
  beforeEach(async () => {
    upstream = await startFakeUpstream();
  });
  afterEach(() => upstream.close());

  it('reuses pooled keep-alive connections for sequential calls', async () => {
    const { client } = clientFor(upstream, {}, recordingLogger(), type);
    for (let call = 0; call < 3; call += 1) {
      await collect(client.stream({ model: 'up/m', messages: USER_HELLO }));
      await client.generate({ model: 'up/m', messages: USER_HELLO });
    }
    expect(upstream.chatRequests().length).toBe(6);
    // undici may open a second socket while the first is being released, but never one per call.
    expect(upstream.openConnections()).toBeLessThanOrEqual(2);
  });

  it('closes the upstream connection when the caller aborts a waiting call', async () => {
    upstream.enqueue({ kind: 'hang' });
    const { client } = clientFor(upstream, {}, recordingLogger(), type);
    const controller = new AbortController();
    const failure = collectFailure(client.stream({ model: 'up/m', messages: USER_HELLO, signal: controller.signal }));
    await expect.poll(() => upstream.openConnections()).toBe(1);
    controller.abort();
    const { error } = await failure;
    expect(error).toBeInstanceOf(UpstreamError);
    expect((error as Error).message).toContain('aborted by the caller');
    await expect.poll(() => upstream.openConnections()).toBe(0);
    expect(upstream.chatRequests().length).toBe(1);
  });

  it('closes the upstream connection when the caller aborts mid-stream', async () => {
    upstream.enqueue({ kind: 'text', text: 'one two three four five six', chunks: 6, chunkDelayMs: 100 });
    const { client } = clientFor(upstream, {}, recordingLogger(), type);
    const controller = new AbortController();
    const iterator = client
      .stream({ model: 'up/m', messages: USER_HELLO, signal: controller.signal })
      [Symbol.asyncIterator]();
    expect((await iterator.next()).value).toMatchObject({ type: 'text-delta' });
    controller.abort();
    await expect(iterator.next()).rejects.toBeInstanceOf(UpstreamError);
    await expect.poll(() => upstream.openConnections()).toBe(0);
  });

  it('closes the upstream connection when the consumer stops reading', async () => {
    upstream.enqueue({ kind: 'text', text: 'one two three four five six', chunks: 6, chunkDelayMs: 100 });
    const { client } = clientFor(upstream, {}, recordingLogger(), type);
    for await (const part of client.stream({ model: 'up/m', messages: USER_HELLO })) {
      expect(part.type).toBe('text-delta');
      break;
    }
    await expect.poll(() => upstream.openConnections()).toBe(0);
  });

  it('fails at once, without calling upstream, when the signal is already aborted', async () => {
    const { client } = clientFor(upstream, {}, recordingLogger(), type);
    const { error } = await collectFailure(
      client.stream({ model: 'up/m', messages: USER_HELLO, signal: AbortSignal.abort() }),
    );
    expect(error).toBeInstanceOf(UpstreamError);
    expect(upstream.chatRequests().length).toBe(0);
  });
});
