import { describe, expect, it } from 'vitest';
import { startGateway } from '../gateway/openai/openai-harness.js';

describe('draining with keep-alive clients', () => {
  // Without ending the connection after its answer, close() waited out Fastify's 72 s keep-alive timeout.
  it('answers a request in flight and then lets close() finish', async () => {
    const gateway = await startGateway();
    let started!: () => void;
    const upstreamStarted = new Promise<void>((resolve) => (started = resolve));
    gateway.upstream.enqueue({
      kind: 'handler',
      fn: () => (started(), { kind: 'text', text: 'late answer', delayMs: 200 }),
    });
    const answer = gateway.client.chat.completions.create({
      model: 'helper',
      messages: [{ role: 'user', content: 'hi' }],
    });
    await upstreamStarted;
    await gateway.app.stop();
    expect((await answer).choices[0].message.content).toBe('late answer');
    await gateway.upstream.close();
  });
});
