import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createExecutionStore } from '../../src/autopilot/execution/execution.store.js';
import { createDatabase, type DatabaseHandle } from '../../src/db/index.js';
import { startAutopilot, type AutopilotHarness } from '../autopilot/autopilot-harness.js';
import { LEARN, longAnswer } from '../autopilot/learning/learning-loop-helpers.js';
import { createPostgresDatabase, postgresUnavailable, type TestDatabase } from '../support/databases.js';
import { redisUnavailable, TEST_REDIS_URL } from '../support/redis.js';

const skip = (await postgresUnavailable()) ?? (await redisUnavailable());

describe.skipIf(skip !== undefined)(
  `mission executions of a replica that stopped${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    let db: TestDatabase;
    let a: AutopilotHarness;
    let b: AutopilotHarness;

    beforeAll(async () => {
      db = await createPostgresDatabase();
      const options = {
        withService: false,
        env: { DATABASE_URL: db.databaseUrl!, REDIS_URL: TEST_REDIS_URL },
        // The lease is read against each app's test clock, which only the test moves.
        extraYaml: 'runs: { lease_seconds: 1 }',
      };
      a = await startAutopilot(options);
      b = await startAutopilot(options);
      a.upstream.setDefault(() => ({ kind: 'hang' }));
      b.upstream.setDefault(longAnswer);
      for (const h of [a, b]) await h.api('POST', '/enable', { tier: 'skip' });
    }, 60_000);
    afterAll(async () => {
      await a?.stop();
      await b?.stop();
      await db?.drop();
    });

    it('B runs the mission again once the lease of A’s execution expired; the mission completes once', async () => {
      const created = await a.api('POST', '/missions', {
        blueprint_json: JSON.stringify(LEARN),
        slots: { topic: 'otters' },
      });
      expect(created.status).toBe(200);
      const id = created.body.mission_id as string;
      await a.api('POST', `/missions/${id}/approve`);
      // A executes it: its model call never answers.
      await vi.waitFor(() => expect(a.upstream.chatRequests()).toHaveLength(1), { timeout: 10_000 });
      // A stops renewing its lease (as a dead or frozen process would); time passes beyond the lease.
      a.app.autopilot.scheduler.stop();
      for (const h of [a, b]) h.clock.advance(2_000);

      await vi.waitFor(async () => expect((await b.api('GET', `/missions/${id}`)).body.status).toBe('completed'), {
        timeout: 15_000,
      });
      const detail = (await b.api('GET', `/missions/${id}`)).body;
      expect(detail.runs.map((run: { attempt: number; status: string }) => [run.attempt, run.status])).toEqual([
        [2, 'completed'],
        [1, 'interrupted'],
      ]);
      expect(b.upstream.chatRequests()).toHaveLength(1);
      expect(b.upstream.chatRequests()[0].body.messages.at(-1).content).toContain('otters');
    }, 40_000);

    it('gives each lost execution to exactly one of several replicas sweeping at once', async () => {
      // Only the two stores below sweep: the apps' own sweeps would take some of the executions too.
      b.app.autopilot.scheduler.stop();
      const draft = await b.api('POST', '/missions', { blueprint_json: JSON.stringify(LEARN), slots: { topic: 'x' } });
      const missionId = draft.body.mission_id as string;
      const handles: DatabaseHandle[] = await Promise.all(
        [0, 1].map(() => createDatabase({ databaseUrl: db.databaseUrl, dataDir: db.dataDir })),
      );
      try {
        const [one, two] = handles.map((handle) => createExecutionStore(handle.db));
        const at = '2026-01-01T00:00:00.000Z';
        const ids = Array.from({ length: 20 }, (_, index) => `job_lost_${index}`);
        for (const id of ids)
          await one.insert({
            execution_id: id,
            mission_id: missionId,
            project_id: 'default',
            blueprint_id: 'bp',
            trigger: 'approve',
            scheduled_for: null,
            status: 'running',
            started_at: at,
            finished_at: null,
            duration_ms: null,
            cost_usd: 0,
            error_code: null,
            error_message: null,
            failure_class: null,
          });
        const later = '2026-01-01T00:01:00.000Z';
        const got = await Promise.all(
          [one, two].map((store) => store.interruptStale(later, '2026-01-01T00:00:30.000Z')),
        );
        const claimed = got.flat().map((row) => row.execution_id);
        expect(claimed.filter((id) => ids.includes(id)).sort()).toEqual([...ids].sort());
        // A stalled owner that wakes up cannot write its end over the interruption.
        expect(
          await one.finish(ids[0], {
            status: 'completed',
            finished_at: later,
            duration_ms: 1,
            cost_usd: 0,
            error_code: null,
            error_message: null,
            failure_class: null,
          }),
        ).toBe(false);
        const stored = await one.listForMission(missionId, 100);
        expect(stored.find((execution) => execution.execution_id === ids[0])?.status).toBe('interrupted');
      } finally {
        await Promise.all(handles.map((handle) => handle.close()));
      }
    });
  },
);
