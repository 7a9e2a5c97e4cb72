/** Two fake upstreams and a port nothing listens on, as the providers of agents with fallback models. */
import { vi } from 'vitest';
import { freePort } from '../../support/free-port.js';
import { startFakeUpstream, type FakeResponse, type FakeUpstream } from '../../support/fake-upstream.js';
import { startTestGateway, type TestGateway } from '../../support/gateway.js';

/** Short bounds, so every failure that waits for one ends in well under a second. */
export const STALL_MS = 500;
export const SLOW_TIMEOUT_MS = 400;

export const FALLBACK_TEXT = 'answered by the fallback';

/** A gate that never opens: the upstream stops writing there. */
export const NEVER = new Promise<void>(() => undefined);

const yaml = (refusedUrl: string) => `
auth:
  api_keys: ["\${TEST_API_KEY}"]
providers:
  primary: { type: openai-compatible, base_url: "\${PRIMARY_URL}", max_retries: 0 }
  secondary: { type: openai-compatible, base_url: "\${SECONDARY_URL}", max_retries: 0 }
  down: { type: openai-compatible, base_url: "${refusedUrl}", max_retries: 0 }
  stalling: { type: openai-compatible, base_url: "\${PRIMARY_URL}", max_retries: 0, stall_timeout_ms: ${STALL_MS} }
  slow: { type: openai-compatible, base_url: "\${PRIMARY_URL}", max_retries: 0, timeout_ms: ${SLOW_TIMEOUT_MS} }
pricing:
  primary/m: { input_per_mtok: 1, output_per_mtok: 1 }
  secondary/m: { input_per_mtok: 1000, output_per_mtok: 2000 }
agents:
  - name: resilient
    model: [primary/m, secondary/m]
  - name: refused-first
    model: [down/m, secondary/m]
  - name: stalling-first
    model: [stalling/m, secondary/m]
  - name: slow-first
    model: [slow/m, secondary/m]
`;

export interface FailoverHarness {
  gateway: TestGateway;
  primary: FakeUpstream;
  secondary: FakeUpstream;
  /** Sets what the primary answers from now on; the secondary answers FALLBACK_TEXT unless told otherwise. */
  primaryAnswers(response: FakeResponse): void;
  close(): Promise<void>;
}

export async function startFailoverHarness(): Promise<FailoverHarness> {
  const [primary, secondary] = await Promise.all([startFakeUpstream(), startFakeUpstream()]);
  const refusedUrl = `http://127.0.0.1:${await freePort()}/v1`;
  const gateway = await startTestGateway({
    yaml: yaml(refusedUrl),
    upstream: primary,
    env: { PRIMARY_URL: primary.url, SECONDARY_URL: secondary.url },
  });
  return {
    gateway,
    primary,
    secondary,
    primaryAnswers(response) {
      primary.requests.length = 0;
      secondary.requests.length = 0;
      primary.setDefault(response);
      secondary.setDefault({ kind: 'text', text: FALLBACK_TEXT, usage: { prompt_tokens: 10, completion_tokens: 5 } });
    },
    async close() {
      await gateway.close();
      await Promise.all([primary.close(), secondary.close()]);
    },
  };
}

/** The run's stored steps and its usage records, once its writes committed. */
export async function settledRun(harness: FailoverHarness, runId: string) {
  const { app } = harness.gateway;
  await app.runs.live(runId)?.result.catch(() => undefined);
  // The run's record is written after its usage records committed.
  const found = await vi.waitFor(async () => {
    const current = await app.runs.find(runId);
    if (!current || current.run.status === 'running') throw new Error(`run ${runId} has not ended`);
    return current;
  });
  const records = await app.database.db.selectFrom('usage_records').selectAll().where('run_id', '=', runId).execute();
  return { run: found.run, steps: found.steps, records };
}
