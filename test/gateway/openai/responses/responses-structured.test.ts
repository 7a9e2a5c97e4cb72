import { createOpenAI } from '@ai-sdk/openai';
import { generateObject } from 'ai';
import { zodTextFormat } from 'openai/helpers/zod';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TEST_API_KEY } from '../../../support/app.js';
import { startGateway, type GatewayHarness } from '../openai-harness.js';

const Person = z.object({ name: z.string(), age: z.number() });

describe('/v1/responses: text.format (structured output) and sampling options', () => {
  let gateway: GatewayHarness;
  beforeAll(async () => {
    gateway = await startGateway();
  });
  afterAll(() => gateway.stop());
  beforeEach(() => {
    gateway.upstream.requests.length = 0;
  });

  it('responses.parse with zodTextFormat: the upstream gets the strict json_schema, the client the parsed object', async () => {
    gateway.upstream.enqueue({ kind: 'text', text: '{"name":"Ada","age":36}' });
    const response = await gateway.client.responses.parse({
      model: 'helper',
      input: 'Who wrote the first program?',
      text: { format: zodTextFormat(Person, 'person') },
      top_p: 0.3,
    });
    expect(response.output_parsed).toEqual({ name: 'Ada', age: 36 });
    expect(response.text?.format).toMatchObject({ type: 'json_schema', name: 'person', strict: true });
    expect(response.top_p).toBe(0.3);
    const [sent] = gateway.upstream.chatRequests();
    expect(sent.body.top_p).toBe(0.3);
    expect(sent.body.response_format).toMatchObject({
      type: 'json_schema',
      json_schema: {
        name: 'person',
        strict: true,
        schema: { type: 'object', properties: { name: { type: 'string' }, age: { type: 'number' } } },
      },
    });
  });

  it('passes json_object on', async () => {
    gateway.upstream.enqueue({ kind: 'text', text: '{"ok":true}' });
    await gateway.client.responses.create({ model: 'helper', input: 'x', text: { format: { type: 'json_object' } } });
    expect(gateway.upstream.chatRequests()[0].body.response_format).toEqual({ type: 'json_object' });
  });

  it("the AI SDK's generateObject on the default model gets its object; the upstream got the schema", async () => {
    gateway.upstream.enqueue({ kind: 'text', text: '{"name":"Ada","age":36}' });
    const openai = createOpenAI({ baseURL: `${gateway.app.url}/v1`, apiKey: TEST_API_KEY });
    const { object } = await generateObject({ model: openai('helper'), schema: Person, prompt: 'Ada?', maxRetries: 0 });
    expect(object).toEqual({ name: 'Ada', age: 36 });
    expect(gateway.upstream.chatRequests()[0].body.response_format).toMatchObject({
      type: 'json_schema',
      json_schema: { schema: { properties: { name: { type: 'string' } } } },
    });
  });
});
