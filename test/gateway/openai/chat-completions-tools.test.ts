import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ToolPromptLog } from '../../../src/agents/index.js';
import { startGateway, type GatewayHarness } from './openai-harness.js';

describe('chat completions with agent tools', () => {
  let gateway: GatewayHarness;
  beforeAll(async () => {
    gateway = await startGateway();
  });
  afterAll(() => gateway.stop());
  beforeEach(() => {
    gateway.upstream.requests.length = 0;
  });

  it('runs a tool call, feeds the result back and returns only the final answer', async () => {
    gateway.upstream.enqueue(
      {
        kind: 'tool_calls',
        calls: [{ name: 'get_current_time', arguments: { timezone: 'Europe/Paris' }, id: 'call_1' }],
        usage: { prompt_tokens: 30, completion_tokens: 8 },
      },
      { kind: 'text', text: 'It is noon in Paris.', usage: { prompt_tokens: 60, completion_tokens: 6 } },
    );
    const { data: completion, response } = await gateway.client.chat.completions
      .create({ model: 'timekeeper', messages: [{ role: 'user', content: 'Time in Paris?' }] })
      .withResponse();
    expect(completion.choices[0].message.content).toBe('It is noon in Paris.');
    expect(completion.choices[0].message.tool_calls).toBeUndefined();
    expect(completion.choices[0].finish_reason).toBe('stop');
    expect(completion.usage).toEqual({ prompt_tokens: 90, completion_tokens: 14, total_tokens: 104 });

    const [first, second] = gateway.upstream.chatRequests();
    expect(first.body.tools.map((tool: { function: { name: string } }) => tool.function.name)).toEqual([
      'get_current_time',
    ]);
    const toolMessage = second.body.messages.find((message: { role: string }) => message.role === 'tool');
    expect(toolMessage.tool_call_id).toBe('call_1');
    expect(JSON.parse(toolMessage.content)).toMatchObject({ timezone: 'Europe/Paris' });
    const assistant = second.body.messages.find((message: { role: string }) => message.role === 'assistant');
    expect(assistant.tool_calls[0]).toMatchObject({ id: 'call_1', function: { name: 'get_current_time' } });

    const stored = await gateway.app.runs.find(response.headers.get('x-run-id')!);
    expect(stored?.steps.map((step) => `${step.kind}:${step.name}:${step.status}`)).toEqual([
      'model:upstream/test-model:completed',
      'tool:get_current_time:completed',
      'model:upstream/test-model:completed',
    ]);
    expect((stored?.steps[1].prompt_log as ToolPromptLog).arguments).toBe('{"timezone":"Europe/Paris"}');
  });

  it('runs parallel tool calls and streams only the final text', async () => {
    gateway.upstream.enqueue(
      {
        kind: 'tool_calls',
        calls: [
          { name: 'get_current_time', arguments: { timezone: 'Asia/Tokyo' }, id: 'call_tokyo' },
          { name: 'get_current_time', arguments: { timezone: 'Not/AZone' }, id: 'call_bad' },
        ],
      },
      { kind: 'text', text: 'Tokyo is ahead.' },
    );
    const stream = await gateway.client.chat.completions.create({
      model: 'timekeeper',
      messages: [{ role: 'user', content: 'Tokyo?' }],
      stream: true,
    });
    let text = '';
    for await (const chunk of stream) {
      expect(chunk.choices[0]?.delta.tool_calls).toBeUndefined();
      text += chunk.choices[0]?.delta.content ?? '';
    }
    expect(text).toBe('Tokyo is ahead.');
    const second = gateway.upstream.chatRequests()[1].body.messages;
    const results = second.filter((message: { role: string }) => message.role === 'tool');
    expect(results.map((message: { tool_call_id: string }) => message.tool_call_id).sort()).toEqual([
      'call_bad',
      'call_tokyo',
    ]);
    const bad = results.find((message: { tool_call_id: string }) => message.tool_call_id === 'call_bad');
    expect(bad.content).toMatch(/^Error: .*Not\/AZone/);
  });

  it('fails with max_iterations_exceeded when the model keeps calling tools', async () => {
    gateway.upstream.setDefault({ kind: 'tool_calls', calls: [{ name: 'get_current_time', arguments: {} }] });
    try {
      const error = await gateway.client.chat.completions
        .create({ model: 'timekeeper', messages: [{ role: 'user', content: 'loop' }] })
        .catch((caught: unknown) => caught);
      expect(error).toMatchObject({ status: 500, code: 'max_iterations_exceeded', type: 'server_error' });
      expect((error as Error).message).toContain('max_iterations');
      // A run that failed for good must not be rerun by the client's automatic retries.
      expect((error as { headers: Headers }).headers.get('x-should-retry')).toBe('false');
      expect(gateway.upstream.chatRequests()).toHaveLength(3);
    } finally {
      gateway.upstream.setDefault((request) => ({ kind: 'text', text: `echo ${request.body.messages.length}` }));
    }
  });
});
