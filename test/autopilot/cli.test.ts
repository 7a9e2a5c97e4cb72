import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_API_KEY } from '../support/app.js';
import { tempDataDir } from '../support/databases.js';
import { runCli, type CliResult } from '../cli/run-cli.js';
import { startAutopilot, settle, type AutopilotHarness } from './autopilot-harness.js';
import { json, ONE_OFF_REPORT, VENDOR_WATCH } from './blueprints.js';

let h: AutopilotHarness;
let client: string[];
let empty: { dataDir: string; remove(): void };

beforeAll(async () => {
  h = await startAutopilot();
  client = ['--host', '127.0.0.1', '--port', new URL(h.url).port];
  empty = tempDataDir();
});
afterAll(async () => {
  await h.stop();
  empty.remove();
});

/** `agent-gateway autopilot …` with the token from AGENT_GATEWAY_TOKEN. */
const autopilot = (...args: string[]) =>
  runCli(['autopilot', ...args, ...client], { DATA_DIR: empty.dataDir, AGENT_GATEWAY_TOKEN: TEST_API_KEY });

/** The `autopilot` bin itself, with --token. */
const autopilotBin = (...args: string[]): Promise<CliResult> =>
  runCli([...args, ...client, '--token', TEST_API_KEY], { DATA_DIR: empty.dataDir }, { bin: 'autopilot' });

describe('the autopilot command line against a running server', { timeout: 90_000 }, () => {
  it('status, enable and disable', async () => {
    const status = await autopilotBin('status');
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toMatch(/^enabled:\s+false$/m);
    expect(status.stdout).toMatch(/^instance_id:\s+inst_/m);
    const enabled = await autopilotBin('enable', '--tier', 'free');
    expect(enabled.stdout).toContain('autopilot enabled, tier anonymous -> free');
    expect(enabled.stdout).toContain('next: autopilot goal "');
    const json = JSON.parse((await autopilot('status', '--json')).stdout);
    expect(json).toMatchObject({ enabled: true, tier: 'free' });
    expect((await autopilot('disable')).code).toBe(0);
    expect(JSON.parse((await autopilot('status', '--json')).stdout).enabled).toBe(false);
    const refused = await autopilot('goal', 'anything');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('409 autopilot_disabled');
    const badTier = await autopilot('enable', '--tier', 'gold');
    expect(badTier.code).not.toBe(0);
    // Without --tier the current tier is kept, and said so.
    const again = await autopilot('enable');
    expect(again.stdout).toContain('autopilot enabled, tier free (kept; --tier anonymous|free|skip changes it)');
    expect(JSON.parse((await autopilot('status', '--json')).stdout)).toMatchObject({ enabled: true, tier: 'free' });
  });

  it('goal prints the kind and the preview, and missions lists one line per mission in the project', async () => {
    h.service.candidates = () => [{ blueprint_json: json(VENDOR_WATCH), score: 0.93 }];
    const routed = await autopilot('goal', 'watch', 'vendors=acme,globex', 'schedule="0 9 * * 1"', '--project', 'cli');
    expect(routed.code, routed.stderr).toBe(0);
    expect(routed.stdout).toContain('kind: auto_routed');
    expect(routed.stdout).toContain('Title: Vendor price watch');
    expect(routed.stdout).toContain('vendors [list[str]]: acme, globex');
    const missionId = /mission: (mis_[0-9a-f]+)/.exec(routed.stdout)![1];
    const list = await autopilot('missions', '--project', 'cli');
    expect(list.stdout.split('\n').filter(Boolean)).toEqual([
      expect.stringMatching(/^MISSION_ID\s+STATUS\s+BLUEPRINT_ID/),
      expect.stringMatching(new RegExp(`^${missionId}\\s+draft\\s+vendor-watch\\s+Vendor price watch`)),
    ]);
    expect((await autopilot('missions', '--project', 'other')).stdout.trim()).toBe('(none)');
    h.service.candidates = () => [{ blueprint_json: json(ONE_OFF_REPORT), score: 0.7 }];
    const picker = await autopilot('goal', 'write', 'a', 'report');
    expect(picker.stdout).toContain('kind: picker_needed');
    expect(picker.stdout).toContain('1. one-off-report  "One-off report"  score 0.7');
  });

  it('approve, show, run and cancel a mission', async () => {
    const created = await h.api(
      'POST',
      '/missions',
      { blueprint_json: json(VENDOR_WATCH), slots: { vendors: ['acme'], schedule: '0 9 * * 1' } },
      { project: 'cli' },
    );
    const id = created.body.mission_id as string;
    const approved = await autopilot('approve', id, '--project', 'cli', '--json');
    expect(JSON.parse(approved.stdout).status).toBe('scheduled');
    expect((await autopilot('approve', id, '--project', 'cli')).stderr).toContain('409 invalid_mission_state');
    expect((await autopilot('run', id, '--project', 'cli')).code).toBe(0);
    await settle(h);
    const shown = await autopilot('show', id, '--project', 'cli');
    expect(shown.stdout).toContain(`mission: ${id}  status: scheduled  blueprint: vendor-watch  project: cli`);
    expect(shown.stdout).toContain('Steps of the latest run:');
    expect(shown.stdout).toMatch(/research\s+completed\s+upstream\/test-model\s+10\+5 tokens/);
    const cancelled = await autopilot('cancel', id, '--project', 'cli');
    expect(cancelled.stdout).toMatch(/^cancelled:\s+true$/m);
    expect((await autopilot('show', id)).stderr).toContain('404 mission_not_found');
  });

  it('shows healing recommendations of a failed mission', async () => {
    h.upstream.enqueue({ kind: 'error', status: 503 });
    const created = await h.api(
      'POST',
      '/missions',
      { blueprint_json: json(ONE_OFF_REPORT), slots: { topic: 'cli' } },
      { project: 'cli' },
    );
    const id = created.body.mission_id as string;
    await autopilot('approve', id, '--project', 'cli');
    await settle(h);
    const shown = await autopilot('show', id, '--project', 'cli');
    expect(shown.stdout).toContain('status: failed');
    expect(shown.stdout).toContain('Recommended actions:');
    expect(shown.stdout).toContain(`apply: autopilot heal ${id} upstream.retry_with_backoff   (retry_step, safe)`);
    expect(shown.stdout).toContain('[warning] retry_with_backoff (upstream)');
    expect((await autopilot('healing', id, '--project', 'cli')).stdout).toContain('retry_with_backoff');
  });
});
