import { createOpenAI } from '@ai-sdk/openai';
import { ChatOpenAI } from '@langchain/openai';
import { generateObject } from 'ai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TEST_API_KEY } from '../../../support/app.js';
import { startGateway, type GatewayHarness } from '../openai-harness.js';

const Recipe = z.object({ title: z.string(), minutes: z.number() });
const ANSWER = '{"title":"Pancakes","minutes":20}';

describe('structured output through the frameworks, with only the base URL changed', () => {
  let gateway: GatewayHarness;
  beforeAll(async () => {
    gateway = await startGateway();
  });
  afterAll(() => gateway.stop());
  beforeEach(() => {
    gateway.upstream.requests.length = 0;
  });

  it('the AI SDK: generateObject on createOpenAI({baseURL}).chat() gets its object; the upstream got the schema', async () => {
    gateway.upstream.enqueue({ kind: 'text', text: ANSWER });
    const provider = createOpenAI({ baseURL: `${gateway.app.url}/v1`, apiKey: TEST_API_KEY });
    const { object } = await generateObject({
      model: provider.chat('helper'),
      schema: Recipe,
      prompt: 'A quick breakfast',
      maxRetries: 0,
    });
    expect(object).toEqual({ title: 'Pancakes', minutes: 20 });
    const [sent] = gateway.upstream.chatRequests();
    expect(sent.body.response_format).toMatchObject({
      type: 'json_schema',
      json_schema: { name: 'response', strict: true, schema: { properties: { title: { type: 'string' } } } },
    });
    expect(gateway.upstream.chatRequests()).toHaveLength(1);
  });

  it.each(['jsonSchema', 'jsonMode'] as const)(
    'LangChain: withStructuredOutput (method %s) parses the answer in one call',
    async (method) => {
      gateway.upstream.enqueue({ kind: 'text', text: ANSWER });
      const model = new ChatOpenAI({
        model: 'helper',
        apiKey: TEST_API_KEY,
        configuration: { baseURL: `${gateway.app.url}/v1` },
        maxRetries: 0,
      });
      const structured = model.withStructuredOutput(Recipe, { method, name: 'recipe' });
      expect(await structured.invoke('A quick breakfast, as JSON')).toEqual({ title: 'Pancakes', minutes: 20 });
      const sent = gateway.upstream.chatRequests();
      expect(sent).toHaveLength(1);
      expect(sent[0].body.response_format.type).toBe(method === 'jsonSchema' ? 'json_schema' : 'json_object');
    },
  );
});
