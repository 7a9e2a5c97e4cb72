import { describe, expect, it } from 'vitest';
import { createModelClient, type ModelStreamPart } from '../../src/llm/index.js';
import { collect, recordingLogger } from './model-client-fixtures.js';

const TIME_TOOL = {
  name: 'get_current_time',
  description: 'Current time',
  parameters: { type: 'object' as const, properties: { timezone: { type: 'string' } } },
};

function devClient() {
  const logger = recordingLogger();
  const client = createModelClient({
    providers: { local: { type: 'dev' } },
    logger,
    fetch: () => Promise.reject(new Error('the dev model must not use the network')),
  });
  return { client, logger };
}

const deltas = (parts: ModelStreamPart[]) => parts.flatMap((part) => (part.type === 'text-delta' ? [part.delta] : []));

describe('the offline development model', () => {
  it('warns once, at construction, that it is not a real LLM', () => {
    const { client, logger } = devClient();
    expect(logger.warnings).toHaveLength(1);
    expect(logger.warnings[0].msg).toMatch(/development model.*not a real LLM/);
    expect(client.describe('local/echo')).toEqual({ provider: 'local', modelId: 'echo', providerType: 'dev' });
  });

  it('echoes the last user message in word chunks, with estimated usage', async () => {
    const { client } = devClient();
    const parts = await collect(
      client.stream({
        model: 'local/echo',
        messages: [
          { role: 'user', content: 'first' },
          { role: 'assistant', content: 'You said: first' },
          { role: 'user', content: 'how are you today?' },
        ],
      }),
    );
    expect(deltas(parts)).toEqual(['You', ' said:', ' how', ' are', ' you', ' today?']);
    const end = parts.at(-1);
    expect(end).toMatchObject({
      type: 'end',
      finishReason: 'stop',
      text: 'You said: how are you today?',
      toolCalls: [],
    });
    expect(end?.type === 'end' && end.usage).toMatchObject({
      estimated: true,
      outputTokens: expect.any(Number),
      inputTokens: expect.any(Number),
    });
  });

  it('calls a tool on /tool <name> <json args>, then reports the tool result', async () => {
    const { client } = devClient();
    const ask = { role: 'user' as const, content: 'Please /tool get_current_time {"timezone":"UTC"}' };
    const first = await client.generate({ model: 'local/echo', messages: [ask], tools: [TIME_TOOL] });
    expect(first.finishReason).toBe('tool_calls');
    expect(first.toolCalls).toEqual([{ id: 'call_dev_1', name: 'get_current_time', arguments: '{"timezone":"UTC"}' }]);
    expect(first.usage.estimated).toBe(true);

    const history = [
      ask,
      { role: 'assistant' as const, content: '', tool_calls: first.toolCalls },
      { role: 'tool' as const, tool_call_id: 'call_dev_1', name: 'get_current_time', content: '2026-01-01T00:00:00Z' },
    ];
    const parts = await collect(client.stream({ model: 'local/echo', messages: history, tools: [TIME_TOOL] }));
    expect(parts.at(-1)).toMatchObject({
      type: 'end',
      finishReason: 'stop',
      text: 'Tool get_current_time returned: 2026-01-01T00:00:00Z',
    });
  });

  it('streams several tool calls, one per /tool line, with ids that continue the conversation', async () => {
    const { client } = devClient();
    const messages = [
      { role: 'user' as const, content: 'earlier' },
      {
        role: 'assistant' as const,
        content: '',
        tool_calls: [{ id: 'call_dev_1', name: 'get_current_time', arguments: '{}' }],
      },
      { role: 'tool' as const, tool_call_id: 'call_dev_1', name: 'get_current_time', content: 'noon' },
      { role: 'user' as const, content: '/tool get_current_time {"timezone":"UTC"}\n/tool get_current_time' },
    ];
    const parts = await collect(client.stream({ model: 'local/echo', messages, tools: [TIME_TOOL] }));
    expect(
      parts.filter((part) => part.type === 'tool-call').map((part) => part.type === 'tool-call' && part.toolCall),
    ).toEqual([
      { id: 'call_dev_2', name: 'get_current_time', arguments: '{"timezone":"UTC"}' },
      { id: 'call_dev_3', name: 'get_current_time', arguments: '{}' },
    ]);
    expect(parts.at(-1)).toMatchObject({ type: 'end', finishReason: 'tool_calls' });
  });

  it('answers in text when the tool is not offered or the arguments are not a JSON object', async () => {
    const { client } = devClient();
    const unknown = await client.generate({
      model: 'local/echo',
      messages: [{ role: 'user', content: '/tool delete_everything {}' }],
      tools: [TIME_TOOL],
    });
    expect(unknown).toMatchObject({
      finishReason: 'stop',
      text: 'Tool delete_everything is not available. Available tools: get_current_time.',
    });
    const invalid = await client.generate({
      model: 'local/echo',
      messages: [{ role: 'user', content: '/tool get_current_time {oops' }],
      tools: [TIME_TOOL],
    });
    expect(invalid.text).toMatch(/^Cannot call a tool: arguments for get_current_time are not valid JSON/);
  });

  it('is deterministic', async () => {
    const { client } = devClient();
    const request = { model: 'local/echo', messages: [{ role: 'user' as const, content: 'same input' }] };
    expect(await collect(client.stream(request))).toEqual(await collect(client.stream(request)));
  });
});
