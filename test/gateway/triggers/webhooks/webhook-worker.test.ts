import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { HandlerRunResult } from '../../../../src/gateway/triggers/index.js';
import { dialects, type TestDatabase } from '../../../support/databases.js';
import { startWebhookHarness, type WebhookHarness } from './webhook-harness.js';
import { hmacHex } from './signing.js';

const YAML = `
webhook_settings: { max_attempts: 3, backoff_seconds: 10, max_backoff_seconds: 15, lease_seconds: 60 }
webhooks:
  - name: single
    verification: hmac-sha256
    secret: worker-secret
    handlers:
      - { event: single.*, agent: billing, prompt: "bill {{id}}" }
  - name: pair
    verification: hmac-sha256
    secret: worker-secret
    handlers:
      - { event: pair.*, agent: billing, prompt: "bill {{id}}" }
      - { event: pair.*, agent: triage, prompt: "triage {{id}}" }
`;

const failed = (runId: string): HandlerRunResult => ({ runId, status: 'failed', error: 'model unavailable' });

for (const dialect of await dialects()) {
  describe.skipIf(dialect.skip)(`webhook worker on ${dialect.name}`, () => {
    let testDb: TestDatabase;
    let harness: WebhookHarness;
    let sequence = 0;
    beforeAll(async () => {
      testDb = await dialect.create();
      harness = await startWebhookHarness(YAML, { database: testDb });
    });
    afterAll(async () => {
      await harness.close();
      await testDb.drop();
    });
    beforeEach(() => {
      harness.runs.behaviour = (_request, index) => ({ runId: `run_${index}`, status: 'completed' });
    });

    async function deliver(name = 'single'): Promise<string> {
      const body = JSON.stringify({ type: 'order.created', id: `o-${++sequence}` });
      const response = await harness.post(name, body, { 'x-signature': hmacHex(body, 'worker-secret') });
      expect(response.status).toBe(202);
      return response.body.delivery_id as string;
    }
    const callsFor = (deliveryId: string) => harness.runs.calls.filter((call) => call.metadata.item_id === deliveryId);

    it('retries a failing handler with doubling backoff, then keeps the delivery as a dead letter', async () => {
      harness.runs.behaviour = (_request, index) => failed(`run_${index}`);
      const id = await deliver();
      await harness.worker.processDue();
      expect(await harness.store.get(id)).toMatchObject({
        status: 'pending',
        attempts: 1,
        last_error: expect.stringContaining('model unavailable'),
      });
      const first = await harness.store.get(id);
      expect(Date.parse(first!.next_attempt_at) - harness.clock.now().getTime()).toBe(10_000);

      harness.clock.advance(9);
      await harness.worker.processDue();
      expect(callsFor(id)).toHaveLength(1);
      harness.clock.advance(1);
      await harness.worker.processDue();
      expect(callsFor(id)).toHaveLength(2);
      const second = await harness.store.get(id);
      // 20 s doubled, capped at max_backoff_seconds.
      expect(Date.parse(second!.next_attempt_at) - harness.clock.now().getTime()).toBe(15_000);

      harness.clock.advance(15);
      await harness.worker.processDue();
      const final = await harness.store.get(id);
      expect(final).toMatchObject({ status: 'dead', attempts: 3, finished_at: harness.clock.now().toISOString() });
      expect(final!.run_ids).toHaveLength(3);
      expect((await harness.store.list({ status: 'dead' })).map((item) => item.item_id)).toContain(id);

      harness.clock.advance(3600);
      await harness.worker.processDue();
      expect(callsFor(id)).toHaveLength(3);

      // An operator's replay queues it again with fresh attempts.
      harness.runs.behaviour = (_request, index) => ({ runId: `run_${index}`, status: 'completed' });
      await harness.store.replay(id, harness.clock.now().toISOString());
      await harness.worker.processDue();
      expect(await harness.store.get(id)).toMatchObject({ status: 'done', attempts: 1 });
      expect(callsFor(id)).toHaveLength(4);
    });

    it('counts a start-up error of the runtime as a failed attempt', async () => {
      harness.runs.behaviour = () => {
        throw new Error('No agent named "billing"');
      };
      const id = await deliver();
      await harness.worker.processDue();
      expect(await harness.store.get(id)).toMatchObject({
        status: 'pending',
        attempts: 1,
        last_error: 'billing: No agent named "billing"',
      });
    });

    it('retries only the handlers that failed', async () => {
      let triageFailures = 1;
      harness.runs.behaviour = (request, index) =>
        request.agentName === 'triage' && triageFailures-- > 0
          ? failed(`run_${index}`)
          : { runId: `run_${index}`, status: 'completed' };
      const id = await deliver('pair');
      await harness.worker.processDue();
      expect(
        callsFor(id)
          .map((call) => call.agentName)
          .sort(),
      ).toEqual(['billing', 'triage']);
      expect(await harness.store.get(id)).toMatchObject({
        status: 'pending',
        completed_handlers: [expect.any(String)],
      });
      harness.clock.advance(10);
      await harness.worker.processDue();
      expect(
        callsFor(id)
          .map((call) => call.agentName)
          .sort(),
      ).toEqual(['billing', 'triage', 'triage']);
      const done = await harness.store.get(id);
      expect(done).toMatchObject({ status: 'done', attempts: 2 });
      expect(done!.run_ids).toHaveLength(3);
    });

    it('treats a run cancelled by an operator as handled', async () => {
      harness.runs.behaviour = (_request, index) => ({ runId: `run_${index}`, status: 'cancelled' });
      const id = await deliver();
      await harness.worker.processDue();
      expect(await harness.store.get(id)).toMatchObject({ status: 'done', attempts: 1 });
    });

    it('runs a delivery accepted before a crash, once a worker starts after the restart', async () => {
      const pending = await deliver();
      const claimed = await deliver();
      // The crashed process had claimed one of them; its lease is still running.
      await harness.store.claimDue({
        now: harness.clock.now().toISOString(),
        workerId: 'crashed',
        leaseUntil: new Date(harness.clock.now().getTime() + 60_000).toISOString(),
        limit: 10,
        kinds: ['webhook'],
      });
      const restarted = harness.createWorker({ reclaimAllOnStart: true });
      await restarted.start();
      await restarted.processDue();
      await restarted.stop();
      expect(callsFor(pending)).toHaveLength(1);
      expect(callsFor(claimed)).toHaveLength(1);
      expect(await harness.store.get(claimed)).toMatchObject({ status: 'done', attempts: 2 });
    });

    it('leaves another live worker its claim, and takes it over once the lease lapses', async () => {
      const id = await deliver();
      await harness.store.claimDue({
        now: harness.clock.now().toISOString(),
        workerId: 'replica-a',
        leaseUntil: new Date(harness.clock.now().getTime() + 60_000).toISOString(),
        limit: 10,
        kinds: ['webhook'],
      });
      const replica = harness.createWorker();
      await replica.start();
      await replica.processDue();
      expect(callsFor(id)).toHaveLength(0);
      harness.clock.advance(61);
      await replica.processDue();
      await replica.stop();
      expect(callsFor(id)).toHaveLength(1);
    });

    it('never runs one delivery twice when two workers poll together', async () => {
      const ids = await Promise.all(Array.from({ length: 12 }, () => deliver()));
      const [a, b] = [harness.createWorker(), harness.createWorker()];
      await Promise.all([a.processDue(), b.processDue(), harness.worker.processDue()]);
      for (const id of ids) expect(callsFor(id)).toHaveLength(1);
    });

    it('leaves a delivery whose run ends during shutdown pending, without counting the attempt', async () => {
      const finishers: ((result: HandlerRunResult) => void)[] = [];
      harness.runs.behaviour = () => new Promise((resolve) => finishers.push(resolve));
      const worker = harness.createWorker();
      await worker.start();
      const id = await deliver();
      worker.wake();
      await vi.waitFor(() => expect(callsFor(id)).toHaveLength(1));
      const stopped = worker.stop();
      for (const finish of finishers) finish({ runId: 'run_interrupted', status: 'cancelled' });
      await stopped;
      expect(await harness.store.get(id)).toMatchObject({
        status: 'pending',
        attempts: 0,
        run_ids: ['run_interrupted'],
      });
    });
  });
}
