import { countTokens } from 'gpt-tokenizer';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { authHeaders, startGateway, type GatewayHarness } from './openai-harness.js';

const YAML = `
auth:
  api_keys: ["\${TEST_API_KEY}"]
providers:
  upstream: { type: openai-compatible, base_url: "\${UPSTREAM_URL}", max_retries: 0 }
pricing:
  upstream/test-model: { input_per_mtok: 3, output_per_mtok: 15 }
agents:
  - name: helper
    model: upstream/test-model
    system_prompt: You are a helpful assistant.
    daily_budget_usd: 100
`;

// The upstream's usage would come last; none of these calls gets that far, so what it produced is counted.
const SLOW_ANSWER = {
  kind: 'text',
  text: 'a long answer that trickles in slowly, word by word, for a while',
  chunks: 16,
  chunkDelayMs: 30,
  usage: { prompt_tokens: 1000, completion_tokens: 1000 },
} as const;

const nanos = (usd: number) => Math.round(usd * 1e9);

describe('usage of a streamed call that never finished', () => {
  let gateway: GatewayHarness;

  const get = async (path: string): Promise<any> => {
    const response = await fetch(`${gateway.app.url}${path}`, { headers: authHeaders });
    expect(response.status).toBe(200);
    return response.json();
  };
  const budgetSpentNanos = async () => {
    const row = await gateway.app.database.db
      .selectFrom('budget_accounts')
      .select('spent_nanos')
      .where('account_key', 'like', 'daily:helper:%')
      .executeTakeFirst();
    return Number(row?.spent_nanos ?? 0);
  };

  /** Starts a streamed completion and reads `chunks` chunks of it; the caller decides how it ends. */
  const startStream = async (chunks: number, signal?: AbortSignal) => {
    const { data: stream, response } = await gateway.client.chat.completions
      .create(
        { model: 'helper', messages: [{ role: 'user', content: 'tell me something long' }], stream: true },
        { signal },
      )
      .withResponse();
    const runId = response.headers.get('x-run-id')!;
    const iterator = stream[Symbol.asyncIterator]();
    const received: string[] = [];
    while (received.length < chunks) {
      const { value } = await iterator.next();
      const delta = value?.choices[0]?.delta.content;
      if (delta) received.push(delta);
    }
    return { runId, received, drain: async () => void (await iterator.next().catch(() => undefined)) };
  };

  /** The run as an operator sees it, and its one usage record, once the run ended and everything committed. */
  const settledRun = async (runId: string) => {
    await gateway.app.runs.live(runId)?.result;
    await vi.waitFor(async () => expect((await get(`/api/v1/admin/runs/${runId}`)).status).not.toBe('running'), {
      timeout: 10_000,
    });
    const run = await get(`/api/v1/admin/runs/${runId}`);
    const records = await gateway.app.database.db
      .selectFrom('usage_records')
      .selectAll()
      .where('run_id', '=', runId)
      .execute();
    return { run, records };
  };

  /** What every broken call must show: tokens counted, estimated, priced, in analytics and in the budget. */
  const expectCounted = async (
    runId: string,
    before: { usage: { total_tokens: number; record_count: number }; spent: number },
    status: 'cancelled' | 'failed',
  ) => {
    const { run, records } = await settledRun(runId);
    expect(run).toMatchObject({ status, steps: 1 });
    expect(run.input_tokens).toBeGreaterThan(0);
    expect(run.output_tokens).toBeGreaterThan(0);
    expect(run.total_tokens).toBe(run.input_tokens + run.output_tokens);
    // Counted locally: far below the 2,000 the upstream would have reported at the end.
    expect(run.total_tokens).toBeLessThan(1000);
    expect(run.cost_usd).toBe((run.input_tokens * 3 + run.output_tokens * 15) / 1_000_000);
    expect(run.step_details[0]).toMatchObject({
      status: 'failed',
      input_tokens: run.input_tokens,
      output_tokens: run.output_tokens,
      prompt_log: { usage_estimated: true },
    });
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      status: 'error',
      estimated: 1,
      priced: 1,
      input_tokens: run.input_tokens,
      output_tokens: run.output_tokens,
    });
    expect(Number(records[0].cost_usd)).toBe(run.cost_usd);
    const usage = await get('/analytics/usage');
    expect(usage.total_tokens - before.usage.total_tokens).toBe(run.total_tokens);
    expect(usage.record_count - before.usage.record_count).toBe(1);
    expect((await budgetSpentNanos()) - before.spent).toBe(nanos(run.cost_usd));
    return run;
  };

  const snapshot = async () => ({ usage: await get('/analytics/usage'), spent: await budgetSpentNanos() });

  beforeAll(async () => {
    gateway = await startGateway({ yaml: YAML });
  });
  // Node keeps a socket whose client aborted mid-request open until the client gives it up, so this stop takes seconds.
  afterAll(() => gateway.stop());

  it('counts the tokens of a stream its client abandoned', async () => {
    const before = await snapshot();
    gateway.upstream.enqueue(SLOW_ANSWER);
    const abort = new AbortController();
    const { runId, received } = await startStream(3, abort.signal);
    abort.abort();
    const run = await expectCounted(runId, before, 'cancelled');
    expect(run.error).toMatchObject({ code: 'client_closed' });
    expect(run.output.startsWith(received.join(''))).toBe(true);
  });

  it('counts the tokens of a stream an operator cancelled', async () => {
    const before = await snapshot();
    gateway.upstream.enqueue(SLOW_ANSWER);
    const { runId, drain } = await startStream(3);
    const cancel = await fetch(`${gateway.app.url}/api/v1/admin/runs/${runId}/cancel`, {
      method: 'POST',
      headers: authHeaders,
      body: '{}',
    });
    expect(cancel.status).toBe(200);
    await drain();
    await expectCounted(runId, before, 'cancelled');
  });

  it('counts the tokens an upstream sent before it dropped the connection', async () => {
    const before = await snapshot();
    gateway.upstream.enqueue({ kind: 'disconnect', afterChunks: 4 });
    const { runId, received, drain } = await startStream(4);
    await drain();
    const run = await expectCounted(runId, before, 'failed');
    expect(received.join('')).toBe('part0 part1 part2 part3 ');
    expect(run.output_tokens).toBe(countTokens('part0 part1 part2 part3 '));
    expect(run.error.code).toBe('upstream_error');
  });

  it("bills the upstream's own usage when it sent it before dropping the connection", async () => {
    const before = await snapshot();
    gateway.upstream.enqueue({
      kind: 'disconnect',
      afterChunks: 4,
      usage: { prompt_tokens: 1234, completion_tokens: 567, cached_tokens: 200 },
    });
    const { runId, drain } = await startStream(4);
    await drain();
    const { run, records } = await settledRun(runId);
    expect(run).toMatchObject({
      status: 'failed',
      steps: 1,
      input_tokens: 1234,
      output_tokens: 567,
      total_tokens: 1801,
    });
    expect(run.error.code).toBe('upstream_error');
    expect(run.cost_usd).toBe((1234 * 3 + 567 * 15) / 1_000_000);
    expect(run.step_details[0]).toMatchObject({
      status: 'failed',
      input_tokens: 1234,
      output_tokens: 567,
      prompt_log: { usage_estimated: false },
    });
    expect(records).toMatchObject([
      { status: 'error', estimated: 0, priced: 1, input_tokens: 1234, output_tokens: 567, cached_tokens: 200 },
    ]);
    const usage = await get('/analytics/usage');
    expect(usage.total_tokens - before.usage.total_tokens).toBe(1801);
    expect((await budgetSpentNanos()) - before.spent).toBe(nanos(run.cost_usd));
  });

  it('bills nothing for a call the upstream refused before producing anything', async () => {
    const before = await snapshot();
    gateway.upstream.enqueue({ kind: 'error', status: 500 });
    const { response } = await gateway.client.chat.completions
      .create({ model: 'helper', messages: [{ role: 'user', content: 'hello' }], stream: true })
      .withResponse()
      .catch((error: { headers?: Headers }) => ({ response: { headers: error.headers! } }));
    const { run, records } = await settledRun(response.headers.get('x-run-id')!);
    expect(run).toMatchObject({ status: 'failed', total_tokens: 0, cost_usd: 0 });
    expect(records).toMatchObject([{ status: 'error', estimated: 0, input_tokens: 0, output_tokens: 0 }]);
    expect(await budgetSpentNanos()).toBe(before.spent);
  });
});
