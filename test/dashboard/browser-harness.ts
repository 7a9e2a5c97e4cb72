import { existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import type { AxeResults, RunOptions } from 'axe-core';
import OpenAI from 'openai';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startFakeBlueprintService, type FakeBlueprintService } from '../autopilot/fake-blueprint-service.js';
import { startTestApp, TEST_API_KEY, type TestApp } from '../support/app.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';

export const CHROMIUM = '/usr/bin/chromium';
export const WEBHOOK_SECRET = 'dashboard-webhook-secret';
// The committed screenshots are refreshed on request only, so a test run leaves the tree clean.
export const SCREENSHOTS_DIR =
  process.env.UPDATE_SCREENSHOTS === '1'
    ? fileURLToPath(new URL('../../docs/screenshots/', import.meta.url))
    : join(tmpdir(), 'agent-gateway-screenshots/');

/** Why the browser tests cannot run here, or undefined. Under CI they must run: a missing browser is a failure there. */
export function browserSkipReason(): string | undefined {
  if (existsSync(CHROMIUM)) return undefined;
  if (process.env.CI === 'true') throw new Error(`${CHROMIUM} is missing under CI=true: run .ci/ensure-services`);
  return `dashboard browser tests skipped: ${CHROMIUM} not found (apt-get install chromium)`;
}

const yaml = `
auth:
  api_keys: ["\${TEST_API_KEY}"]
providers:
  upstream: { type: openai-compatible, base_url: "\${UPSTREAM_URL}", max_retries: 0, timeout_ms: 30000 }
agents:
  - name: helper
    model: upstream/test-model
    system_prompt: You are a helpful assistant.
    description: Answers questions.
  - name: timekeeper
    model: upstream/test-model
    system_prompt: You tell the time.
    tools: [get_current_time]
webhook_settings: { max_attempts: 1 }
webhooks:
  - name: orders
    verification: hmac-sha256
    secret: \${WEBHOOK_SECRET}
    handlers:
      - { event: orders.*, agent: helper, prompt: "order {{id}}" }
autopilot:
  service_url: "\${BLUEPRINT_SERVICE_URL}"
  model: upstream/test-model
  scheduler_poll_ms: 0
`;

export interface DashboardHarness {
  app: TestApp;
  upstream: FakeUpstream;
  service: FakeBlueprintService;
  client: OpenAI;
  browser: Browser;
  page: Page;
  /** What Chromium reported blocking under the dashboard's Content-Security-Policy, as the test went. */
  cspViolations: string[];
  stop(): Promise<void>;
}

/** A real gateway on a random port between a fake upstream and a fake blueprint service, and one Chromium page. */
export async function startDashboard(): Promise<DashboardHarness> {
  const upstream = await startFakeUpstream();
  const service = await startFakeBlueprintService();
  const app = await startTestApp(yaml, {
    env: { UPSTREAM_URL: upstream.url, BLUEPRINT_SERVICE_URL: service.url, WEBHOOK_SECRET },
  });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, baseURL: app.url });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  const cspViolations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
  });
  return {
    cspViolations,
    app,
    upstream,
    service,
    client: new OpenAI({ baseURL: `${app.url}/v1`, apiKey: TEST_API_KEY, maxRetries: 0 }),
    browser,
    page,
    async stop() {
      await browser.close();
      await app.stop();
      await Promise.all([upstream.close(), service.close()]);
    },
  };
}

/**
 * Opens a page of the dashboard the way its links do (history.pushState, which the router follows), without
 * loading the app again; the first visit loads it. Returns once the new page's heading is there.
 */
export async function visit(page: Page, path: string): Promise<void> {
  const here = new URL(page.url()).pathname;
  if (here === path) return;
  if (!here.startsWith('/ui')) {
    await page.goto(path);
    return;
  }
  // A heading left from the previous page must not count as the new one's.
  await page.evaluate(
    `for (const heading of document.querySelectorAll('main h1')) heading.setAttribute('data-left', '');
     history.pushState(null, '', ${JSON.stringify(path)});`,
  );
  await page.locator('main h1:not([data-left])').first().waitFor();
}

/** Waits until no loading state is shown (every query of the page answered). */
export async function settled(page: Page): Promise<void> {
  await page.locator('main h1').first().waitFor();
  // Not waitForFunction with a string: the page would compile it, and its CSP (no 'unsafe-eval') refuses that.
  await page.waitForSelector('[role="status"]', { state: 'detached' });
}

const AXE_SOURCE = (createRequire(import.meta.url)('axe-core') as { source: string }).source;

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/** Serious and critical axe violations of the page, as "rule: target" lines. */
export async function seriousViolations(page: Page, rules?: string[]): Promise<string[]> {
  // axe is injected once per loaded app (pages change by client-side routing), not once per check as AxeBuilder does.
  if (!(await page.evaluate('typeof window.axe === "object"'))) await page.evaluate(AXE_SOURCE);
  const runOnly = rules ? { type: 'rule', values: rules } : { type: 'tag', values: WCAG_TAGS };
  // Only violations are collected: gathering passes and incomplete results would double the time of each check.
  const options = { runOnly, resultTypes: ['violations'] } as RunOptions;
  const { violations } = await page.evaluate<AxeResults>(`axe.run(document, ${JSON.stringify(options)})`);
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .flatMap((violation) => violation.nodes.map((node) => `${violation.id}: ${node.target.join(' ')}`));
}

export function screenshotPath(name: string): string {
  mkdirSync(SCREENSHOTS_DIR, { recursive: true });
  return `${SCREENSHOTS_DIR}${name}.png`;
}
