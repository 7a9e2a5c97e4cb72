import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { startReplicas, type Replicas } from './replica-harness.js';
import { startSseSource, type SseSource } from './sse-source.fixture.js';
import { FAST_SETTINGS_YAML, startTriggerHarness, waitForState, type TriggerHarness } from '../trigger-harness.js';

// Issue 14: an external SSE source is read by one replica at a time, and a silent one is detected.
const yaml = (url: string, extra = '') => `${FAST_SETTINGS_YAML}
listeners:
  - name: feed
    source: sse
    url: "${url}"
    lease_seconds: 0.6
    ${extra}
    handlers: [{ event: order.*, agent: billing, prompt: "order {{id}}" }]
`;

let source: SseSource;
beforeEach(async () => {
  source = await startSseSource();
});
afterEach(async () => {
  source.keepAlive(undefined);
  await source.close();
});

/** The replica reading the source and the one on standby, once they have settled. */
async function holderAndStandby(replicas: Replicas): Promise<[TriggerHarness, TriggerHarness]> {
  return vi.waitFor(
    () => {
      const states = replicas.replicas.map((replica) => replica.status('feed').state);
      const holder = replicas.replicas[states.indexOf('connected')];
      const standby = replicas.replicas[states.indexOf('standby')];
      if (!holder || !standby) throw new Error(`states: ${states.join(', ')}`);
      return [holder, standby] as [TriggerHarness, TriggerHarness];
    },
    { timeout: 10_000, interval: 10 },
  );
}

it('connects one replica of two; when it stops, the other takes over from the last stored event', async () => {
  const replicas = await startReplicas(yaml(source.url));
  try {
    const [holder, standby] = await holderAndStandby(replicas);
    for (const id of ['o1', 'o2', 'o3']) source.publish({ type: 'order.created', id });
    await replicas.storedAtLeast('feed', 3);
    expect(source.lastEventIds).toEqual([undefined]);

    await holder.triggers.stop();
    // Published while nobody reads the stream: only a resume from the stored cursor delivers it.
    source.publish({ type: 'order.created', id: 'o4' });
    await waitForState(standby, 'feed', 'connected');
    await replicas.storedAtLeast('feed', 4);
    expect(source.lastEventIds).toEqual([undefined, '3']);
    expect(source.maxConnections()).toBe(1);
    expect(replicas.duplicates('feed')).toBe(0);
    await vi.waitFor(() => expect(replicas.prompts().sort()).toEqual(['order o1', 'order o2', 'order o3', 'order o4']));
  } finally {
    await replicas.close();
  }
});

it('a holder that cannot renew its lease stops reading before another replica takes over and resumes', async () => {
  const replicas = await startReplicas(yaml(source.url));
  let revive!: () => void;
  const revived = new Promise<void>((resolve) => (revive = resolve));
  try {
    const [holder, standby] = await holderAndStandby(replicas);
    source.publish({ type: 'order.created', id: 'o1' });
    source.publish({ type: 'order.created', id: 'o2' });
    await replicas.storedAtLeast('feed', 2);
    await vi.waitFor(async () => expect((await holder.leases.get('listener:feed'))?.cursor).toBe('2'));

    // The holder's database calls stall (a partition, or a process frozen): it can no longer renew.
    const stall = () => revived.then(() => undefined as never);
    holder.leases.acquire = stall;
    holder.leases.renew = stall;
    holder.leases.release = stall;
    await vi.waitFor(
      () =>
        expect(
          holder.logger.entries.some(
            (entry) =>
              entry.message === 'trigger source failed; backing off' &&
              entry.object.error === 'the source lease could not be renewed before it lapsed',
          ),
        ).toBe(true),
      { timeout: 10_000 },
    );
    source.publish({ type: 'order.created', id: 'o3' });
    await waitForState(standby, 'feed', 'connected');
    await replicas.storedAtLeast('feed', 3);
    expect(source.lastEventIds).toEqual([undefined, '2']);
    // The stalled holder let go of the stream before the other replica opened it.
    expect(source.maxConnections()).toBe(1);
    expect(replicas.duplicates('feed')).toBe(0);
  } finally {
    revive();
    await replicas.close();
  }
});

it('drops a source that sends nothing for idle_timeout_seconds and reconnects with Last-Event-ID; comments keep it alive', async () => {
  const harness = await startTriggerHarness(yaml(source.url, 'idle_timeout_seconds: 0.3'));
  try {
    await harness.triggers.start();
    await waitForState(harness, 'feed', 'connected');
    source.keepAlive(50);
    // Twenty comments span more than three idle timeouts; the stream stays open all along.
    await vi.waitFor(() => expect(source.commentsSent()).toBeGreaterThanOrEqual(20), { timeout: 10_000 });
    expect(source.lastEventIds).toEqual([undefined]);
    source.publish({ type: 'order.created', id: 'o1' });
    await harness.runsStarted(1);

    source.keepAlive(undefined);
    source.silent = true;
    // Held back by the silent stream; the reconnection's replay delivers it.
    source.publish({ type: 'order.created', id: 'o2' });
    await harness.runsStarted(2);
    expect(source.lastEventIds).toEqual([undefined, '1']);
    expect(
      harness.logger.entries.some(
        (entry) =>
          entry.message === 'trigger source failed; backing off' &&
          entry.object.error === 'the event stream sent nothing for 0.3s',
      ),
    ).toBe(true);
  } finally {
    await harness.close();
  }
});

it('stores a burst of 200 events once with two replicas: the holder reads them all, the standby none', async () => {
  const replicas = await startReplicas(yaml(source.url));
  try {
    await holderAndStandby(replicas);
    for (let n = 0; n < 200; n += 1) source.publish({ type: 'order.created', id: `b${n}` });
    await replicas.storedAtLeast('feed', 200);
    await vi.waitFor(() => expect(replicas.prompts()).toHaveLength(200), { timeout: 30_000 });
    expect(replicas.received('feed').sort((a, b) => a - b)).toEqual([0, 200]);
    expect(new Set(replicas.prompts()).size).toBe(200);
    expect(source.maxConnections()).toBe(1);
  } finally {
    await replicas.close();
  }
});

it('a holder whose lease another replica took over stops reading and waits on standby', async () => {
  const harness = await startTriggerHarness(yaml(source.url), { triggers: { replicaId: 'holder' } });
  try {
    await harness.triggers.start();
    await waitForState(harness, 'feed', 'connected');
    // As if another replica had judged the lease lapsed (a clock far ahead) and taken it.
    await harness.database.db
      .updateTable('source_leases')
      .set({ holder: 'intruder', expires_at: '2999-01-01T00:00:00.000Z' })
      .where('source_key', '=', 'listener:feed')
      .execute();
    await waitForState(harness, 'feed', 'standby');
    expect(
      harness.logger.entries.some(
        (entry) =>
          entry.message === 'trigger source failed; backing off' &&
          entry.object.error === 'another replica took over the source lease',
      ),
    ).toBe(true);
    await vi.waitFor(() => expect(source.connections()).toBe(0));
  } finally {
    await harness.close();
  }
});

it('stops while its database stalls: the lease is left to lapse instead of holding shutdown up', async () => {
  const harness = await startTriggerHarness(yaml(source.url), { triggers: { replicaId: 'holder' } });
  try {
    await harness.triggers.start();
    await waitForState(harness, 'feed', 'connected');
    const never = () => new Promise<never>(() => undefined);
    harness.leases.renew = never;
    harness.leases.release = never;
    source.publish({ type: 'order.created', id: 'o1' });
    await harness.runsStarted(1);
    await harness.triggers.stop();
    expect(harness.status('feed').state).toBe('stopped');
    expect(
      harness.logger.entries.some(
        (entry) => entry.message === 'source lease release is taking long; it lapses on its own',
      ),
    ).toBe(true);
  } finally {
    await harness.close();
  }
});
