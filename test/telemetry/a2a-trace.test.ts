import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TEST_API_KEY } from '../support/app.js';
import type { RecordedRequest } from '../support/fake-upstream.js';
import { a2aYaml, startA2aGateway, type A2aGateway } from '../gateway/a2a/a2a-harness.js';
import { startOtlpReceiver, treeOf, type OtlpReceiver } from './otlp-receiver.js';

const telemetryYaml = `
telemetry:
  enabled: true
  endpoint: "\${OTLP_URL}"
  # The test receiver decodes OTLP JSON (the default is protobuf).
  protocol: http/json
`;

/** Gateway B: a coordinator that delegates to gateway A's helper over A2A. */
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
    - name: research
      url: "\${A_URL}/a2a/helper"
      token: "\${A_TOKEN}"
${telemetryYaml}`;

describe('a trace across two gateways (A2A delegation)', () => {
  let receiver: OtlpReceiver;
  let a: A2aGateway;
  let b: A2aGateway;
  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    a = await startA2aGateway({ yaml: a2aYaml({ extra: telemetryYaml }), env: { OTLP_URL: receiver.url } });
    const token = await a.createToken('helper', ['a2a']);
    b = await startA2aGateway({
      yaml: coordinatorYaml,
      env: { A_URL: a.app.url, A_TOKEN: token.token, OTLP_URL: receiver.url },
    });
  });
  afterAll(async () => {
    await b?.stop();
    await a?.stop();
    await receiver?.close();
  });

  it("keeps one trace id from B's request to A's model call, A's request a child of B's tool span", async () => {
    b.upstream.enqueue(
      { kind: 'tool_calls', calls: [{ name: 'delegate_to_agent', arguments: { agent: 'research', task: 'Find 42' } }] },
      {
        kind: 'handler',
        fn: (request: RecordedRequest) => {
          const messages = (request.body as { messages: { role: string; content: string }[] }).messages;
          return { kind: 'text', text: `Relayed: ${messages.findLast((m) => m.role === 'tool')?.content}` };
        },
      },
    );
    a.upstream.enqueue({ kind: 'text', text: 'It is 42.' });
    const response = await fetch(`${b.app.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_API_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'coordinator', messages: [{ role: 'user', content: 'Ask research' }] }),
    });
    expect(response.status).toBe(200);
    await response.text();
    const [coordinatorRun] = await b.app.runs.list({ agentName: 'coordinator', limit: 1, offset: 0 });
    const [helperRun] = await a.app.runs.list({ agentName: 'helper', limit: 1, offset: 0 });
    const traceId = (await b.app.runs.find(coordinatorRun.run_id))!.run.trace_id!;
    // The run on A belongs to B's trace.
    expect((await a.app.runs.find(helperRun.run_id))!.run.trace_id).toBe(traceId);

    const spans = await vi.waitFor(
      async () => {
        await Promise.all([a.app.telemetry.flush(), b.app.telemetry.flush()]);
        const found = receiver.spans.filter((span) => span.traceId === traceId);
        expect(found.filter((span) => span.name.startsWith('invoke_agent'))).toHaveLength(2);
        expect(found.filter((span) => span.name === 'POST /v1/chat/completions')).toHaveLength(1);
        return found;
      },
      { timeout: 10_000, interval: 50 },
    );
    const root = spans.find((span) => span.name === 'POST /v1/chat/completions')!;
    const tree = treeOf(spans, root.spanId);
    expect(tree.slice(0, 4)).toEqual([
      'POST /v1/chat/completions',
      '  invoke_agent coordinator',
      '    chat coordinator-model',
      '    execute_tool delegate_to_agent',
    ]);
    // Under B's tool span: A's server spans (agent card, then the task), and A's run under the task request.
    const tool = spans.find((span) => span.name === 'execute_tool delegate_to_agent')!;
    const onA = spans.filter((span) => span.parentSpanId === tool.spanId && span.kind === 2);
    expect(onA.length).toBeGreaterThanOrEqual(1);
    const helper = spans.find((span) => span.name === 'invoke_agent helper')!;
    const helperParent = spans.find((span) => span.spanId === helper.parentSpanId)!;
    expect(helperParent.kind).toBe(2);
    expect(helperParent.parentSpanId).toBe(tool.spanId);
    expect(helperParent.name).toMatch(/^POST \/a2a\//);
    expect(treeOf(spans, helper.spanId)).toEqual(['invoke_agent helper', '  chat test-model']);
  });
});
