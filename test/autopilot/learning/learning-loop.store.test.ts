import { afterAll, beforeAll, expect, it } from 'vitest';
import { createCuratorStore } from '../../../src/autopilot/learning/curator.store.js';
import { createFineTuneJobStore } from '../../../src/autopilot/learning/fine-tune-job.store.js';
import type { FineTuneJob } from '../../../src/autopilot/learning/fine-tune.types.js';
import { createModelActivationStore } from '../../../src/autopilot/learning/model-activation.store.js';
import { createDatabase, type DatabaseHandle } from '../../../src/db/index.js';
import { describeEachDialect, type TestDatabase } from '../../support/databases.js';

const AT = '2026-11-23T09:00:00.000Z';
const job =
  (id: string) =>
  (sampleCount: number): FineTuneJob => ({
    job_id: id,
    dataset: 'd',
    backend: 'provider',
    provider: 'p',
    base_model: 'm',
    status: 'queued',
    sample_count: sampleCount,
    held_out_count: 0,
    training_file_id: null,
    external_job_id: null,
    model: null,
    served_base_url: null,
    evaluation: null,
    error_message: null,
    poll_count: 0,
    created_at: AT,
    updated_at: AT,
    finished_at: null,
  });

await describeEachDialect('learning loop stores', (dialect) => {
  let testDb: TestDatabase;
  let database: DatabaseHandle;
  beforeAll(async () => {
    testDb = await dialect.create();
    database = await createDatabase({ databaseUrl: testDb.databaseUrl, dataDir: testDb.dataDir });
  });
  afterAll(async () => {
    await database?.close();
    await testDb?.drop();
  });

  it('skips duplicate hashes and lets exactly one of several concurrent claims start a job', async () => {
    const curator = createCuratorStore(database.db);
    await curator.ensureDataset({ name: 'd', format: 'openai', blueprint_id: 'b', threshold: 2 }, AT);
    expect(await curator.addSample('d', 'h1', '{"n":1}', AT)).toBe(true);
    expect(await curator.addSample('d', 'h1', '{"n":1}', AT)).toBe(false);
    expect(await curator.lines('d')).toEqual({ lines: ['{"n":1}'], legacy: 0 });
    await curator.addSample('d', 'h2', '{"n":2}', AT);
    await curator.countSample('d', 'h2', AT);
    const dataset = await curator.countSample('d', 'h1', AT);
    expect(await curator.lines('d')).toEqual({ lines: ['{"n":2}', '{"n":1}'], legacy: 0 });
    const claims = await Promise.all([1, 2, 3].map((n) => curator.claimTrigger(dataset, job(`ftj_${n}`))));
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await createFineTuneJobStore(database.db).list()).toEqual([
      expect.objectContaining({ sample_count: 2, status: 'queued' }),
    ]);
    expect(await curator.get('d')).toMatchObject({ sample_count: 2, triggered_count: 2 });
  });

  it('keeps the activation history and rolls back to the previous model', async () => {
    const activations = createModelActivationStore(database.db);
    await activations.activate({
      activation_id: 'act_1',
      dataset: 'd',
      model: 'p/one',
      job_id: null,
      activated_at: AT,
      rolled_back_at: null,
    });
    await activations.activate({
      activation_id: 'act_2',
      dataset: 'd',
      model: 'p/two',
      job_id: null,
      activated_at: AT,
      rolled_back_at: null,
    });
    expect((await activations.active('d'))?.model).toBe('p/two');
    expect((await activations.rollback('d', AT))?.model).toBe('p/two');
    expect((await activations.active('d'))?.model).toBe('p/one');
    expect((await activations.history('d')).map((entry) => [entry.seq, entry.rolled_back_at])).toEqual([
      [2, AT],
      [1, null],
    ]);
  });
});
