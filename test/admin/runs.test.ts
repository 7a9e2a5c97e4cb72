import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_API_KEY } from '../support/app.js';
import { startAdminHarness, type AdminHarness } from './admin-harness.js';

describe('GET /api/v1/admin/runs', () => {
  let harness: AdminHarness;
  const ids: { helper: string[]; timekeeper: string[]; failed: string } = { helper: [], timekeeper: [], failed: '' };

  beforeAll(async () => {
    harness = await startAdminHarness();
    const ask = async (model: string) =>
      (
        await harness.client.chat.completions
          .create({ model, messages: [{ role: 'user', content: `hi ${model}` }] })
          .withResponse()
      ).response.headers.get('x-run-id')!;
    for (let i = 0; i < 3; i += 1) ids.helper.push(await ask('helper'));
    ids.timekeeper.push(await ask('timekeeper'));
    harness.upstream.enqueue({ kind: 'error', status: 400 });
    ids.failed = (
      await harness.client.chat.completions
        .create({ model: 'helper', messages: [{ role: 'user', content: 'fail' }] })
        .withResponse()
        .catch((error: { headers: Headers }) => ({ response: error }))
    ).response.headers.get('x-run-id')!;
  });
  afterAll(() => harness.stop());

  it('lists runs newest first with the spec fields plus source, session and model', async () => {
    const { status, body } = await harness.admin('GET', '/runs');
    expect(status).toBe(200);
    expect(body.map((run: { run_id: string }) => run.run_id)).toEqual([
      ids.failed,
      ...ids.timekeeper,
      ...ids.helper.slice().reverse(),
    ]);
    expect(Object.keys(body[1]).sort()).toEqual(
      [
        'agent_name',
        'cost_usd',
        'end_user',
        'finished_at',
        'model',
        'run_id',
        'session_id',
        'source',
        'started_at',
        'status',
        'steps',
        'total_tokens',
      ].sort(),
    );
    expect(body[1]).toMatchObject({
      agent_name: 'timekeeper',
      status: 'completed',
      source: 'chat',
      session_id: expect.stringMatching(/^ses_/),
      model: 'upstream/test-model',
      total_tokens: 15,
      steps: 1,
    });
  });

  it('filters by agent and status, and pages with limit and offset', async () => {
    const helperRuns = (await harness.admin('GET', '/runs?agent_name=helper')).body;
    expect(helperRuns.map((run: { run_id: string }) => run.run_id)).toEqual([
      ids.failed,
      ...ids.helper.slice().reverse(),
    ]);
    const failed = (await harness.admin('GET', '/runs?status=failed')).body;
    expect(failed).toEqual([expect.objectContaining({ run_id: ids.failed, status: 'failed' })]);
    expect((await harness.admin('GET', '/runs?agent_name=timekeeper&status=failed')).body).toEqual([]);
    const page = (await harness.admin('GET', '/runs?agent_name=helper&limit=2&offset=1')).body;
    expect(page.map((run: { run_id: string }) => run.run_id)).toEqual(ids.helper.slice().reverse().slice(0, 2));
    expect((await harness.admin('GET', '/runs?offset=100')).body).toEqual([]);
    expect((await harness.admin('GET', '/runs?limit=500')).body).toHaveLength(5);
  });

  it('filters by source and by start time (since inclusive, until exclusive)', async () => {
    const all = (await harness.admin('GET', '/runs')).body as { run_id: string; started_at: string }[];
    expect((await harness.admin('GET', '/runs?source=chat')).body).toHaveLength(all.length);
    expect((await harness.admin('GET', '/runs?source=webhook')).body).toEqual([]);
    // The runs of the test, oldest first: [helper 0..2, timekeeper, failed].
    const oldestFirst = all.slice().reverse();
    const [, second, third] = oldestFirst;
    const window = (await harness.admin('GET', `/runs?since=${second.started_at}&until=${third.started_at}`)).body;
    const inWindow = oldestFirst.filter(
      (run) => run.started_at >= second.started_at && run.started_at < third.started_at,
    );
    expect(window.map((run: { run_id: string }) => run.run_id).sort()).toEqual(
      inWindow.map((run) => run.run_id).sort(),
    );
    expect(window.map((run: { run_id: string }) => run.run_id)).not.toContain(third.run_id);
    // A zone offset is the same instant: +01:00 an hour later on the clock.
    const later = new Date(new Date(third.started_at).getTime() + 3_600_000).toISOString().replace('Z', '+01:00');
    const sinceThird = (await harness.admin('GET', `/runs?since=${encodeURIComponent(later)}`)).body;
    expect(sinceThird.map((run: { run_id: string }) => run.run_id)).toContain(third.run_id);
    expect(sinceThird.map((run: { run_id: string }) => run.run_id)).not.toContain(oldestFirst[0].run_id);
    expect((await harness.admin('GET', '/runs?until=2000-01-01')).body).toEqual([]);
  });

  it('counts runs, failures and cost per hour over the last 24 hours, every hour present', async () => {
    const listed = (await harness.admin('GET', '/runs')).body as { cost_usd: number; started_at: string }[];
    const { status, body } = await harness.admin('GET', '/runs/timeseries');
    expect(status).toBe(200);
    expect(body.bucket).toBe('hour');
    // 24 hours back from now, rounded down to the hour: 25 buckets unless now is exactly on the hour.
    expect(body.points.length).toBeGreaterThanOrEqual(24);
    expect(body.points.length).toBeLessThanOrEqual(25);
    const hourOf = (iso: string) => `${iso.slice(0, 13)}:00:00.000Z`;
    const expected = new Map<string, { runs: number; cost: number }>();
    for (const run of listed) {
      const entry = expected.get(hourOf(run.started_at)) ?? { runs: 0, cost: 0 };
      expected.set(hourOf(run.started_at), { runs: entry.runs + 1, cost: entry.cost + run.cost_usd });
    }
    const busy = body.points.filter((point: { runs: number }) => point.runs > 0);
    expect(busy.map((point: { start: string }) => point.start)).toEqual([...expected.keys()].sort());
    expect(busy.reduce((sum: number, point: { failed: number }) => sum + point.failed, 0)).toBe(1);
    for (const point of busy) expect(point.cost_usd).toBeCloseTo(expected.get(point.start)!.cost, 9);
    const days = (await harness.admin('GET', '/runs/timeseries?bucket=day&since=2000-01-01&until=2000-01-03')).body;
    expect(days.points).toEqual([
      { start: '2000-01-01T00:00:00.000Z', runs: 0, failed: 0, cost_usd: 0 },
      { start: '2000-01-02T00:00:00.000Z', runs: 0, failed: 0, cost_usd: 0 },
    ]);
    const tooLong = await harness.admin('GET', '/runs/timeseries?since=2000-01-01&until=2000-03-01');
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error).toMatchObject({
      code: 'invalid_request',
      message: expect.stringContaining('at most 744'),
    });
    expect((await harness.admin('GET', '/runs/timeseries?bucket=minute')).body.error).toMatchObject({
      param: 'bucket',
    });
  });

  it('answers 400 naming the field for invalid filters and paging', async () => {
    const cases: [string, string][] = [
      ['limit=0', 'limit'],
      ['limit=501', 'limit'],
      ['limit=ten', 'limit'],
      ['limit=2.5', 'limit'],
      ['offset=-1', 'offset'],
      ['status=sleeping', 'status'],
      ['source=fax', 'source'],
      ['since=yesterday', 'since'],
      ['until=2026-13-01', 'until'],
      ['since=2026-02-01&until=2026-01-01', 'until'],
      ['colour=red', 'colour'],
    ];
    for (const [query, field] of cases) {
      const { status, body } = await harness.admin('GET', `/runs?${query}`);
      expect(status, query).toBe(400);
      expect(body.error, query).toMatchObject({
        type: 'invalid_request_error',
        param: field,
        message: expect.stringContaining(`querystring.${field}`),
      });
    }
  });

  it('shows one run with its steps, prompt logs, output and error; 404 for an unknown id', async () => {
    const { status, body } = await harness.admin('GET', `/runs/${ids.timekeeper[0]}`);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      run_id: ids.timekeeper[0],
      status: 'completed',
      output: 'echo: hi timekeeper',
      error: null,
      input_tokens: 10,
      output_tokens: 5,
      steps: 1,
      token_id: null,
    });
    expect(body.step_details).toEqual([
      expect.objectContaining({
        step_index: 0,
        kind: 'model',
        name: 'upstream/test-model',
        status: 'completed',
        prompt_log: expect.objectContaining({ response: 'echo: hi timekeeper', tools: ['get_current_time'] }),
      }),
    ]);
    expect(body.step_details[0].prompt_log.messages).toEqual([
      { role: 'system', content: 'You tell the time.' },
      { role: 'user', content: 'hi timekeeper' },
    ]);

    const failed = (await harness.admin('GET', `/runs/${ids.failed}`)).body;
    expect(failed).toMatchObject({
      status: 'failed',
      error: { code: expect.any(String), message: expect.any(String) },
    });

    const unknown = await harness.admin('GET', '/runs/run_unknown');
    expect(unknown).toMatchObject({ status: 404, body: { error: { code: 'run_not_found' } } });
  });

  it('is for operators only: an access token gets 403', async () => {
    const token = await harness.app.tokens.create({ agent_name: 'helper', scopes: ['chat'] });
    expect((await harness.admin('GET', '/runs', { key: token.token })).status).toBe(403);
    expect((await harness.admin('POST', `/runs/${ids.helper[0]}/cancel`, { key: token.token })).status).toBe(403);
    expect((await harness.admin('GET', '/status', { key: 'wrong-key-123456' })).status).toBe(401);
    expect((await harness.admin('GET', '/status', { key: TEST_API_KEY })).status).toBe(200);
  });
});
