import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, TEST_API_KEY, type TestApp } from '../support/app.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { json, startLoopbackServer, type LoopbackServer } from '../tools/support/loopback-server.js';
import { startOtlpReceiver, treeOf, type OtlpReceiver, type ReceivedSpan } from './otlp-receiver.js';

const YAML = `
auth:
  api_keys: ["\${TEST_API_KEY}"]
providers:
  upstream: { type: openai-compatible, base_url: "\${UPSTREAM_URL}", max_retries: 0, timeout_ms: 10000 }
  retrying: { type: openai-compatible, base_url: "\${UPSTREAM_URL}", max_retries: 1, timeout_ms: 10000 }
agents:
  - name: patient
    model: retrying/test-model
  - name: helper
    model: upstream/test-model
    system_prompt: Answer briefly.
    tools: [get_current_time, lookup_order]
tools:
  - name: lookup_order
    description: An order by id
    url: "\${TOOL_URL}/orders/{{id}}"
    allow_private: ["127.0.0.1"]
    parameters: { type: object, properties: { id: { type: string } }, required: [id] }
webhooks:
  - name: orders
    verification: hmac-sha256
    secret: orders-secret
    handlers:
      - { event: "orders.*", agent: helper, prompt: "handle order {{id}}" }
telemetry:
  enabled: true
  endpoint: "\${OTLP_URL}"
  service_name: gateway-under-test
`;

const CALLER_TRACE = '0af7651916cd43dd8448eb211c80319c';
const CALLER_SPAN = 'b7ad6b7169203331';
const auth = { authorization: `Bearer ${TEST_API_KEY}`, 'content-type': 'application/json' };
const TRACEPARENT = /^00-([\da-f]{32})-([\da-f]{16})-01$/;

describe('OpenTelemetry traces', () => {
  let receiver: OtlpReceiver;
  let upstream: FakeUpstream;
  let app: TestApp;
  let toolServer: LoopbackServer;
  const toolTraceparents: string[] = [];
  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    upstream = await startFakeUpstream();
    toolServer = await startLoopbackServer();
    toolServer.route('/orders/o-17', (request, response) => {
      toolTraceparents.push(String(request.headers.traceparent));
      json(response, 200, { id: 'o-17', status: 'shipped' });
    });
    app = await startTestApp(YAML, {
      env: { UPSTREAM_URL: upstream.url, OTLP_URL: receiver.url, TOOL_URL: toolServer.origin },
    });
  });
  afterAll(async () => {
    await app?.stop();
    await toolServer?.close();
    await upstream?.close();
    await receiver?.close();
  });

  /** The spans of a trace once its root has ended and was exported (a run's span may end just after the response). */
  async function traceOf(traceId: string, rootName: RegExp, spanCount: number): Promise<ReceivedSpan[]> {
    return vi.waitFor(
      async () => {
        await app.telemetry.flush();
        const spans = receiver.spans.filter((span) => span.traceId === traceId);
        expect(spans.some((span) => rootName.test(span.name))).toBe(true);
        expect(spans.length).toBeGreaterThanOrEqual(spanCount);
        return spans;
      },
      { timeout: 10_000, interval: 50 },
    );
  }
  const byName = (spans: ReceivedSpan[], name: string) => spans.filter((span) => span.name === name);

  function enqueueToolThenAnswer(callId: string) {
    upstream.enqueue(
      { kind: 'tool_calls', calls: [{ id: callId, name: 'get_current_time', arguments: {} }] },
      { kind: 'text', text: 'It is noon.', usage: { prompt_tokens: 21, completion_tokens: 4 } },
    );
  }

  async function chat(stream: boolean, traceparent?: string) {
    const response = await fetch(`${app.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { ...auth, ...(traceparent && { traceparent }) },
      body: JSON.stringify({ model: 'helper', stream, messages: [{ role: 'user', content: 'What time is it?' }] }),
    });
    expect(response.status).toBe(200);
    await response.text();
    const [run] = await app.runs.list({ agentName: 'helper', limit: 1, offset: 0 });
    return run;
  }

  it('continues the caller trace through a non-streamed completion with a tool call, down to the upstream', async () => {
    enqueueToolThenAnswer('call_time_1');
    const before = upstream.chatRequests().length;
    const run = await chat(false, `00-${CALLER_TRACE}-${CALLER_SPAN}-01`);

    const spans = await traceOf(CALLER_TRACE, /^invoke_agent/, 5);
    const server = byName(spans, 'POST /v1/chat/completions')[0];
    expect(server.parentSpanId).toBe(CALLER_SPAN);
    expect(treeOf(spans, server.spanId)).toEqual([
      'POST /v1/chat/completions',
      '  invoke_agent helper',
      '    chat test-model',
      '    execute_tool get_current_time',
      '    chat test-model',
    ]);
    expect(server).toMatchObject({ kind: 2, service: 'gateway-under-test' });
    expect(server.attributes).toMatchObject({ 'http.route': '/v1/chat/completions', 'http.response.status_code': 200 });

    const agent = byName(spans, 'invoke_agent helper')[0];
    expect(agent.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'helper',
      'agent_gateway.run.id': run.run_id,
      'agent_gateway.run.source': 'chat',
      'agent_gateway.run.status': 'completed',
    });
    const [first, second] = byName(spans, 'chat test-model').sort((a, b) => (a.start < b.start ? -1 : 1));
    expect(first).toMatchObject({ kind: 3 });
    expect(first.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'upstream',
      'gen_ai.request.model': 'test-model',
      'gen_ai.response.model': 'test-model',
      'gen_ai.response.finish_reasons': ['tool_calls'],
    });
    expect(second.attributes).toMatchObject({
      'gen_ai.response.finish_reasons': ['stop'],
      'gen_ai.usage.input_tokens': 21,
      'gen_ai.usage.output_tokens': 4,
    });
    expect(second.attributes['gen_ai.input.messages']).toBeUndefined();
    expect(byName(spans, 'execute_tool get_current_time')[0].attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'get_current_time',
      'gen_ai.tool.call.id': 'call_time_1',
    });

    // Each upstream request carried its own chat span as parent.
    const sent = upstream
      .chatRequests()
      .slice(before)
      .map((request) => TRACEPARENT.exec(String(request.headers.traceparent)));
    expect(sent.map((match) => match?.[1])).toEqual([CALLER_TRACE, CALLER_TRACE]);
    expect(sent.map((match) => match?.[2])).toEqual([first.spanId, second.spanId]);

    // The run record and the request's log lines carry the trace id.
    expect((await app.runs.find(run.run_id))!.run.trace_id).toBe(CALLER_TRACE);
    const detail = await fetch(`${app.url}/api/v1/admin/runs/${run.run_id}`, { headers: auth });
    expect(((await detail.json()) as { trace_id: string }).trace_id).toBe(CALLER_TRACE);
    const requestLines = app.logs.lines.filter((line) => line.includes('"url":"/v1/chat/completions"'));
    expect(JSON.parse(requestLines.at(-1)!)).toMatchObject({ trace_id: CALLER_TRACE, span_id: server.spanId });
    expect(requestLines.at(-1)!.match(/"trace_id"/g)).toHaveLength(1);
  });

  it('hands an HTTP tool call its execute_tool span as the traceparent of the request it makes', async () => {
    upstream.enqueue(
      { kind: 'tool_calls', calls: [{ id: 'call_order_1', name: 'lookup_order', arguments: { id: 'o-17' } }] },
      { kind: 'text', text: 'Shipped.' },
    );
    await chat(false, `00-${CALLER_TRACE}-${CALLER_SPAN}-01`);
    const spans = await traceOf(CALLER_TRACE, /^execute_tool lookup_order$/, 1);
    const tool = byName(spans, 'execute_tool lookup_order')[0];
    expect(toolTraceparents.map((header) => TRACEPARENT.exec(header)?.slice(1))).toEqual([[CALLER_TRACE, tool.spanId]]);
  });

  it('traces a streamed completion with a tool call the same way', async () => {
    enqueueToolThenAnswer('call_time_2');
    const run = await chat(true);
    const traceId = (await app.runs.find(run.run_id))!.run.trace_id!;
    expect(traceId).toMatch(/^[\da-f]{32}$/);

    const spans = await traceOf(traceId, /^invoke_agent/, 5);
    const server = byName(spans, 'POST /v1/chat/completions')[0];
    expect(server.parentSpanId).toBeUndefined();
    expect(treeOf(spans, server.spanId)).toEqual([
      'POST /v1/chat/completions',
      '  invoke_agent helper',
      '    chat test-model',
      '    execute_tool get_current_time',
      '    chat test-model',
    ]);
    expect(byName(spans, 'execute_tool get_current_time')[0].attributes['gen_ai.tool.call.id']).toBe('call_time_2');
  });

  it('traces an AG-UI run under its route template', async () => {
    upstream.enqueue({ kind: 'text', text: 'Hello from AG-UI.' });
    const response = await fetch(`${app.url}/agui/runs`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ agent_name: 'helper', message: 'Hi' }),
    });
    await response.text();
    const runId = response.headers.get('x-run-id')!;
    const traceId = (await app.runs.find(runId))!.run.trace_id!;

    const spans = await traceOf(traceId, /^invoke_agent/, 3);
    const server = spans.find((span) => span.kind === 2)!;
    expect(server.name).toBe('POST /agui/runs');
    expect(treeOf(spans, server.spanId)).toEqual(['POST /agui/runs', '  invoke_agent helper', '    chat test-model']);
    expect(byName(spans, 'invoke_agent helper')[0].attributes).toMatchObject({
      'agent_gateway.run.id': runId,
      'agent_gateway.run.source': 'agui',
    });
  });

  it('marks a failed upstream call: error status and error.type on the chat and agent spans', async () => {
    upstream.enqueue({ kind: 'error', status: 500, body: { error: { message: 'upstream broke' } } });
    const response = await fetch(`${app.url}/v1/chat/completions`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ model: 'helper', messages: [{ role: 'user', content: 'Hi' }] }),
    });
    expect(response.status).toBeGreaterThanOrEqual(500);
    await response.text();
    const [run] = await app.runs.list({ agentName: 'helper', limit: 1, offset: 0 });
    const traceId = (await app.runs.find(run.run_id))!.run.trace_id!;

    const spans = await traceOf(traceId, /^invoke_agent/, 3);
    const chatSpan = byName(spans, 'chat test-model')[0];
    expect(chatSpan.status.code).toBe(2);
    expect(chatSpan.attributes['error.type']).toEqual(expect.stringMatching(/^upstream_/));
    const agent = byName(spans, 'invoke_agent helper')[0];
    expect(agent.status.code).toBe(2);
    expect(agent.attributes).toMatchObject({ 'agent_gateway.run.status': 'failed' });
    expect(agent.attributes['error.type']).toBe(chatSpan.attributes['error.type']);
  });

  it('reports as gen_ai.response.model the model id the upstream answered with, not the one requested', async () => {
    const trace = 'b3c4d5e6f708192a3b4c5d6e7f809102';
    upstream.enqueue({ kind: 'text', text: 'Answered.', model: 'test-model-2026-01-15' });
    await chat(false, `00-${trace}-${CALLER_SPAN}-01`);
    const spans = await traceOf(trace, /^invoke_agent/, 3);
    expect(byName(spans, 'chat test-model')[0].attributes).toMatchObject({
      'gen_ai.request.model': 'test-model',
      'gen_ai.response.model': 'test-model-2026-01-15',
    });
  });

  it("links a webhook delivery's run, processed by the worker, to the trace of its intake", async () => {
    upstream.enqueue({ kind: 'text', text: 'Order handled.' });
    const body = JSON.stringify({ type: 'created', id: 'o-1' });
    const signature = createHmac('sha256', 'orders-secret').update(body).digest('hex');
    const intake = await fetch(`${app.url}/webhooks/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-signature': signature },
      body,
    });
    expect(intake.status).toBe(202);
    const { delivery_id: deliveryId } = (await intake.json()) as { delivery_id: string };

    const runSpan = await vi.waitFor(
      async () => {
        await app.telemetry.flush();
        const found = receiver.spans.find(
          (span) => span.name === 'invoke_agent helper' && span.attributes['agent_gateway.run.source'] === 'webhook',
        );
        expect(found).toBeDefined();
        return found!;
      },
      { timeout: 10_000, interval: 50 },
    );
    const intakeSpan = receiver.spans.find((span) => span.kind === 2 && span.name.startsWith('POST /webhooks'))!;
    expect(intakeSpan.attributes['url.path']).toBe('/webhooks/orders');
    expect(intakeSpan.name).not.toContain('orders');
    // The worker's run is a trace of its own, joined to the intake by a link (it may run after a restart).
    expect(runSpan.traceId).not.toBe(intakeSpan.traceId);
    expect(runSpan.links).toEqual([{ traceId: intakeSpan.traceId, spanId: intakeSpan.spanId }]);
    expect(deliveryId).toMatch(/^del_/);
  });

  it('exports the GenAI metrics over OTLP, with the same values on /metrics', async () => {
    upstream.enqueue({ kind: 'text', text: 'Counted.', usage: { prompt_tokens: 1000, completion_tokens: 7 } });
    await chat(false);
    await app.telemetry.flush();
    const metric = (name: string) => receiver.metrics().find((candidate) => candidate.name === name);
    const tokenPoints = metric('gen_ai.client.token.usage')!.points;
    // The helper agent's series (another test's agent calls through a second provider).
    const lastInput = tokenPoints
      .filter(
        (point) =>
          point.attributes['gen_ai.token.type'] === 'input' && point.attributes['gen_ai.provider.name'] === 'upstream',
      )
      .at(-1)!;
    expect(lastInput.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'upstream',
      'gen_ai.request.model': 'test-model',
    });
    for (const name of [
      'gen_ai.client.operation.duration',
      'gen_ai.server.time_to_first_token',
      'agent_gateway.runs',
      'agent_gateway.overhead',
    ])
      expect(metric(name)?.points.length, name).toBeGreaterThan(0);

    const scrape = await (await fetch(`${app.url}/metrics`, { headers: auth })).text();
    const inputSum = Number(
      /gen_ai_client_token_usage_sum\{agent="helper",model="upstream\/test-model",token_type="input"\} (\d+)/.exec(
        scrape,
      )?.[1],
    );
    // Cumulative temporality: OTLP's last input-token sum equals the Prometheus sum (1000 from this call included).
    expect(inputSum).toBeGreaterThanOrEqual(1000);
    expect(lastInput.sum).toBe(inputSum);
    expect(scrape).toContain('gen_ai_client_operation_duration_seconds_bucket');
    expect(scrape).toContain('gen_ai_server_time_to_first_token_seconds_bucket');
  });

  it("writes a retried model call's warning with the run's trace id", async () => {
    upstream.enqueue({ kind: 'error', status: 503 }, { kind: 'text', text: 'Recovered.' });
    const response = await fetch(`${app.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { ...auth, traceparent: `00-${CALLER_TRACE}-${CALLER_SPAN}-01` },
      body: JSON.stringify({ model: 'patient', messages: [{ role: 'user', content: 'Hi' }] }),
    });
    expect(response.status).toBe(200);
    await response.text();
    const retries = app.logs.lines.filter((line) => line.includes('"msg":"retrying model call"'));
    expect(retries).toHaveLength(1);
    expect(JSON.parse(retries[0])).toMatchObject({ trace_id: CALLER_TRACE, provider: 'retrying', retry: 1 });
  });
});
