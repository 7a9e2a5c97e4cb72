import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { settle, startAutopilot, type AutopilotHarness } from '../autopilot/autopilot-harness.js';
import { json, ONE_OFF_REPORT } from '../autopilot/blueprints.js';
import { startOtlpReceiver, type OtlpReceiver } from './otlp-receiver.js';

describe('a mission traced step by step', () => {
  let receiver: OtlpReceiver;
  let h: AutopilotHarness;
  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    h = await startAutopilot({
      extraYaml: `telemetry:\n  enabled: true\n  endpoint: "${receiver.url}"\n  protocol: http/json\n`,
    });
    await h.api('POST', '/enable', { tier: 'free' });
  });
  afterAll(async () => {
    await h?.stop();
    await receiver?.close();
  });

  it('runs each of its two steps in a trace of its own, linked to the request that created the mission', async () => {
    const created = await h.api(
      'POST',
      '/missions',
      { blueprint_json: json(ONE_OFF_REPORT), slots: { topic: 'tracing' } },
      { project: 'otel' },
    );
    expect(created.status).toBe(200);
    const missionId = (created.body as { mission_id: string }).mission_id;
    await h.api('POST', `/missions/${missionId}/approve`, undefined, { project: 'otel' });
    await settle(h);
    const mission = (await h.api('GET', `/missions/${missionId}`, undefined, { project: 'otel' })).body as {
      status: string;
      steps: { run_id: string }[];
    };
    expect(mission.status).toBe('completed');
    const runIds = mission.steps.map((step) => step.run_id);
    expect(runIds).toHaveLength(2);

    const stepSpans = await vi.waitFor(
      async () => {
        await h.app.telemetry.flush();
        const found = runIds.map((runId) =>
          receiver.spans.find((span) => span.attributes['agent_gateway.run.id'] === runId),
        );
        expect(found.every(Boolean)).toBe(true);
        return found.map((span) => span!);
      },
      { timeout: 10_000, interval: 50 },
    );
    const creation = receiver.spans.find((span) => span.kind === 2 && span.name === 'POST /api/v1/autopilot/missions')!;
    expect(creation).toBeDefined();
    for (const span of stepSpans) {
      expect(span.name).toMatch(/^invoke_agent autopilot:/);
      expect(span.attributes['agent_gateway.run.source']).toBe('autopilot');
      expect(span.links).toEqual([{ traceId: creation.traceId, spanId: creation.spanId }]);
      // Each step's model call is a child of its run span.
      const chat = receiver.spans.find((candidate) => candidate.parentSpanId === span.spanId);
      expect(chat?.name).toBe('chat test-model');
    }
    expect(new Set(stepSpans.map((span) => span.traceId)).size).toBe(2);
  });
});
