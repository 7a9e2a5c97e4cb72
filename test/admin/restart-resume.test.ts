import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RunEvent } from '../../src/bus/index.js';
import { startTestApp, TEST_API_KEY, type TestApp } from '../support/app.js';
import { tempDataDir } from '../support/databases.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { adminYaml, callAdmin } from './admin-harness.js';
import { spawnServer } from './spawn-server.js';

async function collect(source: AsyncIterable<RunEvent> | undefined): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  for await (const event of source ?? []) events.push(event);
  return events;
}

// Each call costs $0.02 (the fake upstream's 10 input and 5 output tokens); the agent has a daily budget.
const yaml = () =>
  adminYaml('pricing:\n  upstream/test-model: { input_per_mtok: 1000, output_per_mtok: 2000 }\n').replace(
    'tools: [get_current_time]',
    'tools: [get_current_time]\n    daily_budget_usd: 1',
  );

describe('a single SQLite server killed mid-run (runs.resume, the default)', () => {
  let upstream: FakeUpstream;
  let data: ReturnType<typeof tempDataDir>;
  let restarted: TestApp | undefined;
  /** Upstream calls per step of the run: 1 (asks for the time), 2 (answers). */
  const calls = [0, 0, 0];
  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.setDefault((request) => {
      const step = (request.body.messages as { role: string }[]).some((message) => message.role === 'tool') ? 2 : 1;
      calls[step] += 1;
      if (step === 1) return { kind: 'tool_calls', calls: [{ name: 'get_current_time', arguments: {} }] };
      // The first server never gets its answer: it is killed while waiting.
      return calls[2] === 1 ? { kind: 'hang' } : { kind: 'text', text: 'It is noon.' };
    });
    data = tempDataDir();
  });
  afterAll(async () => {
    await restarted?.stop({ keepData: true });
    await upstream.close();
    data.remove();
  });

  it('resumes its unfinished run after a restart, after the steps it had stored', async () => {
    const configFile = join(data.dataDir, 'agent-gateway.yaml');
    writeFileSync(configFile, yaml().replace('${TEST_API_KEY}', TEST_API_KEY).replace('${UPSTREAM_URL}', upstream.url));
    const server = await spawnServer(['--config', configFile, '--data-dir', data.dataDir], {});
    const waiting = fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_API_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'timekeeper', messages: [{ role: 'user', content: 'what time is it?' }] }),
    }).then(
      () => 'answered',
      (error: unknown) => error,
    );
    await vi.waitFor(() => expect(calls[2]).toBe(1), { timeout: 10_000 });
    const [runId] = (await callAdmin(server.url, 'GET', '/runs?status=running')).body.map(
      (run: { run_id: string }) => run.run_id,
    );
    await server.kill('SIGKILL');
    // The non-streamed client of the dead process loses its connection: it gets no answer from that server.
    expect(await waiting).toBeInstanceOf(Error);

    restarted = await startTestApp(yaml(), { env: { UPSTREAM_URL: upstream.url }, dataDir: data.dataDir });
    const events = await collect(await restarted.runs.attach(runId));
    expect(events.at(-1)).toMatchObject({ type: 'run-end', output: 'It is noon.' });
    // Numbered above whatever the dead process had published, so a Last-Event-ID from before still works.
    expect(events[0]).toMatchObject({ type: 'run-start', seq: 1_000_001 });
    expect(calls).toEqual([0, 1, 2]);
    const { body: run } = await callAdmin(restarted.url, 'GET', `/runs/${runId}`);
    expect(run).toMatchObject({ status: 'completed', output: 'It is noon.', attempts: 2, resumed_from_step: 2 });
    expect(run.step_details.map((step: { kind: string; status: string }) => [step.kind, step.status])).toEqual([
      ['model', 'completed'],
      ['tool', 'completed'],
      ['model', 'completed'],
    ]);
    // Re-admitted on the restarted process: the dead one's reservation is gone, both completed calls are
    // spent (the one cut by the kill never answered), exactly what the run cost.
    expect(run.cost_usd).toBe(0.04);
    const { body: budgets } = await callAdmin(restarted.url, 'GET', '/budgets');
    expect(budgets.find((budget: { subject: string }) => budget.subject === 'timekeeper')).toMatchObject({
      spent_usd: 0.04,
      reserved_usd: 0,
      runs_holding: 0,
    });
  }, 120_000);
});
