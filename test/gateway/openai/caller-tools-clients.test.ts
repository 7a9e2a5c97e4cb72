import { createOpenAI } from '@ai-sdk/openai';
import { ChatOpenAI } from '@langchain/openai';
import { generateText, stepCountIs, tool } from 'ai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TEST_API_KEY } from '../../support/app.js';
import { authHeaders, startGateway, type GatewayHarness } from './openai-harness.js';

const orderParameters: Record<string, unknown> = {
  type: 'object',
  properties: { order_id: { type: 'string' } },
  required: ['order_id'],
};

const lastMessage = (request: { body: { messages: { role: string; content: string }[] } }) =>
  request.body.messages.at(-1);

describe("the caller's tools through the official clients, with only the base URL changed", () => {
  let gateway: GatewayHarness;
  beforeAll(async () => {
    gateway = await startGateway();
  });
  afterAll(() => gateway.stop());
  beforeEach(() => {
    gateway.upstream.requests.length = 0;
  });

  it('openai runTools runs the caller tool and finishes the two-step conversation', async () => {
    gateway.upstream.enqueue(
      { kind: 'tool_calls', calls: [{ name: 'lookup_order', arguments: { order_id: 'A-1' }, id: 'call_a1' }] },
      { kind: 'text', text: 'A-1 is packed.' },
    );
    const seen: unknown[] = [];
    const runner = gateway.client.chat.completions.runTools({
      model: 'helper',
      messages: [{ role: 'user', content: 'Where is A-1?' }],
      tools: [
        {
          type: 'function',
          function: {
            name: 'lookup_order',
            description: 'Finds an order',
            parameters: orderParameters,
            parse: JSON.parse,
            function: (args: { order_id: string }) => {
              seen.push(args);
              return { status: 'packed' };
            },
          },
        },
      ],
    });
    expect(await runner.finalContent()).toBe('A-1 is packed.');
    expect(seen).toEqual([{ order_id: 'A-1' }]);
    const [first, second] = gateway.upstream.chatRequests();
    expect(first.body.tools.map((entry: { function: { name: string } }) => entry.function.name)).toEqual([
      'lookup_order',
    ]);
    expect(lastMessage(second)).toMatchObject({
      role: 'tool',
      tool_call_id: 'call_a1',
      content: '{"status":"packed"}',
    });
  });

  it('the AI SDK generateText with tools on createOpenAI({baseURL}).chat() executes the caller tool and answers', async () => {
    gateway.upstream.enqueue(
      { kind: 'tool_calls', calls: [{ name: 'lookup_order', arguments: { order_id: 'B-2' }, id: 'call_b2' }] },
      { kind: 'text', text: 'B-2 was delivered.' },
    );
    const provider = createOpenAI({ baseURL: `${gateway.app.url}/v1`, apiKey: TEST_API_KEY });
    const result = await generateText({
      model: provider.chat('helper'),
      prompt: 'And B-2?',
      tools: {
        lookup_order: tool({
          description: 'Finds an order',
          inputSchema: z.object({ order_id: z.string() }),
          execute: async ({ order_id }) => `${order_id}: delivered`,
        }),
      },
      stopWhen: stepCountIs(2),
      maxRetries: 0,
    });
    expect(result.text).toBe('B-2 was delivered.');
    expect(result.steps[0].toolCalls.map((call) => [call.toolName, call.input])).toEqual([
      ['lookup_order', { order_id: 'B-2' }],
    ]);
    const [first, second] = gateway.upstream.chatRequests();
    expect(first.body.tool_choice).toBe('auto');
    expect(first.body.tools[0].function).toMatchObject({ name: 'lookup_order', description: 'Finds an order' });
    expect(lastMessage(second)).toMatchObject({ role: 'tool', tool_call_id: 'call_b2', content: 'B-2: delivered' });
  });

  it('LangChain bindTools gets the tool call back as an AIMessage tool_calls', async () => {
    gateway.upstream.enqueue({
      kind: 'tool_calls',
      calls: [{ name: 'lookup_order', arguments: { order_id: 'C-3' }, id: 'call_c3' }],
    });
    const model = new ChatOpenAI({
      model: 'helper',
      apiKey: TEST_API_KEY,
      configuration: { baseURL: `${gateway.app.url}/v1` },
      maxRetries: 0,
    }).bindTools(
      [
        {
          type: 'function',
          function: { name: 'lookup_order', description: 'Finds an order', parameters: orderParameters },
        },
      ],
      { tool_choice: 'lookup_order', parallel_tool_calls: false },
    );
    const message = await model.invoke('C-3?');
    expect(message.tool_calls).toEqual([
      { name: 'lookup_order', args: { order_id: 'C-3' }, id: 'call_c3', type: 'tool_call' },
    ]);
    const [sent] = gateway.upstream.chatRequests();
    expect(sent.body.tool_choice).toEqual({ type: 'function', function: { name: 'lookup_order' } });
    expect(sent.body.parallel_tool_calls).toBe(false);
  });

  it('works the same through an access token (sat-)', async () => {
    const created = await fetch(`${gateway.app.url}/gateway/tokens`, {
      method: 'POST',
      headers: authHeaders,
      body: JSON.stringify({ agent_name: 'helper', scopes: ['chat'] }),
    });
    const { token } = (await created.json()) as { token: string };
    expect(token).toMatch(/^sat-/);
    gateway.upstream.enqueue({
      kind: 'tool_calls',
      calls: [{ name: 'lookup_order', arguments: { order_id: 'D-4' }, id: 'call_d4' }],
    });
    const completion = await gateway.clientWith(token).chat.completions.create({
      model: 'helper',
      messages: [{ role: 'user', content: 'D-4?' }],
      tools: [{ type: 'function', function: { name: 'lookup_order', parameters: orderParameters } }],
    });
    expect(completion.choices[0].finish_reason).toBe('tool_calls');
    expect(completion.choices[0].message.tool_calls?.[0]).toMatchObject({ id: 'call_d4', type: 'function' });
  });
});
