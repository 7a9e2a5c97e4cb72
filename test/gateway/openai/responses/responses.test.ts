import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { authHeaders, startGateway, type GatewayHarness } from '../openai-harness.js';

describe('POST /v1/responses with the official openai client', () => {
  let gateway: GatewayHarness;
  beforeAll(async () => {
    gateway = await startGateway();
  });
  afterAll(() => gateway.stop());
  beforeEach(() => {
    gateway.upstream.requests.length = 0;
  });

  it('answers responses.create with a Response object: a message item with output_text, and usage', async () => {
    gateway.upstream.enqueue({
      kind: 'text',
      text: 'Hello there!',
      usage: { prompt_tokens: 21, completion_tokens: 4 },
    });
    const { data: response, response: http } = await gateway.client.responses
      .create({ model: 'helper', input: 'Hi' })
      .withResponse();
    expect(response).toMatchObject({
      object: 'response',
      status: 'completed',
      model: 'helper',
      error: null,
      previous_response_id: null,
      output: [
        {
          type: 'message',
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: 'Hello there!', annotations: [] }],
        },
      ],
      usage: { input_tokens: 21, output_tokens: 4, total_tokens: 25 },
    });
    expect(response.id).toMatch(/^resp_/);
    expect(response.output[0].id).toMatch(/^msg_/);
    expect(response.output_text).toBe('Hello there!');
    expect(http.headers.get('x-run-id')).toBe(`run_${response.id.slice('resp_'.length)}`);
    const [sent] = gateway.upstream.chatRequests();
    expect(sent.body.messages).toEqual([
      { role: 'system', content: 'You are a helpful assistant.' },
      { role: 'user', content: 'Hi' },
    ]);
  });

  it("sends input items, the instructions after the agent's prompt, temperature and max_output_tokens upstream", async () => {
    await gateway.client.responses.create({
      model: 'helper',
      instructions: 'Answer in French.',
      temperature: 1.5,
      max_output_tokens: 42,
      input: [
        { role: 'developer', content: 'Be brief.' },
        { role: 'user', content: 'My name is Ada.' },
        { role: 'assistant', content: 'Nice to meet you, Ada.' },
        {
          type: 'message',
          role: 'user',
          content: [
            { type: 'input_text', text: 'What is ' },
            { type: 'input_text', text: 'my name?' },
          ],
        },
      ],
    });
    const [sent] = gateway.upstream.chatRequests();
    expect(sent.body.messages).toEqual([
      { role: 'system', content: 'You are a helpful assistant.\n\nAnswer in French.' },
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'My name is Ada.' },
      { role: 'assistant', content: 'Nice to meet you, Ada.' },
      { role: 'user', content: 'What is my name?' },
    ]);
    expect(sent.body.temperature).toBe(1.5);
    expect(sent.body.max_tokens ?? sent.body.max_completion_tokens).toBe(42);
  });

  it("echoes metadata, the instructions and the temperature used (the agent's)", async () => {
    const response = await gateway.client.responses.create({
      model: 'helper',
      input: 'long story',
      metadata: { ticket: 'T-1' },
      instructions: 'Be long.',
    });
    expect(response).toMatchObject({
      metadata: { ticket: 'T-1' },
      instructions: 'Be long.',
      temperature: 0.2,
      store: true,
    });
  });

  it('retrieves a stored response, and continues it with previous_response_id (the history stays on the server)', async () => {
    gateway.upstream.enqueue({ kind: 'text', text: 'Nice to meet you, Ada.' });
    const first = await gateway.client.responses.create({ model: 'helper', input: 'My name is Ada.' });
    expect(await gateway.client.responses.retrieve(first.id)).toEqual(first);

    gateway.upstream.requests.length = 0;
    gateway.upstream.enqueue({ kind: 'text', text: 'Ada.' });
    const second = await gateway.client.responses.create({
      model: 'helper',
      input: 'What is my name?',
      previous_response_id: first.id,
      instructions: 'Answer with one word.',
    });
    expect(second).toMatchObject({ previous_response_id: first.id, output_text: 'Ada.' });
    expect(gateway.upstream.chatRequests()[0].body.messages).toEqual([
      { role: 'system', content: 'You are a helpful assistant.\n\nAnswer with one word.' },
      { role: 'user', content: 'My name is Ada.' },
      { role: 'assistant', content: 'Nice to meet you, Ada.' },
      { role: 'user', content: 'What is my name?' },
    ]);

    // Continued again from the first response (a branch): the second turn is not part of it.
    gateway.upstream.requests.length = 0;
    await gateway.client.responses.create({
      model: 'helper',
      input: 'Where do I live?',
      previous_response_id: first.id,
    });
    expect(gateway.upstream.chatRequests()[0].body.messages).toEqual([
      { role: 'system', content: 'You are a helpful assistant.' },
      { role: 'user', content: 'My name is Ada.' },
      { role: 'assistant', content: 'Nice to meet you, Ada.' },
      { role: 'user', content: 'Where do I live?' },
    ]);
  });

  it('does not keep a response sent with store: false', async () => {
    const response = await gateway.client.responses.create({ model: 'helper', input: 'x', store: false });
    expect(response).toMatchObject({ store: false });
    await expect(gateway.client.responses.retrieve(response.id)).rejects.toMatchObject({
      status: 404,
      code: 'response_not_found',
    });
    await expect(
      gateway.client.responses.create({ model: 'helper', input: 'y', previous_response_id: response.id }),
    ).rejects.toMatchObject({ status: 404, code: 'previous_response_not_found', param: 'previous_response_id' });
  });

  it('deletes a stored response', async () => {
    const response = await gateway.client.responses.create({ model: 'helper', input: 'x' });
    await gateway.client.responses.delete(response.id);
    await expect(gateway.client.responses.retrieve(response.id)).rejects.toMatchObject({ status: 404 });
    await expect(gateway.client.responses.delete(response.id)).rejects.toMatchObject({ status: 404 });
  });

  it('refuses to continue a response of another agent (409)', async () => {
    const response = await gateway.client.responses.create({ model: 'helper', input: 'x' });
    await expect(
      gateway.client.responses.create({ model: 'other', input: 'y', previous_response_id: response.id }),
    ).rejects.toMatchObject({ status: 409, code: 'previous_response_agent_mismatch' });
  });

  it('answers an unknown agent with 404 model_not_found', async () => {
    await expect(gateway.client.responses.create({ model: 'nobody', input: 'x' })).rejects.toMatchObject({
      status: 404,
      code: 'model_not_found',
    });
  });

  it.each([
    ['background', { background: true }],
    ['top_logprobs', { top_logprobs: 3 }],
    ['reasoning', { reasoning: { effort: 'low' } }],
    ['conversation', { conversation: 'conv_1' }],
    ['include', { include: ['message.output_text.logprobs'] }],
    ['truncation', { truncation: 'auto' }],
    ['prompt', { prompt: { id: 'pmpt_1' } }],
  ])('refuses %s with a 400 that names it', async (field, extra) => {
    const response = await fetch(`${gateway.app.url}/v1/responses`, {
      method: 'POST',
      headers: authHeaders,
      body: JSON.stringify({ model: 'helper', input: 'x', ...extra }),
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { param: string; message: string } };
    expect(body.error.param).toBe(field);
    expect(body.error.message).toContain(field);
    expect(gateway.upstream.chatRequests()).toHaveLength(0);
  });

  it('refuses an input part it cannot pass on, naming it', async () => {
    const response = await fetch(`${gateway.app.url}/v1/responses`, {
      method: 'POST',
      headers: authHeaders,
      body: JSON.stringify({
        model: 'helper',
        input: [{ role: 'user', content: [{ type: 'input_file', file_id: 'file-1' }] }],
      }),
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { param: string; message: string } };
    expect(body.error.param).toBe('input');
    expect(body.error.message).toContain('[0].content[0].type: content part type "input_file" is not supported');
  });
});

describe('responses belong to their caller', () => {
  let gateway: GatewayHarness;
  beforeAll(async () => {
    gateway = await startGateway();
  });
  afterAll(() => gateway.stop());

  const createToken = async () => {
    const response = await fetch(`${gateway.app.url}/gateway/tokens`, {
      method: 'POST',
      headers: authHeaders,
      body: JSON.stringify({ agent_name: 'helper', scopes: ['chat'] }),
    });
    return ((await response.json()) as { token: string }).token;
  };

  it("answers 404 to another principal retrieving, continuing or deleting a response, and the upstream never sees the owner's turn", async () => {
    const owner = gateway.clientWith(await createToken());
    const stranger = gateway.clientWith(await createToken());
    gateway.upstream.enqueue({ kind: 'text', text: 'Noted.' });
    const mine = await owner.responses.create({ model: 'helper', input: 'my secret is 1234' });
    gateway.upstream.requests.length = 0;

    await expect(stranger.responses.retrieve(mine.id)).rejects.toMatchObject({ status: 404 });
    await expect(gateway.client.responses.retrieve(mine.id)).rejects.toMatchObject({ status: 404 });
    await expect(
      stranger.responses.create({ model: 'helper', input: 'what was the secret?', previous_response_id: mine.id }),
    ).rejects.toMatchObject({ status: 404, code: 'previous_response_not_found' });
    await expect(stranger.responses.delete(mine.id)).rejects.toMatchObject({ status: 404 });
    expect(gateway.upstream.chatRequests()).toHaveLength(0);
    expect((await owner.responses.retrieve(mine.id)).output_text).toBe('Noted.');
  });

  it('keeps an access token to its own agent', async () => {
    const client = gateway.clientWith(await createToken());
    await expect(client.responses.create({ model: 'other', input: 'x' })).rejects.toBeInstanceOf(
      OpenAI.PermissionDeniedError,
    );
  });
});
