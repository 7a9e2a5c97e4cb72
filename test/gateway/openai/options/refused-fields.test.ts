import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startGateway, type GatewayHarness } from '../openai-harness.js';

// `helper` talks to an openai-compatible upstream; `poet` to an Anthropic provider (never reached here).
const yaml = `
auth:
  api_keys: ["\${TEST_API_KEY}"]
providers:
  upstream: { type: openai-compatible, base_url: "\${UPSTREAM_URL}", max_retries: 0 }
  claude: { type: anthropic, api_key: sk-ant-test, base_url: "\${UPSTREAM_URL}", max_retries: 0 }
agents:
  - name: helper
    model: upstream/test-model
  - name: poet
    model: claude/claude-sonnet-4-5
`;

async function refusal(promise: Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(OpenAI.APIError);
  return error as InstanceType<typeof OpenAI.APIError>;
}

describe('chat completions: fields the gateway cannot honour are refused by name', () => {
  let gateway: GatewayHarness;
  beforeAll(async () => {
    gateway = await startGateway({ yaml });
  });
  afterAll(() => gateway.stop());
  beforeEach(() => {
    gateway.upstream.requests.length = 0;
  });

  const messages = [{ role: 'user' as const, content: 'hi' }];

  it.each([
    ['n', { n: 2 }, /n above 1 is not supported/],
    ['audio', { audio: { voice: 'alloy', format: 'wav' } }, /audio output/],
    ['modalities.1', { modalities: ['text', 'audio'] }, /only \["text"\]/],
    ['prediction', { prediction: { type: 'content', content: 'x' } }, /predicted outputs/],
    ['web_search_options', { web_search_options: {} }, /web search/],
    ['functions', { functions: [{ name: 'f', parameters: {} }] }, /use `tools`/],
    ['store', { store: true }, /only false/],
    ['metadata', { metadata: { k: 'v' } }, /stored completions/],
    ['service_tier', { service_tier: 'flex' }, /only auto or default/],
  ])('refuses %s with a 400 naming it, before any model call', async (field, extra, message) => {
    const error = await refusal(
      gateway.client.chat.completions.create({ model: 'helper', messages, ...extra } as never),
    );
    expect(error.status).toBe(400);
    expect(error.param).toBe(field);
    expect(error.message).toMatch(message);
    expect(gateway.upstream.chatRequests()).toHaveLength(0);
  });

  it('ignores a field OpenAI does not define', async () => {
    const completion = await gateway.client.chat.completions.create({
      model: 'helper',
      messages,
      not_an_openai_field: { anything: true },
    } as never);
    expect(completion.choices[0].message.content).toBe('echo: hi');
    expect(gateway.upstream.chatRequests()[0].body).not.toHaveProperty('not_an_openai_field');
  });

  it.each([
    ['seed', { seed: 1 }],
    ['presence_penalty', { presence_penalty: 1 }],
    ['logit_bias', { logit_bias: { '1': 5 } }],
    ['response_format', { response_format: { type: 'json_object' } }],
  ])(
    'refuses %s for an agent whose provider cannot take it (Anthropic), without starting a run',
    async (field, extra) => {
      const error = await refusal(
        gateway.client.chat.completions.create({ model: 'poet', messages, ...extra } as never).withResponse(),
      );
      expect(error.status).toBe(400);
      expect(error.param).toBe(field);
      expect(error.message).toContain('provider "claude" (type anthropic)');
      expect(error.headers?.get('x-run-id')).toBeNull();
      expect(gateway.upstream.requests).toHaveLength(0);
    },
  );
});
