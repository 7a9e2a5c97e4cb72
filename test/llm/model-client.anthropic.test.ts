import { describe, expect, it } from 'vitest';
import { createModelClient } from '../../src/llm/index.js';
import { recordingLogger } from './model-client-fixtures.js';

const ANTHROPIC_KEY = 'sk-ant-test-key-0123456789';

/** Serves queued answers through the injected fetch and records what the provider sent. */
function anthropicFetch(answers: Response[]) {
  const requests: { url: string; headers: Headers; body: any }[] = [];
  const fetchImpl = (async (input: string | URL | Request, init?: RequestInit) => {
    requests.push({
      url: typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
      headers: new Headers(init?.headers),
      body: JSON.parse(init?.body as string),
    });
    const next = answers.shift();
    if (!next) throw new Error('no answer queued');
    return next;
  }) as typeof fetch;
  return { fetchImpl, requests };
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

type Block = { type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: string };

/** A Messages API stream in the recorded event shape: message_start, one start/delta/stop per block, message_delta, message_stop. */
function anthropicStream(
  model: string,
  blocks: Block[],
  stopReason: string,
  usage: { input_tokens: number; output_tokens: number },
): Response {
  const events: [string, object][] = [
    [
      'message_start',
      {
        type: 'message_start',
        message: {
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: usage.input_tokens, output_tokens: 1 },
        },
      },
    ],
  ];
  blocks.forEach((block, index) => {
    const start =
      block.type === 'text'
        ? { type: 'text', text: '' }
        : { type: 'tool_use', id: block.id, name: block.name, input: {} };
    const delta =
      block.type === 'text'
        ? { type: 'text_delta', text: block.text }
        : { type: 'input_json_delta', partial_json: block.input };
    events.push(['content_block_start', { type: 'content_block_start', index, content_block: start }]);
    events.push(['content_block_delta', { type: 'content_block_delta', index, delta }]);
    events.push(['content_block_stop', { type: 'content_block_stop', index }]);
  });
  events.push([
    'message_delta',
    {
      type: 'message_delta',
      delta: { stop_reason: stopReason, stop_sequence: null },
      usage: { output_tokens: usage.output_tokens },
    },
  ]);
  events.push(['message_stop', { type: 'message_stop' }]);
  const body = events.map(([name, data]) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`).join('');
  return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
}

describe('anthropic provider', () => {
  it('maps messages, tool results and usage, and retries an overloaded (529) answer', async () => {
    const { fetchImpl, requests } = anthropicFetch([
      json(529, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }),
      anthropicStream(
        'claude-sonnet-4-5',
        [{ type: 'tool_use', id: 'toolu_1', name: 'get_current_time', input: '{"timezone":"UTC"}' }],
        'tool_use',
        { input_tokens: 21, output_tokens: 9 },
      ),
    ]);
    const client = createModelClient({
      providers: {
        claude: {
          type: 'anthropic',
          api_key: ANTHROPIC_KEY,
          base_url: 'http://anthropic.invalid/v1',
          timeout_ms: 5_000,
          max_retries: 1,
          headers: {},
        },
      },
      fetch: fetchImpl,
      retry: { baseDelayMs: 5, maxDelayMs: 10 },
    });
    const result = await client.generate({
      model: 'claude/claude-sonnet-4-5',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'time?' },
      ],
      tools: [
        {
          name: 'get_current_time',
          description: 'Current time',
          parameters: { type: 'object', properties: { timezone: { type: 'string' } } },
        },
      ],
      temperature: 0.1,
      maxTokens: 100,
    });
    expect(result.toolCalls).toEqual([{ id: 'toolu_1', name: 'get_current_time', arguments: '{"timezone":"UTC"}' }]);
    expect(result.finishReason).toBe('tool_calls');
    expect(result.usage).toMatchObject({ inputTokens: 21, outputTokens: 9, estimated: false });
    expect(requests).toHaveLength(2);
    expect(requests[1].url).toBe('http://anthropic.invalid/v1/messages');
    expect(requests[1].headers.get('x-api-key')).toBe(ANTHROPIC_KEY);
    expect(requests[1].body).toMatchObject({
      model: 'claude-sonnet-4-5',
      system: [{ type: 'text', text: 'Be brief.' }],
      temperature: 0.1,
      max_tokens: 100,
    });
  });

  it('sends parallel tool results back as one user turn', async () => {
    const { fetchImpl, requests } = anthropicFetch([
      anthropicStream('claude-sonnet-4-5', [{ type: 'text', text: 'Done.' }], 'end_turn', {
        input_tokens: 30,
        output_tokens: 2,
      }),
    ]);
    const client = createModelClient({
      providers: {
        claude: { type: 'anthropic', api_key: ANTHROPIC_KEY, timeout_ms: 5_000, max_retries: 0, headers: {} },
      },
      fetch: fetchImpl,
    });
    const result = await client.generate({
      model: 'claude/claude-sonnet-4-5',
      messages: [
        { role: 'user', content: 'two times' },
        {
          role: 'assistant',
          content: '',
          tool_calls: [
            { id: 'toolu_a', name: 't', arguments: '{}' },
            { id: 'toolu_b', name: 't', arguments: '{"x":1}' },
          ],
        },
        { role: 'tool', tool_call_id: 'toolu_a', name: 't', content: 'A' },
        { role: 'tool', tool_call_id: 'toolu_b', name: 't', content: 'B' },
      ],
    });
    expect(result.text).toBe('Done.');
    const sent = requests[0].body.messages;
    expect(sent.map((message: { role: string }) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(sent[2].content.map((part: { tool_use_id: string }) => part.tool_use_id)).toEqual(['toolu_a', 'toolu_b']);
  });

  it('logs once when the provider drops a setting the model rejects', async () => {
    const answer = () =>
      anthropicStream('claude-next', [{ type: 'text', text: 'ok' }], 'end_turn', { input_tokens: 3, output_tokens: 1 });
    const { fetchImpl, requests } = anthropicFetch([answer(), answer()]);
    const logger = recordingLogger();
    const client = createModelClient({
      providers: {
        claude: { type: 'anthropic', api_key: ANTHROPIC_KEY, timeout_ms: 5_000, max_retries: 0, headers: {} },
      },
      fetch: fetchImpl,
      logger,
    });
    const request = {
      model: 'claude/claude-next',
      messages: [{ role: 'user' as const, content: 'hi' }],
      temperature: 0.5,
      maxTokens: 50,
    };
    await client.generate(request);
    await client.generate(request);
    expect(requests[0].body.temperature).toBeUndefined();
    const temperatureWarnings = logger.warnings.filter((warning) => warning.msg.includes('temperature'));
    expect(temperatureWarnings).toHaveLength(1);
    expect(temperatureWarnings[0].obj).toMatchObject({ provider: 'claude', model: 'claude-next' });
  });
});
