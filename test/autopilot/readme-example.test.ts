import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDataDir } from '../support/databases.js';
import { runCli, startCli } from '../cli/run-cli.js';

// The README's autopilot example, run as written against `serve` with the bundled config and the offline
// development model. Only --host/--port differ (the test server takes a free port instead of 8000).
let temp: { dataDir: string; remove(): void };
let server: ChildProcessWithoutNullStreams;
let port: string;

beforeAll(async () => {
  temp = tempDataDir();
  server = startCli(['serve', '--host', '127.0.0.1', '--port', '0', '--data-dir', temp.dataDir]);
  port = await new Promise<string>((resolve, reject) => {
    let out = '';
    server.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /^listening on http:\/\/127\.0\.0\.1:(\d+)$/m.exec(out);
      if (match) resolve(match[1]);
    });
    server.on('close', (code) => reject(new Error(`serve exited with ${code}: ${out}`)));
  });
}, 60_000);
afterAll(async () => {
  const exited = new Promise((resolve) => server.on('close', resolve));
  server.kill('SIGTERM');
  await exited;
  temp.remove();
});

const autopilot = (...args: string[]) =>
  runCli(['autopilot', ...args, '--host', '127.0.0.1', '--port', port], { DATA_DIR: temp.dataDir });

describe('the README autopilot example', () => {
  it('ends in a mission that runs and completes, each output naming the next command', async () => {
    const enabled = await autopilot('enable', '--tier', 'skip');
    expect(enabled.stdout).toContain('autopilot enabled, tier anonymous -> skip');
    expect(enabled.stdout).toContain('next: autopilot goal "Summarise the news every Monday at 9"');
    const goal = await autopilot('goal', 'Summarise the news every Monday at 9');
    expect(goal.code, goal.stderr).toBe(0);
    expect(goal.stdout).toContain('kind: synthesis_needed');
    expect(goal.stdout).toContain('Write one with: autopilot synthesize "Summarise the news every Monday at 9"');
    // Unquoted words are joined into one goal.
    const synthesized = await autopilot('synthesize', 'Summarise', 'the', 'news', 'every', 'Monday', 'at', '9');
    expect(synthesized.code, synthesized.stderr).toBe(0);
    expect(synthesized.stdout).toContain('blueprint written by: local');
    expect(synthesized.stdout).toContain('schedule [cron]: 0 9 * * 1');
    const id = /mission: (mis_[0-9a-f]+)/.exec(synthesized.stdout)![1];
    expect(synthesized.stdout).toContain(`Approve it with: autopilot approve ${id}`);
    // Run before approve: the hint names approve, the step that is missing.
    const early = await autopilot('run', id);
    expect(early.code).toBe(1);
    expect(early.stderr).toContain(`next: autopilot approve ${id}`);
    const approved = await autopilot('approve', id);
    expect(approved.stdout).toContain(`Run it now with: autopilot run ${id} --wait`);
    const run = await autopilot('run', id, '--wait');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/step 1: gather\s+completed\s+dev\/echo/);
    expect(run.stdout).toMatch(/step 2: summarise\s+completed\s+dev\/echo/);
    expect(run.stdout).toMatch(/run job_\S+: completed/);
    const missions = await autopilot('missions');
    expect(missions.stdout).toMatch(new RegExp(`^${id}\\s+scheduled\\s+weekly-digest`, 'm'));
  }, 120_000);

  it('names the next CLI command when something is missing', async () => {
    const unknown = await autopilot('show', 'mis_nope');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('404 mission_not_found');
    expect(unknown.stderr).toContain('next: autopilot missions');
    const noPicker = await autopilot('pick', '1', '--project', 'fresh');
    expect(noPicker.stderr).toContain('next: autopilot goal');
  }, 60_000);
});
