import { afterEach, describe, expect, it } from 'vitest';
import type { ModelUsageRecord, RiskEventRecord, RunPricing, UsageSink } from '../../src/agents/index.js';
import { roundUsd } from '../../src/analytics/index.js';
import { UpstreamError } from '../../src/errors.js';
import { guardrailsSchema } from '../../src/config/index.js';
import { toolCall } from './fakes.js';
import { agentConfig, createRunHarness, type RunHarness } from './run-harness.js';

/** Prices that add up badly in floating point: 0.1 and 0.2 of a micro-dollar per token. */
const pricing: RunPricing = {
  price: (_model, usage) => ({
    costUsd: usage.inputTokens * 1e-7 + usage.outputTokens * 2e-7 + 1e-10 / 3,
    priced: true,
  }),
};

function recordingSink(): UsageSink & { usage: ModelUsageRecord[]; risks: RiskEventRecord[] } {
  const usage: ModelUsageRecord[] = [];
  const risks: RiskEventRecord[] = [];
  return {
    usage,
    risks,
    record: async (record) => void usage.push(record),
    recordRisk: async (event) => void risks.push(event),
  };
}

describe('usage records from the runtime', () => {
  let harness: RunHarness;
  afterEach(() => harness?.close());

  it('reports every model call, failed ones too, with the same rounded cost the run adds up', async () => {
    const sink = recordingSink();
    harness = await createRunHarness(
      [agentConfig({ name: 'a', tools: ['lookup'] })],
      { lookup: () => 'found' },
      { service: { pricing, usage: sink } },
    );
    harness.models.script(
      { toolCalls: [toolCall('lookup')], usage: { inputTokens: 3, outputTokens: 1 } },
      { text: 'done', usage: { inputTokens: 7, outputTokens: 2, cachedInputTokens: 2 } },
    );
    const result = await (
      await harness.runs.start({
        agentName: 'a',
        messages: [{ role: 'user', content: 'go' }],
        source: 'chat',
        sessionId: 's1',
        owner: 'token:t',
      })
    ).result;
    expect(
      sink.usage.map((record) => [record.input_tokens, record.output_tokens, record.cached_tokens, record.status]),
    ).toEqual([
      [3, 1, 0, 'ok'],
      [7, 2, 2, 'ok'],
    ]);
    expect(sink.usage[0]).toMatchObject({
      run_id: result.runId,
      agent_name: 'a',
      model: 'up/test-model',
      provider: 'up',
      source: 'chat',
      session_id: 's1',
      priced: true,
      estimated: false,
    });
    expect(sink.usage.every((record) => record.cost_usd === roundUsd(record.cost_usd))).toBe(true);
    expect(result.costUsd).toBe(roundUsd(sink.usage[0].cost_usd + sink.usage[1].cost_usd));
    expect((await harness.runStore.getRun(result.runId))?.cost_usd).toBe(result.costUsd);

    harness.models.script({ error: new UpstreamError({ message: 'boom', retryable: false }) });
    const failed = await (
      await harness.runs.start({ agentName: 'a', messages: [{ role: 'user', content: 'go' }], source: 'webhook' })
    ).result;
    expect(failed.status).toBe('failed');
    expect(sink.usage.at(-1)).toMatchObject({
      run_id: failed.runId,
      status: 'error',
      input_tokens: 0,
      cost_usd: 0,
      priced: false,
      ttft_ms: null,
    });
  });

  it('redacts input and streamed output, and reports each hit as a risk event and a guardrail-flag event', async () => {
    const sink = recordingSink();
    const guardrails = guardrailsSchema.parse({ pii: {} });
    harness = await createRunHarness([agentConfig({ name: 'a' })], {}, { service: { usage: sink, guardrails } });
    harness.models.script({ deltas: ['mail x.y@exa', 'mple.org now'] });
    const run = await harness.runs.start({
      agentName: 'a',
      messages: [{ role: 'user', content: 'my ip is 10.1.2.3' }],
      source: 'chat',
    });
    const events = [];
    for await (const event of run) events.push(event);
    expect((await run.result).output).toBe('mail [REDACTED_EMAIL] now');
    expect(harness.models.requests[0].messages.at(-1)?.content).toBe('my ip is [REDACTED_IP_ADDRESS]');
    expect(sink.risks.map((event) => [event.type, event.entity, event.action])).toEqual([
      ['pii', 'ip_address', 'redact'],
      ['pii', 'email', 'redact'],
    ]);
    expect(events.filter((event) => event.type === 'guardrail-flag')).toHaveLength(2);
  });

  it("counts a mission step's usage and risk events under the name it asks for, with its mission and step", async () => {
    const sink = recordingSink();
    const guardrails = guardrailsSchema.parse({ pii: {} });
    harness = await createRunHarness([agentConfig({ name: 'a' })], {}, { service: { usage: sink, guardrails } });
    harness.models.script({ text: 'done' });
    const run = await harness.runs.start({
      agentName: 'a',
      messages: [{ role: 'user', content: 'my ip is 10.1.2.3' }],
      source: 'autopilot',
      mission: { agentName: '@autopilot', missionId: 'mis_1', step: 'gather' },
    });
    const result = await run.result;
    const dimensions = { agent_name: '@autopilot', mission_id: 'mis_1', mission_step: 'gather' };
    expect(sink.usage).toEqual([expect.objectContaining({ ...dimensions, source: 'autopilot' })]);
    expect(sink.risks).toEqual([expect.objectContaining({ ...dimensions, type: 'pii' })]);
    // The run itself keeps the agent that ran it.
    expect((await harness.runStore.getRun(result.runId))?.agent_name).toBe('a');
  });
});
