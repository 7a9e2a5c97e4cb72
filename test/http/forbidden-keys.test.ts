import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_YAML, startTestApp, TEST_API_KEY, type TestApp } from '../support/app.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp(BASE_YAML, { listen: false });
});
afterAll(() => app.stop());

const post = async (body: string) => {
  const response = await app.inject('/v1/chat/completions', {
    method: 'POST',
    headers: { authorization: `Bearer ${TEST_API_KEY}`, 'content-type': 'application/json' },
    body,
  });
  return { status: response.status, body: (await response.json()) as { error: Record<string, unknown> } };
};

describe('bodies with prototype-poisoning keys', () => {
  it('are refused with 400, naming where the key is', async () => {
    const proto = await post(
      '{"model":"helper","messages":[{"role":"user","content":"hi"}],"max_tokens":{"a":1,"__proto__":false}}',
    );
    expect(proto).toEqual({
      status: 400,
      body: {
        error: {
          type: 'invalid_request_error',
          code: 'invalid_request',
          message: 'body.max_tokens.__proto__: this key is not allowed in a request body',
        },
      },
    });
    const constructor = await post('{"model":"helper","messages":[{"constructor":{"prototype":{"x":1}}}]}');
    expect(constructor.status).toBe(400);
    expect(constructor.body.error.message).toBe(
      'body.messages.0.constructor.prototype: this key is not allowed in a request body',
    );
  });

  it('leave text that is not JSON to the invalid_json answer', async () => {
    expect(await post('{"model": "helper", "__proto__": ')).toMatchObject({
      status: 400,
      body: { error: { code: 'invalid_json', message: 'The request body is not valid JSON' } },
    });
  });
});
