import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_API_KEY } from '../../support/app.js';
import { tempDataDir } from '../../support/databases.js';
import { runCli } from '../../cli/run-cli.js';
import { startAutopilot, type AutopilotHarness } from '../autopilot-harness.js';
import { longAnswer, runMission } from './learning-loop-helpers.js';

let h: AutopilotHarness;
let empty: { dataDir: string; remove(): void };
beforeAll(async () => {
  h = await startAutopilot({
    autopilot: ['fine_tune: { provider: upstream, threshold: 1, poll_interval_ms: 2 }'],
    withService: false,
  });
  h.upstream.setDefault(longAnswer);
  await h.api('POST', '/enable', { tier: 'skip' });
  empty = tempDataDir();
});
afterAll(async () => {
  await h.stop();
  empty.remove();
});

const autopilot = (...args: string[]) =>
  runCli(['autopilot', ...args, '--host', '127.0.0.1', '--port', new URL(h.url).port], {
    DATA_DIR: empty.dataDir,
    AGENT_GATEWAY_TOKEN: TEST_API_KEY,
  });

describe('autopilot curator and rollback on the command line', () => {
  it('lists datasets, jobs and the active model, and rolls a dataset back', async () => {
    await runMission(h, 'cli topic');
    await h.app.autopilot.learning.idle();
    const shown = await autopilot('curator');
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(
      /learn-answers\s+openai\s+1 samples.*active model: upstream\/ft:test-model:fake:ftjob-fake1/,
    );
    expect(shown.stdout).toMatch(/ftj_\w+\s+learn-answers\s+provider\s+succeeded/);
    const rolled = await autopilot('rollback', 'learn-answers', '--json');
    expect(rolled.code).toBe(0);
    expect(JSON.parse(rolled.stdout)).toEqual({
      dataset: 'learn-answers',
      rolled_back: 'upstream/ft:test-model:fake:ftjob-fake1',
      active_model: null,
    });
    expect((await autopilot('rollback', 'learn-answers')).code).not.toBe(0);
  });
});
