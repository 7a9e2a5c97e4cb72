import { zodResponseFormat } from 'openai/helpers/zod';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ModelPromptLog } from '../../../../src/agents/index.js';
import { startGateway, type GatewayHarness } from '../openai-harness.js';

const Person = z.object({ name: z.string(), age: z.number() });

describe('chat completions: structured output and sampling options (openai client, openai-compatible upstream)', () => {
  let gateway: GatewayHarness;
  beforeAll(async () => {
    gateway = await startGateway();
  });
  afterAll(() => gateway.stop());
  beforeEach(() => {
    gateway.upstream.requests.length = 0;
  });

  it('parse() with a zod schema: the upstream gets the strict json_schema, the client the parsed object', async () => {
    gateway.upstream.enqueue({ kind: 'text', text: '{"name":"Ada","age":36}' });
    const completion = await gateway.client.chat.completions.parse({
      model: 'helper',
      messages: [{ role: 'user', content: 'Who wrote the first program?' }],
      response_format: zodResponseFormat(Person, 'person'),
    });
    expect(completion.choices[0].message.parsed).toEqual({ name: 'Ada', age: 36 });
    const [sent] = gateway.upstream.chatRequests();
    expect(sent.body.response_format).toMatchObject({
      type: 'json_schema',
      json_schema: {
        name: 'person',
        strict: true,
        schema: { type: 'object', properties: { name: { type: 'string' }, age: { type: 'number' } } },
      },
    });
  });

  it('passes json_object and every sampling option to the upstream, and keeps them in the prompt log', async () => {
    gateway.upstream.enqueue({ kind: 'text', text: '{"ok":true}' });
    const { data, response } = await gateway.client.chat.completions
      .create({
        model: 'helper',
        messages: [{ role: 'user', content: 'JSON please' }],
        response_format: { type: 'json_object' },
        top_p: 0.5,
        stop: 'END',
        seed: 42,
        presence_penalty: 0.25,
        frequency_penalty: -0.5,
        logit_bias: { '50256': -100 },
        reasoning_effort: 'low',
        max_completion_tokens: 64,
        n: 1,
        store: false,
        service_tier: 'auto',
      })
      .withResponse();
    expect(data.choices[0].message.content).toBe('{"ok":true}');
    const [sent] = gateway.upstream.chatRequests();
    expect(sent.body).toMatchObject({
      response_format: { type: 'json_object' },
      top_p: 0.5,
      stop: ['END'],
      seed: 42,
      presence_penalty: 0.25,
      frequency_penalty: -0.5,
      logit_bias: { '50256': -100 },
      reasoning_effort: 'low',
      max_tokens: 64,
    });
    // No-op values of refused-otherwise fields are not forwarded.
    expect(sent.body).not.toHaveProperty('store');
    expect(sent.body).not.toHaveProperty('service_tier');
    const stored = await gateway.app.runs.find(response.headers.get('x-run-id')!);
    expect((stored?.steps[0].prompt_log as ModelPromptLog).call_options).toMatchObject({ topP: 0.5, seed: 42 });
  });

  it('streams with options: the upstream gets them on the streamed call', async () => {
    gateway.upstream.enqueue({ kind: 'text', text: '{"a":1}' });
    const stream = await gateway.client.chat.completions.create({
      model: 'helper',
      messages: [{ role: 'user', content: 'x' }],
      stream: true,
      stop: ['\n\n', 'STOP'],
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'thing', schema: { type: 'object', properties: { a: { type: 'number' } } } },
      },
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe('{"a":1}');
    const [sent] = gateway.upstream.chatRequests();
    expect(sent.body.stop).toEqual(['\n\n', 'STOP']);
    // strict left unset stays unset: OpenAI's default (false) applies.
    expect(sent.body.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'thing', schema: { type: 'object', properties: { a: { type: 'number' } } } },
    });
  });

  it('sends no option fields on a plain request', async () => {
    await gateway.client.chat.completions.create({ model: 'helper', messages: [{ role: 'user', content: 'hi' }] });
    const [sent] = gateway.upstream.chatRequests();
    for (const field of ['top_p', 'stop', 'seed', 'response_format', 'logit_bias', 'presence_penalty'])
      expect(sent.body).not.toHaveProperty(field);
  });
});
