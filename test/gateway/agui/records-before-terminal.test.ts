import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postRun, startAguiGateway, type AguiGateway } from './agui-harness.js';

describe('AG-UI terminal events', () => {
  let gateway: AguiGateway;
  beforeAll(async () => {
    gateway = await startAguiGateway();
  });
  afterAll(() => gateway.stop());

  it('come only once the run, its usage records and its risk events are stored', async () => {
    gateway.upstream.enqueue({
      kind: 'text',
      text: 'Hello there',
      chunks: 3,
      usage: { prompt_tokens: 7, completion_tokens: 3 },
    });
    const response = await postRun(gateway, { agent_name: 'helper', message: 'hi' });
    const runId = response.headers.get('x-run-id')!;
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    // Look at the store the moment RUN_FINISHED arrives, before the stream is even read to its end.
    while (!text.includes('event: RUN_FINISHED')) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    const db = gateway.app.database.db;
    const [run, usage] = await Promise.all([
      db.selectFrom('runs').select(['status', 'total_tokens']).where('run_id', '=', runId).executeTakeFirst(),
      db
        .selectFrom('usage_records')
        .select(['input_tokens', 'output_tokens', 'source', 'status'])
        .where('run_id', '=', runId)
        .execute(),
    ]);
    expect(run).toEqual({ status: 'completed', total_tokens: 10 });
    expect(usage).toEqual([{ input_tokens: 7, output_tokens: 3, source: 'agui', status: 'ok' }]);
    await reader.cancel();
  });
});
