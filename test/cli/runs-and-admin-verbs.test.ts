import { afterAll, beforeAll, describe, it, vi } from 'vitest';
import { TEST_API_KEY } from '../support/app.js';
import { tempDataDir } from '../support/databases.js';
import { startAdminHarness, type AdminHarness } from '../admin/admin-harness.js';
import { runCli } from './run-cli.js';

let harness: AdminHarness;
let client: string[];
let emptyDataDir: { dataDir: string; remove(): void };
const runIds: string[] = [];
let hangingRun: string;

beforeAll(async () => {
  harness = await startAdminHarness();
  client = ['--host', '127.0.0.1', '--port', new URL(harness.app.url).port, '--token', TEST_API_KEY];
  emptyDataDir = tempDataDir();
  for (const model of ['helper', 'timekeeper']) {
    const { response } = await harness.client.chat.completions
      .create({ model, messages: [{ role: 'user', content: 'hi' }] }, { headers: { 'x-session-id': `cli-${model}` } })
      .withResponse();
    runIds.push(response.headers.get('x-run-id')!);
  }
  harness.upstream.enqueue({ kind: 'hang' });
  void harness.client.chat.completions
    .create({ model: 'helper', messages: [{ role: 'user', content: 'wait' }] })
    .catch(() => undefined);
  await vi.waitFor(() => {
    if (harness.app.runs.active().length !== 1) throw new Error('the hanging run has not started yet');
  });
  hangingRun = harness.app.runs.active()[0].runId;
});
afterAll(async () => {
  await harness.stop();
  emptyDataDir.remove();
});

const cli = (...args: string[]) => runCli([...args, ...client], { DATA_DIR: emptyDataDir.dataDir });

// Each verb spawns the CLI (dist/), four at once.
describe.concurrent('agent-gateway admin verbs', { timeout: 90_000 }, () => {
  it('agents list prints a table, agents show --json the detail', async ({ expect }) => {
    const table = await cli('agents', 'list');
    expect(table.code, table.stderr).toBe(0);
    const [header, ...rows] = table.stdout.trimEnd().split('\n');
    expect(header.split(/\s+/)).toEqual(['NAME', 'MODEL', 'STATUS', 'TOTAL_RUNS', 'REGISTERED_AT']);
    // helper's status depends on whether the concurrent test below has cancelled its hanging run yet.
    expect(rows.map((row) => row.split(/\s+/).slice(0, 4))).toEqual([
      ['helper', 'upstream/test-model', expect.stringMatching(/^(running|idle)$/), '2'],
      ['timekeeper', 'upstream/test-model', 'idle', '1'],
    ]);
    const shown = await cli('agents', 'show', 'timekeeper', '--json');
    expect(JSON.parse(shown.stdout)).toMatchObject({
      name: 'timekeeper',
      tools: ['get_current_time'],
      config: { max_iterations: 10 },
    });
    const unknown = await cli('agents', 'show', 'nobody');
    expect(unknown).toMatchObject({ code: 1, stderr: expect.stringContaining('404 agent_not_found') });
  });

  it('runs list filters, runs show prints the run and its steps', async ({ expect }) => {
    const listed = await cli('runs', 'list', '--agent', 'timekeeper', '--json');
    expect(JSON.parse(listed.stdout)).toEqual([
      expect.objectContaining({ run_id: runIds[1], agent_name: 'timekeeper', status: 'completed' }),
    ]);
    const paged = await cli('runs', 'list', '--limit', '1', '--offset', '1', '--status', 'completed', '--json');
    expect(JSON.parse(paged.stdout).map((run: { run_id: string }) => run.run_id)).toEqual([runIds[0]]);
    const bad = await cli('runs', 'list', '--status', 'sleeping');
    expect(bad).toMatchObject({ code: 1, stderr: expect.stringContaining('400 invalid_request: querystring.status') });

    const shown = await cli('runs', 'show', runIds[0]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/^status:\s+completed$/m);
    expect(shown.stdout).toMatch(/^output:\s+echo: hi$/m);
    expect(shown.stdout).toMatch(/^STEP_INDEX\s+KIND\s+NAME/m);
    expect(shown.stdout).toMatch(/^0\s+model\s+upstream\/test-model\s+completed/m);
    // The prompt logs the README promises, without --json: what was sent and what came back.
    expect(shown.stdout).toMatch(/^step 0 \(model upstream\/test-model\): prompt log$/m);
    expect(shown.stdout).toMatch(/^ {2}user: hi$/m);
    expect(shown.stdout).toMatch(/^ {2}response: echo: hi$/m);
  });

  it('runs pause, resume and cancel steer a run; a refused command exits 1 with the reason', async ({ expect }) => {
    const paused = await cli('runs', 'pause', hangingRun);
    expect(paused.stdout).toMatch(/^status:\s+paused$/m);
    const resumed = await cli('runs', 'resume', hangingRun, '--json');
    expect(resumed.code, resumed.stderr + paused.stderr).toBe(0);
    expect(JSON.parse(resumed.stdout)).toEqual({ run_id: hangingRun, status: 'running' });
    const cancelled = await cli('runs', 'cancel', hangingRun);
    expect(cancelled.stdout).toMatch(/^status:\s+cancelled$/m);
    const refused = await cli('runs', 'pause', runIds[0]);
    expect(refused).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/409 invalid_run_state: Run run_\w+ is completed/),
    });
  });

  it('sessions and status', async ({ expect }) => {
    const sessions = await cli('sessions', '--json');
    // Runs started without a session id have server-generated ones (ses_…).
    const named = JSON.parse(sessions.stdout)
      .map((session: { session_id: string }) => session.session_id)
      .filter((id: string) => !id.startsWith('ses_'));
    expect(named.sort()).toEqual(['cli-helper', 'cli-timekeeper']);
    const status = await cli('status');
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toMatch(/^status:\s+healthy$/m);
    expect(status.stdout).toMatch(/^agents:\s+2$/m);
  });
});
