import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, postgresUnavailable, type TestDatabase } from '../../support/databases.js';
import { startAutopilot, type AutopilotHarness } from '../autopilot-harness.js';
import { downloadDataset, longAnswer, runMission } from './learning-loop-helpers.js';

const skip = await postgresUnavailable();

describe.skipIf(skip !== undefined)(
  `learning loop on two app instances sharing PostgreSQL${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    let db: TestDatabase;
    let a: AutopilotHarness;
    let b: AutopilotHarness;

    beforeAll(async () => {
      db = await createPostgresDatabase();
      const options = {
        autopilot: ['fine_tune: { provider: upstream, threshold: 2, poll_interval_ms: 2 }'],
        withService: false,
        env: { DATABASE_URL: db.databaseUrl! },
      };
      a = await startAutopilot(options);
      b = await startAutopilot(options);
      for (const h of [a, b]) {
        h.upstream.setDefault(longAnswer);
        await h.api('POST', '/enable', { tier: 'skip' });
      }
    });
    afterAll(async () => {
      await a?.stop();
      await b?.stop();
      await db?.drop();
    });

    it('a fine-tune triggered on B trains on the sample curated on A', async () => {
      await runMission(a, 'alpha topic');
      await runMission(b, 'beta topic');
      await b.app.autopilot.learning.idle();
      // Either instance serves the whole dataset, from the database.
      for (const h of [a, b]) {
        const { lines } = await downloadDataset(h, 'learn-answers');
        expect(lines.map((line: { messages: { content: string }[] }) => line.messages[1].content)).toEqual([
          expect.stringContaining('alpha topic'),
          expect.stringContaining('beta topic'),
        ]);
      }
      const uploaded = [...b.upstream.fineTuning.files.values()];
      expect(uploaded).toHaveLength(1);
      expect(uploaded[0].content).toContain('alpha topic');
      expect(a.upstream.fineTuning.files.size).toBe(0);
    });
  },
);
