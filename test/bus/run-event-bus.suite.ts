import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RunControlCommand, RunEvent, RunEventBus } from '../../src/bus/index.js';
import { createId } from '../../src/ids.js';
import { collect, delta, publishRun, range, runEnd, runStart, seqs, tick } from './bus-test-helpers.js';

export interface BusFactoryOptions {
  logLimit?: number;
  retentionMs?: number;
}

/** The behaviour every RunEventBus implementation must show; each implementation's test file calls this. */
export function describeRunEventBus(name: string, createBus: (options?: BusFactoryOptions) => RunEventBus): void {
  describe(`${name}: shared behaviour`, () => {
    const buses: RunEventBus[] = [];
    const open = (options?: BusFactoryOptions): RunEventBus => {
      const bus = createBus(options);
      buses.push(bus);
      return bus;
    };
    afterEach(async () => {
      await Promise.all(buses.splice(0).map((bus) => bus.close()));
    });

    it('numbers events 1, 2, 3… in publish order, also when publishes are not awaited one by one', async () => {
      const bus = open();
      const runId = createId('run');
      const published = await Promise.all(range(1, 100).map((i) => bus.publish(runId, delta(`d${i}`))));
      expect(seqs(published)).toEqual(range(1, 100));
      const history = await bus.history(runId);
      expect(history.map((event) => (event.type === 'text-delta' ? event.delta : ''))).toEqual(
        range(1, 100).map((i) => `d${i}`),
      );
      expect(history[0]).toMatchObject({ runId, seq: 1, type: 'text-delta', at: expect.stringMatching(/Z$/) });
    });

    it('gives a subscriber the whole run in order and ends after run-end', async () => {
      const bus = open();
      const runId = createId('run');
      const seen = collect(bus.subscribe(runId));
      await publishRun(bus, runId, 20);
      const events = await seen;
      expect(seqs(events)).toEqual(range(1, 22));
      expect(events.at(-1)?.type).toBe('run-end');
    });

    it('ends a subscription after run-error too', async () => {
      const bus = open();
      const runId = createId('run');
      await bus.publish(runId, runStart);
      const seen = collect(bus.subscribe(runId));
      await bus.publish(runId, { type: 'run-error', code: 'cancelled', message: 'Run was cancelled' });
      expect((await seen).map((event) => event.type)).toEqual(['run-start', 'run-error']);
    });

    it('gives late subscribers the full past then live events, with no gap or duplicate, while publishing', async () => {
      const bus = open();
      const runId = createId('run');
      const total = 300;
      const subscriptions: Promise<RunEvent[]>[] = [];
      const publishing = (async () => {
        await bus.publish(runId, runStart);
        for (let i = 1; i <= total; i += 1) {
          await bus.publish(runId, delta(`d${i}`));
          if (i % 40 === 0) subscriptions.push(collect(bus.subscribe(runId)));
          if (i % 25 === 0) await tick();
        }
        await bus.publish(runId, runEnd);
      })();
      subscriptions.push(collect(bus.subscribe(runId)));
      await publishing;
      subscriptions.push(collect(bus.subscribe(runId)));
      for (const events of await Promise.all(subscriptions)) expect(seqs(events)).toEqual(range(1, total + 2));
    });

    it('resumes after afterSeq, on a running and on a finished run', async () => {
      const bus = open();
      const runId = createId('run');
      await publishRun(bus, runId, 5, false);
      const resumed = collect(bus.subscribe(runId, { afterSeq: 3 }));
      await bus.publish(runId, delta('d6'));
      await bus.publish(runId, runEnd);
      expect(seqs(await resumed)).toEqual([4, 5, 6, 7, 8]);
      expect(seqs(await collect(bus.subscribe(runId, { afterSeq: 6 })))).toEqual([7, 8]);
      expect(await collect(bus.subscribe(runId, { afterSeq: 8 }))).toEqual([]);
    });

    it('ends the iteration without an error when the signal aborts', async () => {
      const bus = open();
      const runId = createId('run');
      const controller = new AbortController();
      await bus.publish(runId, runStart);
      const seen = collect(bus.subscribe(runId, { signal: controller.signal }), () => controller.abort());
      await expect(seen).resolves.toHaveLength(1);
      const waiting = new AbortController();
      const idle = collect(bus.subscribe(createId('run'), { signal: waiting.signal }));
      await tick(20);
      waiting.abort();
      await expect(idle).resolves.toEqual([]);
      expect(await collect(bus.subscribe(runId, { signal: AbortSignal.abort() }))).toEqual([]);
    });

    it('keeps only the last logLimit events', async () => {
      const bus = open({ logLimit: 10 });
      const runId = createId('run');
      await publishRun(bus, runId, 23);
      expect(seqs(await bus.history(runId))).toEqual(range(16, 25));
      expect(seqs(await collect(bus.subscribe(runId)))).toEqual(range(16, 25));
    });

    it('ends a subscriber that falls further behind than the log holds with subscriber_lagging', async () => {
      const bus = open({ logLimit: 10 });
      const runId = createId('run');
      const slow = bus.subscribe(runId)[Symbol.asyncIterator]();
      const first = slow.next();
      const fast = collect(bus.subscribe(runId));
      await bus.publish(runId, runStart);
      expect((await first).value?.seq).toBe(1);
      for (let i = 1; i <= 30; i += 1) {
        await bus.publish(runId, delta(`d${i}`));
        await tick(0); // a real run yields to I/O between deltas, so live readers keep up
      }
      await bus.publish(runId, runEnd);
      expect(seqs(await fast)).toEqual(range(1, 32));
      // The fast reader saw the end, so the slow reader's next event has left this process's window.
      await expect(slow.next()).rejects.toMatchObject({ code: 'subscriber_lagging' });
    });

    it('forgets a finished run after the retention period', async () => {
      const bus = open({ retentionMs: 30 });
      const runId = createId('run');
      await publishRun(bus, runId, 2);
      expect(await bus.history(runId)).toHaveLength(4);
      await vi.waitFor(async () => expect(await bus.history(runId)).toEqual([]), { timeout: 5000, interval: 20 });
    });

    it('serves a thousand subscribers of one run', async () => {
      const bus = open();
      const runId = createId('run');
      const subscriptions = range(1, 1000).map(() => collect(bus.subscribe(runId)));
      await publishRun(bus, runId, 50);
      const results = await Promise.all(subscriptions);
      for (const events of results) expect(events).toHaveLength(52);
    });

    it('delivers control commands to every handler until it unregisters', async () => {
      const bus = open();
      const received: [string, RunControlCommand][] = [];
      const stop = bus.onControl((runId, command) => received.push([runId, command]));
      bus.onControl(() => {
        throw new Error('a failing handler must not stop the others');
      });
      // Stays registered: once it has the cancel, the one that unregistered has had its chance to get it too.
      const witness: RunControlCommand[] = [];
      bus.onControl((_runId, command) => witness.push(command));
      await bus.sendControl('run_a', 'pause');
      await bus.sendControl('run_a', 'resume');
      stop();
      await bus.sendControl('run_a', 'cancel');
      await vi.waitFor(() => expect(witness).toEqual(['pause', 'resume', 'cancel']));
      expect(received).toEqual([
        ['run_a', 'pause'],
        ['run_a', 'resume'],
      ]);
    });

    it('ends waiting subscriptions on close and answers ping', async () => {
      const bus = open();
      expect(await bus.ping()).toBe(true);
      const runId = createId('run');
      await bus.publish(runId, runStart);
      const seen = collect(bus.subscribe(runId));
      await tick(20);
      await bus.close();
      expect(seqs(await seen)).toEqual([1]);
      expect(await bus.ping()).toBe(false);
      await expect(bus.publish(runId, runStart)).rejects.toMatchObject({ code: 'bus_closed', status: 503 });
    });
  });
}
