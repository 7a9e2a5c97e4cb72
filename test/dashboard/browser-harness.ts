import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { AxeBuilder } from '@axe-core/playwright';
import OpenAI from 'openai';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startFakeBlueprintService, type FakeBlueprintService } from '../autopilot/fake-blueprint-service.js';
import { startTestApp, TEST_API_KEY, type TestApp } from '../support/app.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';

export const CHROMIUM = '/usr/bin/chromium';
export const SCREENSHOTS_DIR = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));

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
  stop(): Promise<void>;
}

/** A real gateway on a random port between a fake upstream and a fake blueprint service, and one Chromium page. */
export async function startDashboard(): Promise<DashboardHarness> {
  const upstream = await startFakeUpstream();
  const service = await startFakeBlueprintService();
  const app = await startTestApp(yaml, { env: { UPSTREAM_URL: upstream.url, BLUEPRINT_SERVICE_URL: service.url } });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, baseURL: app.url });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  return {
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

/** Waits until no loading state is shown (every query of the page answered). */
export async function settled(page: Page): Promise<void> {
  await page.locator('main h1').first().waitFor();
  await page.waitForFunction('!document.querySelector(\'[role="status"]\')');
}

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/** Serious and critical axe violations of the page, as "rule: target" lines. */
export async function seriousViolations(page: Page, rules?: string[]): Promise<string[]> {
  // Only violations are collected: gathering passes and incomplete results would double the time of each check.
  const builder = new AxeBuilder({ page }).options({ resultTypes: ['violations'] });
  const { violations } = await (rules ? builder.withRules(rules) : builder.withTags(WCAG_TAGS)).analyze();
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .flatMap((violation) => violation.nodes.map((node) => `${violation.id}: ${node.target.join(' ')}`));
}

export function screenshotPath(name: string): string {
  mkdirSync(SCREENSHOTS_DIR, { recursive: true });
  return `${SCREENSHOTS_DIR}${name}.png`;
}
