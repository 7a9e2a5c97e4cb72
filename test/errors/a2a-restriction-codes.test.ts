import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rpc, startA2aGateway, type A2aGateway } from '../gateway/a2a/a2a-harness.js';

// The codes of the refusals are in the JSON-RPC error's data (the SDK clients surface only the message).
describe('A2A restriction refusals name their catalog code', () => {
  let gateway: A2aGateway;
  let limited: string;
  beforeAll(async () => {
    gateway = await startA2aGateway();
    // Two skills and one method: a message must name its skill, and only SendMessage may be called.
    ({ token: limited } = await gateway.createToken('helper', ['a2a'], {
      a2a: { skills: ['summarizing', 'answering-questions'], methods: ['SendMessage'] },
    }));
  });
  afterAll(() => gateway.stop());

  const call = (id: number, method: string, params: object) =>
    rpc(
      `${gateway.app.url}/a2a/helper`,
      { jsonrpc: '2.0', id, method, params },
      { authorization: `Bearer ${limited}`, 'a2a-version': '1.0' },
    );

  it('a2a_method_not_allowed: a method the token was not given', async () => {
    const response = await call(1, 'GetTask', { id: 'task-1' });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({
      id: 1,
      error: {
        message: 'This access token may not call GetTask',
        data: [{ metadata: { code: 'a2a_method_not_allowed' } }],
      },
    });
  });

  it('a2a_skill_required: a message naming no skill, from a token limited to several', async () => {
    const requests = gateway.upstream.chatRequests().length;
    const response = await call(2, 'SendMessage', {
      message: { messageId: 'm-2', role: 'ROLE_USER', parts: [{ text: 'hi' }] },
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({
      id: 2,
      error: { data: [{ metadata: { code: 'a2a_skill_required' } }] },
    });
    expect(gateway.upstream.chatRequests()).toHaveLength(requests);
  });
});
