import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_API_KEY } from '../../support/app.js';
import type { RecordedRequest } from '../../support/fake-upstream.js';
import { a2aYaml, startA2aGateway, type A2aGateway } from './a2a-harness.js';

const BOOKER = `
  - name: booker
    model: upstream/test-model
    requires_input:
      - name: ask_caller
        description: Ask the caller for a detail only they know
`;

const coordinatorYaml = `
auth:
  api_keys: ["\${TEST_API_KEY}"]
providers:
  upstream: { type: openai-compatible, base_url: "\${UPSTREAM_URL}", max_retries: 0, timeout_ms: 10000 }
agents:
  - name: coordinator
    model: upstream/coordinator-model
    tools: [delegate_to_agent]
a2a:
  remotes:
    - name: booking
      url: "\${A_URL}/a2a/booker"
      token: "\${A_TOKEN}"
`;

const lastToolResult = (request: RecordedRequest) =>
  String(
    [...(request.body as { messages: { role: string; content: string }[] }).messages]
      .reverse()
      .find((message) => message.role === 'tool')?.content,
  );

describe('delegation to a remote agent that asks for input', () => {
  let a: A2aGateway;
  let b: A2aGateway;
  beforeAll(async () => {
    a = await startA2aGateway({ yaml: a2aYaml({ extra: BOOKER }) });
    const token = await a.createToken('booker', ['a2a']);
    b = await startA2aGateway({ yaml: coordinatorYaml, env: { A_URL: a.app.url, A_TOKEN: token.token } });
  });
  afterAll(async () => {
    await b?.stop();
    await a?.stop();
  });

  it('returns the remote question to the model, and the model answers it on the same remote task', async () => {
    a.upstream.enqueue(
      { kind: 'tool_calls', calls: [{ name: 'ask_caller', arguments: { question: 'Which city?' } }] },
      { kind: 'text', text: 'Booked a table in Paris.' },
    );
    b.upstream.enqueue(
      {
        kind: 'tool_calls',
        calls: [{ name: 'delegate_to_agent', arguments: { agent: 'booking', task: 'Book a table' } }],
      },
      {
        kind: 'handler',
        fn: (request) => {
          const question = lastToolResult(request);
          const taskId = /task_id "([^"]+)"/.exec(question)?.[1];
          const contextId = /context_id "([^"]+)"/.exec(question)?.[1];
          return {
            kind: 'tool_calls',
            calls: [
              {
                name: 'delegate_to_agent',
                arguments: { agent: 'booking', task: 'Paris', task_id: taskId, context_id: contextId },
              },
            ],
          };
        },
      },
      { kind: 'handler', fn: (request) => ({ kind: 'text', text: `Relayed: ${lastToolResult(request)}` }) },
    );

    const response = await fetch(`${b.app.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_API_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'coordinator', messages: [{ role: 'user', content: 'Get me a table' }] }),
    });
    expect(response.status).toBe(200);
    const answer = ((await response.json()) as { choices: { message: { content: string } }[] }).choices[0].message
      .content;
    expect(answer).toBe('Relayed: Booked a table in Paris.');
    expect(lastToolResult(b.upstream.chatRequests()[1])).toContain('needs more input: Which city?');
    // A resumed the same task: its model got "Paris" as the answer to the question it asked.
    const sent = (a.upstream.chatRequests().at(-1)!.body as { messages: { role: string; content: string }[] }).messages;
    expect(sent.at(-1)).toMatchObject({ role: 'tool', content: 'Paris' });
    expect(sent.some((message) => message.role === 'user' && message.content === 'Book a table')).toBe(true);
  });

  it('continues one remote context across the calls of a run, through a question and its answer', async () => {
    type Sent = { messages: { role: string; content: string }[] };
    const sawName = (request: RecordedRequest) =>
      (request.body as Sent).messages.some(
        (message) => message.role === 'user' && message.content === 'My name is Ada',
      );
    a.upstream.enqueue(
      { kind: 'text', text: 'Noted.' },
      { kind: 'tool_calls', calls: [{ name: 'ask_caller', arguments: { question: 'Which city?' } }] },
      {
        kind: 'handler',
        fn: (request) => ({ kind: 'text', text: `Booked for ${sawName(request) ? 'Ada' : 'a stranger'} in Paris.` }),
      },
    );
    b.upstream.enqueue(
      {
        kind: 'tool_calls',
        calls: [{ name: 'delegate_to_agent', arguments: { agent: 'booking', task: 'My name is Ada' } }],
      },
      // No context_id: the tool continues the run's conversation with the same remote.
      {
        kind: 'tool_calls',
        calls: [{ name: 'delegate_to_agent', arguments: { agent: 'booking', task: 'Book a table for me' } }],
      },
      {
        kind: 'handler',
        fn: (request) => ({
          kind: 'tool_calls',
          calls: [
            {
              name: 'delegate_to_agent',
              arguments: {
                agent: 'booking',
                task: 'Paris',
                task_id: /task_id "([^"]+)"/.exec(lastToolResult(request))?.[1],
              },
            },
          ],
        }),
      },
      { kind: 'handler', fn: (request) => ({ kind: 'text', text: `Relayed: ${lastToolResult(request)}` }) },
    );

    const response = await fetch(`${b.app.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_API_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'coordinator', messages: [{ role: 'user', content: 'Book me a table' }] }),
    });
    const answer = ((await response.json()) as { choices: { message: { content: string } }[] }).choices[0].message
      .content;
    expect(answer).toBe('Relayed: Booked for Ada in Paris.');
    // The question reached A's model with the first task's turn before it.
    const asked = a.upstream.chatRequests().at(-2)!;
    expect(sawName(asked)).toBe(true);
  });
});
