import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, TEST_API_KEY, type TestApp } from '../support/app.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { startOtlpReceiver, type OtlpReceiver } from './otlp-receiver.js';

const YAML = `
auth:
  api_keys: ["\${TEST_API_KEY}"]
providers:
  upstream: { type: openai-compatible, base_url: "\${UPSTREAM_URL}", max_retries: 0, timeout_ms: 10000 }
agents:
  - name: helper
    model: upstream/test-model
guardrails:
  pii: { enabled: true, action: redact }
telemetry:
  enabled: true
  endpoint: "\${OTLP_URL}"
  # The test receiver decodes OTLP JSON (the default is protobuf).
  protocol: http/json
  capture_content: true
`;

describe('telemetry.capture_content', () => {
  let receiver: OtlpReceiver;
  let upstream: FakeUpstream;
  let app: TestApp;
  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    upstream = await startFakeUpstream();
    app = await startTestApp(YAML, { env: { UPSTREAM_URL: upstream.url, OTLP_URL: receiver.url } });
  });
  afterAll(async () => {
    await app?.stop();
    await upstream?.close();
    await receiver?.close();
  });

  it('records the prompt and the answer on the chat span, as redacted by the PII guardrail', async () => {
    upstream.enqueue({ kind: 'text', text: 'Write to boss@example.com about the plan.' });
    const response = await fetch(`${app.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_API_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'helper', messages: [{ role: 'user', content: 'Mail jane.doe@example.com now' }] }),
    });
    expect(response.status).toBe(200);
    await response.text();
    const chat = await vi.waitFor(
      async () => {
        await app.telemetry.flush();
        const found = receiver.spans.find((span) => span.name === 'chat test-model');
        expect(found).toBeDefined();
        return found!;
      },
      { timeout: 10_000, interval: 50 },
    );
    const input = String(chat.attributes['gen_ai.input.messages']);
    const output = String(chat.attributes['gen_ai.output.messages']);
    expect(input).toContain('Mail');
    expect(output).toContain('about the plan');
    expect(input).not.toContain('jane.doe@example.com');
    expect(output).not.toContain('boss@example.com');
    // Each redaction is an event on the span it happened under: the input's on the run span, the answer's
    // on the model call's.
    const guardrailEvents = (span: { events: { name: string; attributes: Record<string, unknown> }[] }) =>
      span.events.filter((event) => event.name === 'agent_gateway.guardrail').map((event) => event.attributes);
    const run = receiver.spans.find((span) => span.name === 'invoke_agent helper' && span.traceId === chat.traceId)!;
    expect(guardrailEvents(run)).toContainEqual(
      expect.objectContaining({ 'agent_gateway.guardrail.action': 'redact' }),
    );
    expect(guardrailEvents(chat)).toContainEqual(
      expect.objectContaining({ 'agent_gateway.guardrail.action': 'redact' }),
    );
  });
});
