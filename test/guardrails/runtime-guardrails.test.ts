import { OpenAI } from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseSse } from '../gateway/agui/agui-harness.js';
import { authHeaders, startGateway, type GatewayHarness } from '../gateway/openai/openai-harness.js';

const YAML = `
auth:
  api_keys: ["\${TEST_API_KEY}"]
providers:
  upstream: { type: openai-compatible, base_url: "\${UPSTREAM_URL}", max_retries: 0 }
guardrails:
  pii: { action: redact }
  content_filter: { blocklist: ["forbidden plan"], action: block }
  hallucination: { threshold: 0.3, action: warn }
agents:
  - name: helper
    model: upstream/test-model
  - name: timekeeper
    model: upstream/test-model
    tools: [get_current_time]
  - name: relaxed
    model: upstream/test-model
    guardrails: { pii: { enabled: false }, content_filter: { action: warn } }
  - name: strict
    model: upstream/test-model
    guardrails: { pii: { action: block } }
`;

const EMAIL = 'jane.doe@example.com';

describe('guardrails in the runtime', () => {
  let gateway: GatewayHarness;
  const risks = async () =>
    (await (await fetch(`${gateway.app.url}/analytics/risks`, { headers: authHeaders })).json()) as Record<
      'pii_events' | 'content_filter_events' | 'hallucination_flags' | 'total_events',
      number
    >;
  const runOf = async (runId: string) =>
    (await (await fetch(`${gateway.app.url}/api/v1/admin/runs/${runId}`, { headers: authHeaders })).json()) as {
      status: string;
      output: string | null;
      error: { code: string } | null;
    };

  beforeAll(async () => {
    gateway = await startGateway({ yaml: YAML });
  });
  afterAll(() => gateway.stop());
  beforeEach(() => {
    gateway.upstream.requests.length = 0;
  });

  it('redacts personal data in a non-streamed answer, in what is stored and in what is returned', async () => {
    gateway.upstream.enqueue({ kind: 'text', text: `Write to ${EMAIL} today.` });
    const { data, response } = await gateway.client.chat.completions
      .create({ model: 'helper', messages: [{ role: 'user', content: 'Who do I write to?' }] })
      .withResponse();
    expect(data.choices[0].message.content).toBe('Write to [REDACTED_EMAIL] today.');
    const detail = await runOf(response.headers.get('x-run-id')!);
    expect(JSON.stringify(detail)).not.toContain(EMAIL);
  });

  it('redacts an e-mail address split across two streamed chunks', async () => {
    const text = `Write to ${EMAIL} today.`;
    gateway.upstream.enqueue({ kind: 'text', text, chunks: 2 });
    const pieces: string[] = [];
    const stream = await gateway.client.chat.completions.create({
      model: 'helper',
      messages: [{ role: 'user', content: 'Who?' }],
      stream: true,
    });
    for await (const chunk of stream) pieces.push(chunk.choices[0]?.delta?.content ?? '');
    expect(text.slice(0, Math.ceil(text.length / 2))).toContain('jane.doe@');
    expect(pieces.join('')).toBe('Write to [REDACTED_EMAIL] today.');
    expect(pieces.join('')).not.toContain('jane');
  });

  it('redacts personal data in the input before the model sees it', async () => {
    await gateway.client.chat.completions.create({
      model: 'helper',
      messages: [{ role: 'user', content: `My address is ${EMAIL}` }],
    });
    const [sent] = gateway.upstream.chatRequests();
    expect(JSON.stringify(sent.body)).not.toContain(EMAIL);
    expect(sent.body.messages.at(-1).content).toBe('My address is [REDACTED_EMAIL]');
  });

  it('refuses a blocked input with 400 content_filtered, streamed or not, before any model call', async () => {
    const messages = [{ role: 'user' as const, content: 'Here is the Forbidden   Plan in full' }];
    const error = await gateway.client.chat.completions
      .create({ model: 'helper', messages })
      .catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).code).toBe('content_filtered');
    const streamed = await fetch(`${gateway.app.url}/v1/chat/completions`, {
      method: 'POST',
      headers: authHeaders,
      body: JSON.stringify({ model: 'strict', messages: [{ role: 'user', content: `mail ${EMAIL}` }], stream: true }),
    });
    expect(streamed.status).toBe(400);
    const runId = streamed.headers.get('x-run-id')!;
    expect(((await streamed.json()) as { error: { code: string } }).error.code).toBe('content_filtered');
    expect(await runOf(runId)).toMatchObject({ status: 'failed', error: { code: 'content_filtered' } });
    expect(gateway.upstream.chatRequests()).toEqual([]);
  });

  it('ends an AG-UI run with a blocked input in RUN_ERROR, without calling the model', async () => {
    const response = await fetch(`${gateway.app.url}/agui/runs`, {
      method: 'POST',
      headers: authHeaders,
      body: JSON.stringify({ agent_name: 'helper', message: 'the forbidden plan' }),
    });
    const events = parseSse(await response.text()).map((message) => message.data);
    expect(events.at(-1)).toMatchObject({ type: 'RUN_ERROR', code: 'content_filtered' });
    expect(events.some((event) => event.type === 'CUSTOM' && event.name === 'guardrail_flag')).toBe(true);
    expect(gateway.upstream.chatRequests()).toEqual([]);
  });

  it('cuts a blocked answer off before the blocked phrase: finish_reason content_filter', async () => {
    gateway.upstream.enqueue({ kind: 'text', text: 'Sure, the forbidden plan is as follows', chunks: 3 });
    const stream = await gateway.client.chat.completions.create({
      model: 'helper',
      messages: [{ role: 'user', content: 'Tell me' }],
      stream: true,
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    // Text before the phrase may stream (the hold-back window); nothing of the phrase does.
    const seen = chunks.map((chunk) => chunk.choices[0]?.delta?.content ?? '').join('');
    expect('Sure, the '.startsWith(seen)).toBe(true);
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe('content_filter');
  });

  it('applies per-agent overrides over the global settings', async () => {
    gateway.upstream.enqueue({ kind: 'text', text: `Mail ${EMAIL}, the forbidden plan` });
    const completion = await gateway.client.chat.completions.create({
      model: 'relaxed',
      messages: [{ role: 'user', content: 'forbidden plan?' }],
    });
    expect(completion.choices[0].message.content).toBe(`Mail ${EMAIL}, the forbidden plan`);
    expect(gateway.upstream.chatRequests()).toHaveLength(1);
  });

  it('flags an answer not grounded in the run’s tool results, and counts every hit in /analytics/risks', async () => {
    const before = await risks();
    gateway.upstream.enqueue(
      { kind: 'tool_calls', calls: [{ name: 'get_current_time', arguments: { timezone: 'UTC' } }] },
      // 947: a number no clock reading in the tool's result can contain (with 42 the answer counted as grounded
      // whenever the minute or the second was 42, and the test failed about one run in thirty).
      { kind: 'text', text: 'Atlantis has 947 million inhabitants and Poseidon rules it.' },
    );
    await gateway.client.chat.completions.create({
      model: 'timekeeper',
      messages: [{ role: 'user', content: 'What time is it?' }],
    });
    gateway.upstream.enqueue(
      { kind: 'tool_calls', calls: [{ name: 'get_current_time', arguments: { timezone: 'UTC' } }] },
      {
        kind: 'handler',
        fn: (request) => {
          const result = request.body.messages.at(-1).content as string;
          return { kind: 'text', text: `The result was: ${result}` };
        },
      },
    );
    await gateway.client.chat.completions.create({
      model: 'timekeeper',
      messages: [{ role: 'user', content: 'And now?' }],
    });
    // Risk events are stored with the run's other records, just after the answer is sent: wait for the flag.
    await expect
      .poll(async () => (await risks()).hallucination_flags - before.hallucination_flags, { timeout: 10_000 })
      .toBe(1);
    const after = await risks();
    // Redacted: the non-streamed answer, the streamed one, the input; blocked: the strict agent's input.
    expect(after.pii_events).toBe(4);
    // Blocked: two inputs and one answer; warned: the relaxed agent's input and answer.
    expect(after.content_filter_events).toBe(5);
    expect(after.total_events).toBe(after.pii_events + after.content_filter_events + after.hallucination_flags);
  });
});
