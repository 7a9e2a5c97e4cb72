import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authHeaders, startGateway, type GatewayHarness } from '../openai-harness.js';

describe('chat completions: `user` is the end user on the run record and in analytics, and filters both', () => {
  let gateway: GatewayHarness;
  const get = async (path: string): Promise<any> => {
    const response = await fetch(`${gateway.app.url}${path}`, { headers: authHeaders });
    expect(response.status).toBe(200);
    return response.json();
  };
  beforeAll(async () => {
    gateway = await startGateway();
  });
  afterAll(() => gateway.stop());

  it('records `user` (else safety_identifier) and filters the admin runs list and the analytics routes by it', async () => {
    const ask = (extra: object) =>
      gateway.client.chat.completions
        .create({ model: 'helper', messages: [{ role: 'user', content: 'hi' }], ...extra })
        .withResponse();
    const alice = await ask({ user: 'alice@example.com' });
    await ask({ user: 'bob' });
    const carol = await ask({ safety_identifier: 'carol-hash' });
    await ask({});
    const aliceRun = alice.response.headers.get('x-run-id')!;

    expect((await gateway.app.runs.find(aliceRun))?.run.end_user).toBe('alice@example.com');
    const detail = await get(`/api/v1/admin/runs/${aliceRun}`);
    expect(detail.end_user).toBe('alice@example.com');

    const aliceRuns = await get(`/api/v1/admin/runs?end_user=${encodeURIComponent('alice@example.com')}`);
    expect(aliceRuns.map((run: { run_id: string }) => run.run_id)).toEqual([aliceRun]);
    const carolRuns = await get('/api/v1/admin/runs?end_user=carol-hash');
    expect(carolRuns.map((run: { run_id: string }) => run.run_id)).toEqual([carol.response.headers.get('x-run-id')]);
    expect((await get('/api/v1/admin/runs?limit=10')).length).toBe(4);

    // Each run made one model call: one usage record per end user, all four without the filter.
    expect((await get('/analytics/costs?end_user=bob')).record_count).toBe(1);
    expect((await get('/analytics/costs?end_user=nobody')).record_count).toBe(0);
    expect((await get('/analytics/costs')).record_count).toBe(4);
    const agents = await get(`/analytics/agents?end_user=${encodeURIComponent('alice@example.com')}`);
    expect(agents).toHaveLength(1);
  });
});
