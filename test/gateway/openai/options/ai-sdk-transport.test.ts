import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startGateway, type GatewayHarness } from '../openai-harness.js';

// `sdk` is an `openai` provider: the gateway calls it through the AI SDK, which maps the options itself.
const yaml = `
auth:
  api_keys: ["\${TEST_API_KEY}"]
providers:
  sdk: { type: openai, api_key: sk-test, base_url: "\${UPSTREAM_URL}", max_retries: 0 }
agents:
  - name: helper
    model: sdk/gpt-4o-mini
`;

describe('chat completion options through the AI SDK transport (an openai provider)', () => {
  let gateway: GatewayHarness;
  beforeAll(async () => {
    gateway = await startGateway({ yaml });
  });
  afterAll(() => gateway.stop());
  beforeEach(() => {
    gateway.upstream.requests.length = 0;
  });

  it('maps response_format (strict as sent) and the sampling options to what OpenAI receives', async () => {
    gateway.upstream.enqueue({ kind: 'text', text: '{"a":1}' });
    const completion = await gateway.client.chat.completions.create({
      model: 'helper',
      messages: [{ role: 'user', content: 'x' }],
      response_format: {
        type: 'json_schema',
        json_schema: {
          name: 'thing',
          strict: false,
          schema: { type: 'object', properties: { a: { type: 'number' } } },
        },
      },
      top_p: 0.3,
      stop: ['END'],
      seed: 7,
      presence_penalty: 0.5,
      frequency_penalty: 0.25,
      logit_bias: { '42': 10 },
      reasoning_effort: 'low',
    });
    expect(completion.choices[0].message.content).toBe('{"a":1}');
    const [sent] = gateway.upstream.chatRequests();
    expect(sent.body).toMatchObject({
      model: 'gpt-4o-mini',
      top_p: 0.3,
      stop: ['END'],
      seed: 7,
      presence_penalty: 0.5,
      frequency_penalty: 0.25,
      logit_bias: { '42': 10 },
      response_format: { type: 'json_schema', json_schema: { name: 'thing', strict: false } },
    });
    expect(sent.body.response_format.json_schema.schema).toMatchObject({ properties: { a: { type: 'number' } } });
  });

  it('maps json_object to JSON mode', async () => {
    gateway.upstream.enqueue({ kind: 'text', text: '{}' });
    await gateway.client.chat.completions.create({
      model: 'helper',
      messages: [{ role: 'user', content: 'x' }],
      response_format: { type: 'json_object' },
    });
    expect(gateway.upstream.chatRequests()[0].body.response_format).toEqual({ type: 'json_object' });
  });
});
