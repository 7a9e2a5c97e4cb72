import { vi } from 'vitest';
import { dialects, type TestDatabase } from '../../../support/databases.js';
import { startTriggerHarness, waitForState, type TriggerHarness } from '../trigger-harness.js';
import type { TriggersOptions } from '../../../../src/gateway/triggers/index.js';

/** Several gateway replicas (each its own Triggers, replica id and database handle) sharing one database. */
export interface Replicas {
  replicas: TriggerHarness[];
  dialect: 'sqlite' | 'postgres';
  /** Messages each replica's listener `name` received (stored, duplicate or rejected), in replica order. */
  received(name: string): number[];
  duplicates(name: string): number;
  /** Events stored for the listener across replicas (one shared table). */
  stored(name: string): Promise<number>;
  /** Waits until `count` events of the listener are stored. */
  storedAtLeast(name: string, count: number): Promise<void>;
  /** Runs started across every replica, by prompt. */
  prompts(): string[];
  close(): Promise<void>;
}

/**
 * Starts `count` replicas over PostgreSQL (the scaled deployment shape), or one SQLite file when
 * PostgreSQL is not reachable off CI; each is started and its listeners connected before this resolves.
 */
export async function startReplicas(
  yaml: string,
  options: { count?: number; connected?: string[]; triggers?: (index: number) => Partial<TriggersOptions> } = {},
): Promise<Replicas> {
  const engines = await dialects();
  const engine = engines.find((candidate) => candidate.name === 'postgres' && !candidate.skip) ?? engines[0];
  const database: TestDatabase = await engine.create();
  const replicas: TriggerHarness[] = [];
  for (let index = 0; index < (options.count ?? 2); index += 1) {
    replicas.push(
      await startTriggerHarness(yaml, {
        database,
        triggers: { replicaId: `replica-${index + 1}`, workerId: `worker-${index + 1}`, ...options.triggers?.(index) },
      }),
    );
  }
  for (const replica of replicas) await replica.triggers.start();
  for (const name of options.connected ?? [])
    for (const replica of replicas) await waitForState(replica, name, 'connected');
  const statsOf = (replica: TriggerHarness, name: string) =>
    replica.triggers.intake.stats().find((entry) => entry.name === name);
  const stored = async (name: string) => (await replicas[0].store.list({ name, limit: 100_000 })).length;
  return {
    replicas,
    dialect: engine.name,
    received: (name) => replicas.map((replica) => statsOf(replica, name)?.received ?? 0),
    duplicates: (name) => replicas.reduce((sum, replica) => sum + (statsOf(replica, name)?.duplicates ?? 0), 0),
    stored,
    async storedAtLeast(name, count) {
      await vi.waitFor(
        async () => {
          const now = await stored(name);
          if (now < count) throw new Error(`${now} events stored, waiting for ${count}`);
        },
        { timeout: 30_000, interval: 50 },
      );
    },
    prompts: () => replicas.flatMap((replica) => replica.runs.prompts()),
    async close() {
      for (const replica of replicas) await replica.close();
      await database.drop();
    },
  };
}
