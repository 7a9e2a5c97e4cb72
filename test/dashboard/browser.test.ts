import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_API_KEY } from '../support/app.js';
import { createFirehoseStats } from '../support/fake-upstream.js';
import { json, ONE_OFF_REPORT, VENDOR_WATCH } from '../autopilot/blueprints.js';
import {
  browserSkipReason,
  screenshotPath,
  seriousViolations,
  settled,
  startDashboard,
  visit,
  WEBHOOK_SECRET,
  type DashboardHarness,
} from './browser-harness.js';

const skip = browserSkipReason();
if (skip) console.warn(skip);

/** What a held run says: `lorem ipsum ` per chunk (the fake upstream's firehose). */
const CHUNK = 'lorem ipsum ';

describe.skipIf(skip !== undefined)('the dashboard in Chromium', () => {
  let h: DashboardHarness;
  const ids: { run?: string; mission?: string } = {};
  beforeAll(async () => {
    h = await startDashboard();
  });
  afterAll(() => h?.stop());

  /**
   * Starts a streamed chat run whose upstream answer waits at chunk `holdAt` until `release()` is called: the run
   * stays running exactly as long as the test needs (no timed answer). The stream is read in the background.
   */
  async function startHeldRun(holdAt: number) {
    let release!: () => void;
    const open = new Promise<void>((resolve) => (release = resolve));
    h.upstream.enqueue({
      kind: 'firehose',
      chunks: holdAt + 3,
      chunkBytes: 12,
      stats: createFirehoseStats(),
      gates: [{ at: holdAt, open }],
    });
    const { data, response } = await h.client.chat.completions
      .create({ model: 'helper', messages: [{ role: 'user', content: 'tell me' }], stream: true })
      .withResponse();
    const done = (async () => {
      try {
        for await (const chunk of data) void chunk;
      } catch {
        // a cancelled run ends its stream with an error
      }
    })();
    return { runId: response.headers.get('x-run-id')!, release, done };
  }

  const status = (value: string) => h.page.locator('[data-testid="run-status"]', { hasText: value });

  it('signs in with the API key; the cookie is HttpOnly and SameSite=Strict', async () => {
    const { page } = h;
    await page.goto('/ui/');
    await page.getByLabel('API key or JWT').fill(TEST_API_KEY);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    const cookie = (await page.context().cookies()).find((item) => item.name === 'service_auth');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
  });

  it('shows a run started by the test without a reload, then its detail until it finishes', async () => {
    const { page } = h;
    await page.getByRole('link', { name: 'Runs', exact: true }).click();
    await page.getByRole('heading', { name: 'Runs' }).waitFor();
    // The table follows the runs event stream (it does not poll): the run is started once the stream is open.
    await page.getByTestId('live-state').getByText('Live').waitFor();
    const { runId, release, done } = await startHeldRun(2);
    ids.run = runId;
    const row = page.locator(`tr[data-run-id="${runId}"]`);
    await row.getByText('running').waitFor();
    await row.getByRole('link', { name: runId }).click();
    await page.getByRole('heading', { name: `Run ${runId}` }).waitFor();
    // The live stream shows the first two chunks while the upstream holds the rest, then the run ends with all five.
    await page.locator('[data-testid="live-text"]', { hasText: CHUNK.repeat(2).trim() }).waitFor();
    await status('running').waitFor();
    release();
    await status('completed').waitFor();
    await page.locator('[data-testid="run-output"]', { hasText: CHUNK.repeat(5).trim() }).waitFor();
    await page.getByText('Model call upstream/test-model').waitFor();
    await done;
  });

  it('pauses and resumes a slow run', async () => {
    const { page } = h;
    const { runId, release, done } = await startHeldRun(1);
    await visit(page, `/ui/runs/${runId}`);
    await status('running').waitFor();
    await page.getByRole('button', { name: 'Pause' }).click();
    await status('paused').waitFor();
    await page.getByRole('button', { name: 'Resume' }).click();
    await status('running').waitFor();
    release();
    await status('completed').waitFor();
    await page.locator('[data-testid="run-output"]', { hasText: CHUNK.repeat(4).trim() }).waitFor();
    await done;
  });

  it('cancels a running run', async () => {
    const { page } = h;
    const { runId, release, done } = await startHeldRun(1);
    await visit(page, `/ui/runs/${runId}`);
    await status('running').waitFor();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await status('cancelled').waitFor();
    await page.getByText('cancelled:').first().waitFor();
    release();
    await done;
  });

  it('creates a token and shows its plaintext once', async () => {
    const { page } = h;
    await visit(page, '/ui/tokens');
    await page.getByRole('heading', { name: 'Access tokens' }).waitFor();
    await page.getByRole('button', { name: 'Create token' }).click();
    const plaintext = page.locator('[data-testid="token-plaintext"]');
    const token = (await plaintext.textContent({ timeout: 10_000 })) ?? '';
    expect(token).toMatch(/^sat-/);
    const row = page.locator('tr', { hasText: `…${token.slice(-4)}` });
    await row.getByText('active').waitFor();
    await page.getByRole('button', { name: 'Done' }).click();
    await plaintext.waitFor({ state: 'detached' });
    await page.reload();
    await row.waitFor();
    expect(await page.content()).not.toContain(token);
  });

  it('chats in the playground and shows the streamed answer', async () => {
    const { page } = h;
    h.upstream.enqueue({
      kind: 'text',
      text: 'Hello from the playground, streamed in pieces.',
      chunks: 6,
      chunkDelayMs: 50,
    });
    await visit(page, '/ui/agents/helper');
    await page.getByRole('heading', { name: 'Playground' }).waitFor();
    await page.getByLabel('Message').fill('Say hello');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('button', { name: 'Streaming…' }).waitFor();
    await page
      .locator('[data-testid="chat"] .turn-agent', { hasText: 'Hello from the playground, streamed in pieces.' })
      .waitFor();
    await page.getByRole('button', { name: 'Send' }).waitFor();
  });

  it('routes a goal to a draft mission and approves it', async () => {
    const { page } = h;
    const enabled = await fetch(`${h.app.url}/api/v1/autopilot/enable`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_API_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ tier: 'anonymous' }),
    });
    expect(enabled.status).toBe(200);
    h.service.candidates = () => [{ blueprint_json: json(VENDOR_WATCH), score: 0.91 }];
    await visit(page, '/ui/autopilot');
    await page.getByLabel('Goal', { exact: true }).fill('watch vendor prices vendors=acme,globex schedule="0 9 * * 1"');
    await page.getByRole('button', { name: 'Route' }).click();
    const result = page.locator('[data-testid="routing-result"]');
    await result.getByText('Auto-routed to').waitFor();
    await result.getByText('vendor-watch').waitFor();
    await result.getByRole('link', { name: /^mis_/ }).click();
    await page.getByRole('heading', { name: 'Vendor price watch' }).waitFor();
    ids.mission = new URL(page.url()).pathname.split('/').pop();
    await page.locator('[data-testid="mission-status"]', { hasText: 'draft' }).waitFor();
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.locator('[data-testid="mission-status"]', { hasText: 'scheduled' }).waitFor();
  });

  it('routes a goal to a picker, chooses a blueprint, and synthesizes one when none fits', async () => {
    const { page } = h;
    const result = page.locator('[data-testid="routing-result"]');
    h.service.candidates = () => [
      { blueprint_json: json(ONE_OFF_REPORT), score: 0.8 },
      { blueprint_json: json({ ...ONE_OFF_REPORT, id: 'other-report', title: 'Other report' }), score: 0.7 },
    ];
    await visit(page, '/ui/autopilot');
    const goal = page.getByLabel('Goal', { exact: true });
    await goal.fill('quokka zebra digest topic=owls');
    await page.getByRole('button', { name: 'Route' }).click();
    await result.getByText('Several blueprints fit').waitFor();
    await result
      .locator('li', { hasText: 'Other report (score 0.70)' })
      .getByRole('button', { name: 'Choose' })
      .click();
    await page.getByText('Draft mission created:').getByRole('link', { name: 'Other report' }).waitFor();

    h.service.candidates = () => [];
    h.service.generated = () => ({
      blueprint_json: json({ ...ONE_OFF_REPORT, id: 'owl-report', title: 'Owl report' }),
      confidence: 0.8,
    });
    await goal.fill('quokka zebra memo topic=owls');
    await page.getByRole('button', { name: 'Route' }).click();
    await result.getByRole('button', { name: 'Synthesize a blueprint' }).click();
    await page.getByText('Draft mission created:').getByRole('link', { name: 'Owl report' }).click();
    await page.getByRole('heading', { name: 'Owl report' }).waitFor();
  });

  it('applies a healing recommendation to a failed mission, which then completes', async () => {
    const { page } = h;
    // The first node answers, the second meets a provider outage; the healed retry gets an answer.
    h.upstream.enqueue({ kind: 'text', text: 'first draft' }, { kind: 'error', status: 503 });
    const call = (method: string, path: string, body?: unknown) =>
      fetch(`${h.app.url}/api/v1/autopilot${path}`, {
        method,
        headers: { authorization: `Bearer ${TEST_API_KEY}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const created = await call('POST', '/missions', {
      blueprint_json: json({ ...ONE_OFF_REPORT, id: 'heal-report', title: 'Report to heal' }),
      slots: { topic: 'healing' },
    });
    const { mission_id: missionId } = (await created.json()) as { mission_id: string };
    await visit(page, `/ui/autopilot/missions/${missionId}`);
    await page.getByRole('button', { name: 'Approve' }).click();
    const status = page.locator('[data-testid="mission-status"]');
    await status.getByText('failed').waitFor();
    h.upstream.enqueue({ kind: 'text', text: 'polished report' });
    await page.getByRole('button', { name: 'Apply retry_step' }).click();
    await status.getByText('completed').waitFor();
    await page.getByText('polished report').first().waitFor();
  });

  it('replays a dead webhook delivery from the Triggers page; the replay runs, the delivery is done, its run names it', async () => {
    const { page } = h;
    // One attempt only (webhook_settings.max_attempts: 1): the run fails on the upstream error and the delivery is dead.
    h.upstream.enqueue({ kind: 'error', status: 400 });
    const body = JSON.stringify({ type: 'created', id: 'o-1' });
    const posted = await fetch(`${h.app.url}/webhooks/orders`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-signature': createHmac('sha256', WEBHOOK_SECRET).update(body).digest('hex'),
      },
      body,
    });
    expect(posted.status).toBe(202);
    const { delivery_id: deliveryId } = (await posted.json()) as { delivery_id: string };
    await visit(page, '/ui/triggers');
    const row = page.locator('table[aria-label="Deliveries"] tr', { hasText: deliveryId });
    await row.getByText('dead').waitFor();
    await row.getByRole('button', { name: `Replay ${deliveryId}` }).click();
    await row.getByText('done').waitFor();
    expect(await row.getByRole('link').count()).toBe(2);
    // Each of the delivery's runs says which inbox item started it.
    await row.getByRole('link').last().click();
    await page.getByTestId('triggered-by').getByText(deliveryId).waitFor();
    expect(await page.getByTestId('triggered-by').textContent()).toContain('webhook:orders');
  });

  it('charts the tokens the test produced, by model', async () => {
    const { page } = h;
    const usage = (await (
      await fetch(`${h.app.url}/analytics/usage`, { headers: { authorization: `Bearer ${TEST_API_KEY}` } })
    ).json()) as { by_model: Record<string, number> };
    const tokens = usage.by_model['upstream/test-model'];
    // Three chat runs and a playground chat reached the upstream, 15 tokens each at least (the cancelled one may be unbilled).
    expect(tokens).toBeGreaterThanOrEqual(4 * 15);
    await visit(page, '/ui/analytics');
    const chart = page.getByRole('figure').filter({ hasText: 'Tokens per day by model' });
    await chart.locator('canvas').first().waitFor();
    await chart
      .locator('.legend li', { hasText: 'upstream/test-model' })
      .getByText(`${tokens.toLocaleString('en-US')} tokens`)
      .waitFor();
  });

  it('charts the runs of the last 24 hours on the overview, as the time series API counts them', async () => {
    const { page } = h;
    const series = (await (
      await fetch(`${h.app.url}/api/v1/admin/runs/timeseries`, { headers: { authorization: `Bearer ${TEST_API_KEY}` } })
    ).json()) as { points: { runs: number; failed: number }[] };
    const runs = series.points.reduce((sum, point) => sum + point.runs, 0);
    // The held, paused and cancelled runs, the playground chat and the mission preview at least.
    expect(runs).toBeGreaterThanOrEqual(4);
    await visit(page, '/ui/');
    const chart = page.getByRole('figure').filter({ hasText: 'Runs, cost and failures per hour' });
    await chart.locator('.legend li', { hasText: 'Runs' }).getByText(`${runs} runs`).waitFor();
  });

  const PAGES: [string, () => string][] = [
    ['overview', () => '/ui/'],
    ['runs', () => '/ui/runs'],
    ['run-detail', () => `/ui/runs/${ids.run}`],
    ['agents', () => '/ui/agents'],
    ['agent-detail', () => '/ui/agents/helper'],
    ['analytics', () => '/ui/analytics'],
    ['tokens', () => '/ui/tokens'],
    ['triggers', () => '/ui/triggers'],
    ['autopilot', () => '/ui/autopilot'],
    ['mission-detail', () => `/ui/autopilot/missions/${ids.mission}`],
    ['budgets', () => '/ui/budgets'],
  ];

  // The themes change colours only: the light pass runs every WCAG A/AA rule, the dark pass (the same page, the
  // scheme switched in place) the contrast rule. Pages are reached by the app's own routing, as a user clicks.
  it.each(PAGES)(
    '%s: no serious or critical axe violation in light or dark; screenshots of both',
    async (name, path) => {
      const { page } = h;
      await visit(page, path());
      await settled(page);
      const found = (await seriousViolations(page)).map((line) => `light: ${line}`);
      await page.screenshot({ path: screenshotPath(`${name}-light`) });
      await page.emulateMedia({ colorScheme: 'dark' });
      found.push(...(await seriousViolations(page, ['color-contrast'])).map((line) => `dark: ${line}`));
      await page.screenshot({ path: screenshotPath(`${name}-dark`) });
      await page.emulateMedia({ colorScheme: 'light' });
      expect(found).toEqual([]);
    },
  );

  it('the accessibility check finds what it looks for', async () => {
    const { page } = h;
    await page.evaluate(
      `document.querySelector('main').insertAdjacentHTML('beforeend',
        '<input id="probe-input"><p id="probe-text" style="color:#eee;background:#fff">faint</p>')`,
    );
    const found = await seriousViolations(page);
    await page.evaluate(`for (const id of ['probe-input', 'probe-text']) document.getElementById(id).remove()`);
    expect(found).toEqual(expect.arrayContaining(['label: #probe-input', 'color-contrast: #probe-text']));
  });

  it('fits a 390 px phone and the keyboard reaches the skip link first', async () => {
    const { page } = h;
    await page.setViewportSize({ width: 390, height: 844 });
    for (const path of ['/ui/', '/ui/runs', '/ui/tokens', '/ui/autopilot']) {
      await visit(page, path);
      await settled(page);
      const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
      expect(overflow, path).toBeLessThanOrEqual(0);
    }
    // A fresh load, as a keyboard user arrives.
    await page.goto('/ui/autopilot');
    await settled(page);
    await page.keyboard.press('Tab');
    expect(await page.evaluate<string | undefined>('document.activeElement?.textContent')).toBe('Skip to content');
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('ran every page above under its Content-Security-Policy without one violation', async () => {
    // The page and its policy arrive together: a blocked script, style, image or request would be reported here.
    const csp = (await h.page.request.get('/ui/')).headers()['content-security-policy'];
    expect(csp).toContain("script-src 'self'");
    expect(h.cspViolations).toEqual([]);
  });

  it('signs out and shows the sign-in form again', async () => {
    const { page } = h;
    await visit(page, '/ui/');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to Agent Gateway' }).waitFor();
    expect((await page.context().cookies()).some((item) => item.name === 'service_auth')).toBe(false);
  });
});
