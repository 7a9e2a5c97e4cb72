import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { authHeaders, gatewayYaml, readSse, startGateway, type GatewayHarness } from './openai-harness.js';

const post = (gateway: GatewayHarness, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${gateway.app.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { ...authHeaders, ...headers },
    body: JSON.stringify(body),
  });

describe('chat completion errors', () => {
  let gateway: GatewayHarness;
  beforeAll(async () => {
    gateway = await startGateway({ yaml: gatewayYaml({ timeoutMs: 300 }) });
  });
  afterAll(() => gateway.stop());
  beforeEach(() => {
    gateway.upstream.requests.length = 0;
  });

  it('answers an upstream 500 with 502 in the OpenAI error shape and records the failed run', async () => {
    gateway.upstream.enqueue({ kind: 'error', status: 500 });
    const error = await gateway.client.chat.completions
      .create({ model: 'helper', messages: [{ role: 'user', content: 'x' }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect(error).toMatchObject({ status: 502, type: 'upstream_error' });
    const runId = (error as InstanceType<typeof OpenAI.APIError>).headers?.get('x-run-id');
    expect(runId).toMatch(/^run_/);
    expect((await gateway.app.runs.find(runId!))?.run).toMatchObject({
      status: 'failed',
      error_code: expect.any(String),
    });
  });

  it('answers a streamed request whose upstream fails before any text with a plain HTTP error, not a stream', async () => {
    gateway.upstream.enqueue({ kind: 'error', status: 503 });
    const response = await post(gateway, { model: 'helper', messages: [{ role: 'user', content: 'x' }], stream: true });
    expect(response.status).toBe(502);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(await response.json()).toMatchObject({ error: { type: 'upstream_error' } });
  });

  it('answers an upstream timeout with 504', async () => {
    gateway.upstream.enqueue({ kind: 'hang' });
    const error = await gateway.client.chat.completions
      .create({ model: 'helper', messages: [{ role: 'user', content: 'x' }] })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 504, type: 'timeout_error' });
  });

  it('passes an upstream 429 through with Retry-After', async () => {
    gateway.upstream.enqueue({ kind: 'error', status: 429, headers: { 'retry-after': '7' } });
    const response = await post(gateway, { model: 'helper', messages: [{ role: 'user', content: 'x' }] });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('7');
    expect(await response.json()).toMatchObject({ error: { type: 'rate_limit_error' } });
  });

  it('ends a stream whose upstream disconnects mid-way with one error chunk and no [DONE]', async () => {
    gateway.upstream.enqueue({ kind: 'disconnect', afterChunks: 2 });
    const response = await post(gateway, { model: 'helper', messages: [{ role: 'user', content: 'x' }], stream: true });
    expect(response.status).toBe(200);
    const runId = response.headers.get('x-run-id')!;
    const events = await readSse(response);
    expect(events).not.toContain('[DONE]');
    const last = JSON.parse(events.at(-1)!);
    expect(last).toEqual({
      error: { type: expect.any(String), code: expect.any(String), message: expect.any(String) },
    });
    const text = events
      .slice(0, -1)
      .map((data) => JSON.parse(data).choices[0].delta.content ?? '')
      .join('');
    expect(text).toBe('part0 part1 ');
    const stored = await gateway.app.runs.find(runId);
    expect(stored?.run).toMatchObject({ status: 'failed', output: 'part0 part1 ' });

    gateway.upstream.enqueue({ kind: 'disconnect', afterChunks: 1 });
    const stream = await gateway.client.chat.completions.create({
      model: 'helper',
      messages: [{ role: 'user', content: 'x' }],
      stream: true,
    });
    await expect(
      (async () => {
        for await (const chunk of stream) void chunk;
      })(),
    ).rejects.toThrow();
  });

  it('answers an unknown model with 404 model_not_found', async () => {
    const error = await gateway.client.chat.completions
      .create({ model: 'gpt-nope', messages: [{ role: 'user', content: 'x' }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    expect(error).toMatchObject({ status: 404, code: 'model_not_found', type: 'invalid_request_error' });
    expect(gateway.upstream.chatRequests()).toHaveLength(0);
  });

  it.each([
    [{ messages: [{ role: 'user', content: 'x' }] }, 'body.model'],
    [{ model: 'helper' }, 'body.messages'],
    [{ model: 'helper', messages: [] }, 'body.messages'],
    [{ model: 'helper', messages: [{ role: 'wizard', content: 'x' }] }, 'body.messages.0.role'],
    [{ model: 'helper', messages: [{ role: 'user', content: 42 }] }, 'body.messages.0.content'],
    [{ model: 'helper', messages: [{ role: 'user', content: 'x' }], temperature: 3 }, 'body.temperature'],
    [{ model: 'helper', messages: [{ role: 'user', content: 'x' }], stream: 'yes' }, 'body.stream'],
    [{ model: 'helper', messages: [{ role: 'user', content: 'x' }], max_tokens: -1 }, 'body.max_tokens'],
  ])('rejects %j with 400 naming %s', async (body, field) => {
    const response = await post(gateway, body);
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as { error: { type: string; message: string } };
    expect(error.type).toBe('invalid_request_error');
    expect(error.message).toContain(field);
  });

  it('rejects a malformed X-Session-Id naming the header', async () => {
    const response = await post(
      gateway,
      { model: 'helper', messages: [{ role: 'user', content: 'x' }] },
      { 'x-session-id': 'bad id!' },
    );
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toContain('x-session-id');
  });

  it('refuses an access token bound to another agent with 403, and lists only its own agent as a model', async () => {
    const created = await fetch(`${gateway.app.url}/gateway/tokens`, {
      method: 'POST',
      headers: authHeaders,
      body: JSON.stringify({ agent_name: 'other', scopes: ['chat'] }),
    });
    const { token } = (await created.json()) as { token: string };
    const client = gateway.clientWith(token);
    const error = await client.chat.completions
      .create({ model: 'helper', messages: [{ role: 'user', content: 'x' }] })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 403, type: 'permission_error' });
    expect(gateway.upstream.chatRequests()).toHaveLength(0);

    const { data: completion, response } = await client.chat.completions
      .create({ model: 'other', messages: [{ role: 'user', content: 'hello' }] })
      .withResponse();
    expect(completion.choices[0].message.content).toBe('echo: hello');
    const models = await client.models.list();
    expect(models.data.map((model) => model.id)).toEqual(['other']);
    const stored = await gateway.app.runs.find(response.headers.get('x-run-id')!);
    expect(stored?.run.token_id).toMatch(/^tok_/);
  });

  it('requires credentials', async () => {
    const error = await gateway
      .clientWith('wrong-key-0123456789')
      .chat.completions.create({ model: 'helper', messages: [{ role: 'user', content: 'x' }] })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 401 });
  });
});

describe('feature flags', () => {
  it('does not mount the OpenAI routes when gateway.openai_compat is false', async () => {
    const gateway = await startGateway({ yaml: gatewayYaml({ openaiCompat: false }) });
    try {
      expect((await post(gateway, { model: 'helper', messages: [{ role: 'user', content: 'x' }] })).status).toBe(404);
      expect((await fetch(`${gateway.app.url}/v1/models`, { headers: authHeaders })).status).toBe(404);
    } finally {
      await gateway.stop();
    }
  });
});
