import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ModelPromptLog } from '../../../src/agents/index.js';
import { startGateway, type GatewayHarness } from './openai-harness.js';

/** The same agent twice: behind the lean Chat Completions client and behind the AI SDK's OpenAI provider. */
const yaml = `
auth:
  api_keys: ["\${TEST_API_KEY}"]
providers:
  upstream: { type: openai-compatible, base_url: "\${UPSTREAM_URL}", max_retries: 0 }
  aisdk: { type: openai, base_url: "\${UPSTREAM_URL}", api_key: sk-fake, max_retries: 0 }
agents:
  - name: timekeeper
    model: upstream/test-model
    system_prompt: You tell the time.
    tools: [get_current_time]
    max_iterations: 3
  - name: timekeeper-sdk
    model: aisdk/test-model
    system_prompt: You tell the time.
    tools: [get_current_time]
    max_iterations: 3
`;

const lookupOrder: OpenAI.Chat.ChatCompletionFunctionTool = {
  type: 'function',
  function: {
    name: 'lookup_order',
    description: 'Finds an order in the shop',
    parameters: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
  },
};

const toolNames = (body: { tools?: { function: { name: string } }[] }) =>
  (body.tools ?? []).map((tool) => tool.function.name);

describe("chat completions with the caller's tools", () => {
  let gateway: GatewayHarness;
  beforeAll(async () => {
    gateway = await startGateway({ yaml });
  });
  afterAll(() => gateway.stop());
  beforeEach(() => {
    gateway.upstream.requests.length = 0;
  });

  for (const agent of ['timekeeper', 'timekeeper-sdk']) {
    it(`${agent}: runs its own tool, hands the caller's over with finish_reason tool_calls, then continues on the result`, async () => {
      gateway.upstream.enqueue(
        {
          kind: 'tool_calls',
          calls: [
            { name: 'get_current_time', arguments: { timezone: 'UTC' }, id: 'call_time' },
            { name: 'lookup_order', arguments: { order_id: 'A-17' }, id: 'call_order' },
          ],
        },
        { kind: 'text', text: 'Order A-17 ships today.' },
      );
      const question: OpenAI.Chat.ChatCompletionMessageParam = { role: 'user', content: 'Where is order A-17?' };
      const { data: first, response } = await gateway.client.chat.completions
        .create({
          model: agent,
          messages: [question],
          tools: [lookupOrder],
          tool_choice: 'required',
          parallel_tool_calls: true,
        })
        .withResponse();
      expect(first.choices[0].finish_reason).toBe('tool_calls');
      expect(first.choices[0].message.content).toBeNull();
      expect(first.choices[0].message.tool_calls).toEqual([
        { id: 'call_order', type: 'function', function: { name: 'lookup_order', arguments: '{"order_id":"A-17"}' } },
      ]);

      const [sent] = gateway.upstream.chatRequests();
      expect(toolNames(sent.body)).toEqual(['get_current_time', 'lookup_order']);
      expect(sent.body.tools[1].function.parameters).toEqual(lookupOrder.function.parameters);
      expect(sent.body.tool_choice).toBe('required');
      expect(sent.body.parallel_tool_calls).toBe(true);

      // The agent's own tool ran here; the caller's did not, and the record says who answers it.
      const stored = await gateway.app.runs.find(response.headers.get('x-run-id')!);
      expect(stored?.run.status).toBe('completed');
      expect(stored?.steps.map((step) => `${step.kind}:${step.name}`)).toEqual([
        `model:${agent === 'timekeeper' ? 'upstream' : 'aisdk'}/test-model`,
        'tool:get_current_time',
      ]);
      expect((stored?.steps[0].prompt_log as ModelPromptLog).client_tool_calls).toEqual(['call_order']);

      const second = await gateway.client.chat.completions.create({
        model: agent,
        messages: [
          question,
          first.choices[0].message,
          { role: 'tool', tool_call_id: 'call_order', content: '{"status":"packed"}' },
        ],
        tools: [lookupOrder],
      });
      expect(second.choices[0]).toMatchObject({
        finish_reason: 'stop',
        message: { content: 'Order A-17 ships today.' },
      });
      const next = gateway.upstream.chatRequests()[1].body;
      expect(next.tool_choice).toBe('auto');
      expect(next.messages.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'call_order' });
      expect(next.messages.at(-2).tool_calls[0]).toMatchObject({
        id: 'call_order',
        function: { name: 'lookup_order' },
      });
    });
  }

  it('applies a named tool_choice to the first model call only, and parallel_tool_calls to every call', async () => {
    gateway.upstream.enqueue(
      { kind: 'tool_calls', calls: [{ name: 'get_current_time', arguments: { timezone: 'UTC' }, id: 'call_t' }] },
      { kind: 'text', text: 'Noon.' },
    );
    const completion = await gateway.client.chat.completions.create({
      model: 'timekeeper',
      messages: [{ role: 'user', content: 'Time?' }],
      tools: [lookupOrder],
      tool_choice: { type: 'function', function: { name: 'get_current_time' } },
      parallel_tool_calls: false,
    });
    expect(completion.choices[0].message.content).toBe('Noon.');
    const [first, second] = gateway.upstream.chatRequests().map((request) => request.body);
    expect(first.tool_choice).toEqual({ type: 'function', function: { name: 'get_current_time' } });
    expect(second.tool_choice).toBe('auto');
    expect([first.parallel_tool_calls, second.parallel_tool_calls]).toEqual([false, false]);
  });

  it('continues from only the tool results when the caller sends X-Session-Id', async () => {
    gateway.upstream.enqueue(
      { kind: 'tool_calls', calls: [{ name: 'lookup_order', arguments: { order_id: 'B-2' }, id: 'call_b2' }] },
      { kind: 'text', text: 'B-2 was delivered.' },
    );
    const { data: first, response } = await gateway.client.chat.completions
      .create({ model: 'timekeeper', messages: [{ role: 'user', content: 'And B-2?' }], tools: [lookupOrder] })
      .withResponse();
    expect(first.choices[0].finish_reason).toBe('tool_calls');
    const sessionId = response.headers.get('x-session-id')!;
    const second = await gateway.client.chat.completions.create(
      {
        model: 'timekeeper',
        messages: [{ role: 'tool', tool_call_id: 'call_b2', content: 'delivered' }],
        tools: [lookupOrder],
      },
      { headers: { 'x-session-id': sessionId } },
    );
    expect(second.choices[0].message.content).toBe('B-2 was delivered.');
    const sent = gateway.upstream.chatRequests()[1].body.messages;
    expect(sent.map((message: { role: string }) => message.role)).toEqual(['system', 'user', 'assistant', 'tool']);
    expect(sent[2].tool_calls[0]).toMatchObject({ id: 'call_b2', function: { name: 'lookup_order' } });
    expect(sent[3]).toMatchObject({ tool_call_id: 'call_b2', content: 'delivered' });
  });

  it('streams the caller tool calls as delta.tool_calls pieces, then finish_reason tool_calls and [DONE]', async () => {
    gateway.upstream.enqueue({
      kind: 'tool_calls',
      calls: [
        { name: 'lookup_order', arguments: { order_id: 'C-1' }, id: 'call_c1' },
        { name: 'lookup_order', arguments: { order_id: 'C-2' }, id: 'call_c2' },
      ],
    });
    const stream = await gateway.client.chat.completions.create({
      model: 'timekeeper',
      messages: [{ role: 'user', content: 'C-1 and C-2?' }],
      tools: [lookupOrder],
      stream: true,
    });
    const pieces: OpenAI.Chat.ChatCompletionChunk.Choice.Delta.ToolCall[] = [];
    const reasons: (string | null)[] = [];
    for await (const chunk of stream) {
      pieces.push(...(chunk.choices[0]?.delta.tool_calls ?? []));
      reasons.push(chunk.choices[0]?.finish_reason ?? null);
    }
    expect(reasons.at(-1)).toBe('tool_calls');
    expect(pieces.filter((piece) => piece.id).map((piece) => [piece.index, piece.id, piece.function?.name])).toEqual([
      [0, 'call_c1', 'lookup_order'],
      [1, 'call_c2', 'lookup_order'],
    ]);
    const argumentsOf = (index: number) =>
      pieces
        .filter((piece) => piece.index === index)
        .map((piece) => piece.function?.arguments ?? '')
        .join('');
    expect([argumentsOf(0), argumentsOf(1)]).toEqual(['{"order_id":"C-1"}', '{"order_id":"C-2"}']);

    // The stream helper puts the pieces back together as OpenAI's own stream would be.
    gateway.upstream.enqueue({ kind: 'tool_calls', calls: [{ name: 'lookup_order', arguments: { order_id: 'D' } }] });
    const final = await gateway.client.chat.completions
      .stream({ model: 'timekeeper', messages: [{ role: 'user', content: 'D?' }], tools: [lookupOrder] })
      .finalChatCompletion();
    expect(final.choices[0].finish_reason).toBe('tool_calls');
    expect(final.choices[0].message.tool_calls?.[0]).toMatchObject({
      type: 'function',
      function: { name: 'lookup_order', arguments: '{"order_id":"D"}' },
    });
  });

  it("refuses a caller tool named like one of the agent's tools, naming both", async () => {
    const error = await gateway.client.chat.completions
      .create({
        model: 'timekeeper',
        messages: [{ role: 'user', content: 'hi' }],
        tools: [lookupOrder, { type: 'function', function: { name: 'get_current_time', parameters: {} } }],
      })
      .then(
        () => expect.unreachable('answered 200'),
        (caught: unknown) => caught as InstanceType<typeof OpenAI.APIError>,
      );
    expect(error.status).toBe(400);
    expect(error.error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_request', param: 'tools.1' });
    expect(error.message).toMatch(/caller's tool "get_current_time".*agent timekeeper's own tool "get_current_time"/);
    expect(gateway.upstream.chatRequests()).toHaveLength(0);
  });

  it('refuses a tool_choice that names no tool, and tools that are not functions, by name', async () => {
    const refusal = (body: object) =>
      gateway.client.chat.completions
        .create({ model: 'timekeeper', messages: [{ role: 'user', content: 'hi' }], ...body })
        .then(
          () => expect.unreachable('answered 200'),
          (caught: unknown) => caught as InstanceType<typeof OpenAI.APIError>,
        );
    const unnamed = await refusal({ tool_choice: { type: 'function', function: { name: 'nope' } } });
    expect([unnamed.status, unnamed.message]).toEqual([
      400,
      expect.stringMatching(/tool_choice: no tool named "nope"/),
    ]);
    const custom = await refusal({ tools: [{ type: 'custom', custom: { name: 'grammar' } }] });
    expect([custom.status, custom.message]).toEqual([400, expect.stringMatching(/tools\.0\.type/)]);
    const legacy = await refusal({ functions: [{ name: 'f', parameters: {} }] });
    expect([legacy.status, legacy.message]).toEqual([400, expect.stringMatching(/functions.*use `tools`/)]);
    expect(gateway.upstream.chatRequests()).toHaveLength(0);
  });
});
