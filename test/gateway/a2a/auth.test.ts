import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_API_KEY } from '../../support/app.js';
import { bearer, discover, rpc, startA2aGateway, userMessage, type A2aGateway } from './a2a-harness.js';

const send = (id: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'message/send',
  params: { message: { kind: 'message', messageId: `m-${id}`, role: 'user', parts: [{ kind: 'text', text: 'hi' }] } },
});

describe('A2A authentication', () => {
  let gateway: A2aGateway;
  let endpoint: string;
  beforeAll(async () => {
    gateway = await startA2aGateway();
    endpoint = `${gateway.app.url}/a2a/helper`;
  });
  afterAll(() => gateway.stop());

  // Credentials are checked before the body is read, so those refusals cannot echo the request id (JSON-RPC allows null).
  const expectRefused = async (response: Response, status: number, code: string, id: number | null) => {
    expect(response.status).toBe(status);
    const body = (await response.json()) as {
      jsonrpc: string;
      id: number | null;
      error: { code: number; message: string; data: unknown };
    };
    expect(body).toMatchObject({ jsonrpc: '2.0', id, error: { code: -32000, data: { code } } });
    expect(body.error.message.length).toBeGreaterThan(0);
  };

  it('refuses a call without credentials with 401 and a JSON-RPC error', async () => {
    const response = await rpc(endpoint, send(1));
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
    await expectRefused(response, 401, 'missing_credentials', null);
  });

  it('refuses a wrong token with 401', async () => {
    await expectRefused(
      await rpc(endpoint, send(2), { authorization: 'Bearer sat-0000000000000000' }),
      401,
      'invalid_token',
      null,
    );
  });

  it('refuses a token of another agent, and one without the a2a scope, with 403', async () => {
    const otherAgent = await gateway.createToken('other', ['a2a']);
    await expectRefused(
      await rpc(endpoint, send(3), { authorization: `Bearer ${otherAgent.token}` }),
      403,
      'wrong_agent',
      3,
    );
    const chatOnly = await gateway.createToken('helper', ['chat']);
    await expectRefused(
      await rpc(endpoint, send(4), { authorization: `Bearer ${chatOnly.token}` }),
      403,
      'insufficient_scope',
      null,
    );
  });

  it('answers 1.0 callers with google.rpc.ErrorInfo details', async () => {
    const response = await rpc(
      endpoint,
      { jsonrpc: '2.0', id: 5, method: 'GetTask', params: { id: 'x' } },
      { 'a2a-version': '1.0' },
    );
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({
      id: null,
      error: {
        code: -32000,
        data: [
          {
            '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
            reason: 'MISSING_CREDENTIALS',
            domain: 'agent-gateway',
          },
        ],
      },
    });
  });

  it('surfaces the refusal to the SDK client, and a revoked token stops working', async () => {
    const token = await gateway.createToken('helper', ['a2a']);
    gateway.upstream.enqueue({ kind: 'text', text: 'ok' });
    const client = await discover(gateway.agentUrl('helper'));
    await client.sendMessage(userMessage('first'), bearer(token.token));
    await gateway.revokeToken(token.token_id);
    await expect(client.sendMessage(userMessage('second'), bearer(token.token))).rejects.toThrow(/revoked/);
  });

  it('accepts the API key (operator credentials)', async () => {
    gateway.upstream.enqueue({ kind: 'text', text: 'operator ok' });
    const response = await rpc(endpoint, send(6), { authorization: `Bearer ${TEST_API_KEY}` });
    expect(((await response.json()) as { result: { status: { state: string } } }).result.status.state).toBe(
      'completed',
    );
  });

  it('answers 404 for an agent that is not published over A2A', async () => {
    const response = await rpc(`${gateway.app.url}/a2a/hidden`, send(7), { authorization: `Bearer ${TEST_API_KEY}` });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ id: 7, error: { code: -32000, data: { code: 'agent_not_found' } } });
  });
});
