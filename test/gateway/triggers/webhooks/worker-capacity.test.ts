import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, type TestDatabase } from '../../../support/databases.js';
import { hmacHex } from './signing.js';
import { startWebhookHarness, type WebhookHarness } from './webhook-harness.js';

const YAML = `
webhook_settings: { concurrency: 2, poll_interval_ms: 3600000 }
webhooks:
  - name: burst
    verification: hmac-sha256
    secret: burst-secret
    handlers:
      - { event: burst.*, agent: billing, prompt: "bill {{id}}" }
`;

// The worker's poll timer is set to an hour: only the wake-ups (stored, finished) can drive it.
for (const dialect of await dialects()) {
  describe.skipIf(dialect.skip)(`a started webhook worker filled past its capacity on ${dialect.name}`, () => {
    let testDb: TestDatabase;
    let harness: WebhookHarness;
    beforeAll(async () => {
      testDb = await dialect.create();
      harness = await startWebhookHarness(YAML, { database: testDb });
      await harness.worker.start();
    });
    afterAll(async () => {
      await harness.close();
      await testDb.drop();
    });

    it('runs every delivery of a burst twenty times its concurrency, each once', async () => {
      let running = 0;
      let peak = 0;
      harness.runs.behaviour = async (_request, index) => {
        running += 1;
        peak = Math.max(peak, running);
        await new Promise((resolve) => setTimeout(resolve, 5));
        running -= 1;
        return { runId: `run_${index}`, status: 'completed' };
      };
      const ids = await Promise.all(
        Array.from({ length: 40 }, async (_, n) => {
          const body = JSON.stringify({ type: 'order.created', id: `o-${n}` });
          const response = await harness.post('burst', body, { 'x-signature': hmacHex(body, 'burst-secret') });
          expect(response.status).toBe(202);
          return response.body.delivery_id as string;
        }),
      );
      await expect.poll(async () => (await harness.store.stats())[0]?.done, { timeout: 20_000, interval: 50 }).toBe(40);
      const handled = new Set(harness.runs.calls.map((call) => call.metadata.item_id));
      expect([...handled].sort()).toEqual([...ids].sort());
      expect(peak).toBeLessThanOrEqual(2);
    });
  });
}
