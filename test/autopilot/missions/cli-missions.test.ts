import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_API_KEY } from '../../support/app.js';
import { tempDataDir } from '../../support/databases.js';
import { runCli } from '../../cli/run-cli.js';
import { startAutopilot, type AutopilotHarness } from '../autopilot-harness.js';
import { json, ONE_OFF_REPORT, VENDOR_WATCH } from '../blueprints.js';
import { CATALOGUE_NEWS_DIGEST } from '../catalogue-blueprints.js';

let h: AutopilotHarness;
let files: { dataDir: string; remove(): void };
let client: string[];

beforeAll(async () => {
  h = await startAutopilot();
  await h.api('POST', '/enable', { tier: 'free' });
  client = ['--host', '127.0.0.1', '--port', new URL(h.url).port];
  files = tempDataDir();
}, 60_000);
afterAll(async () => {
  await h.stop();
  files.remove();
});

const autopilot = (...args: string[]) =>
  runCli(['autopilot', ...args, ...client], { DATA_DIR: files.dataDir, AGENT_GATEWAY_TOKEN: TEST_API_KEY });
const missionId = (text: string) => /mission: (mis_[0-9a-f]+)/.exec(text)![1];

describe('the CLI from a picker or a file to a running mission', () => {
  it('pick <n> creates a draft from the last picker of the project', async () => {
    h.service.candidates = () => [
      { blueprint_json: json({ ...ONE_OFF_REPORT, id: 'first-report', title: 'First' }), score: 0.8 },
      { blueprint_json: json({ ...ONE_OFF_REPORT, id: 'second-report', title: 'Second' }), score: 0.7 },
    ];
    const picker = await autopilot('goal', 'a', 'report', 'topic=cli', '--project', 'pick');
    expect(picker.stdout).toContain('Create a draft from one with: autopilot pick <n> --project pick');
    const picked = await autopilot('pick', '2', '--project', 'pick');
    expect(picked.code, picked.stderr).toBe(0);
    expect(picked.stdout).toMatch(/mission: mis_\w+\s+status: draft\s+blueprint: second-report/);
    // The picker's goal came along: its key=value pair filled the slot.
    expect(picked.stdout).toContain('topic [str]: cli');
    expect(picked.stdout).toContain(
      `Approve it with: autopilot approve ${missionId(picked.stdout)} --project pick --wait`,
    );
    const outOfRange = await autopilot('pick', '3', '--project', 'pick');
    expect(outOfRange.stderr).toContain('400 invalid_pick');
  }, 60_000);

  it('create --blueprint FILE, then set the missing slot, approve and see the next command each time', async () => {
    const file = join(files.dataDir, 'vendor-watch.json');
    writeFileSync(file, json(VENDOR_WATCH));
    const created = await autopilot(
      'create',
      '--blueprint',
      file,
      '--slot',
      'vendors=acme,globex',
      '--project',
      'files',
    );
    expect(created.code, created.stderr).toBe(0);
    const id = missionId(created.stdout);
    expect(created.stdout).toContain(
      `Set the missing slots with: autopilot set ${id} --slot schedule=<value> --project files`,
    );
    const refused = await autopilot('approve', id, '--project', 'files');
    expect(refused.stderr).toContain('400 missing_slots');
    expect(refused.stderr).toContain(`next: autopilot set ${id} --slot <name>=<value> --project files`);
    const set = await autopilot('set', id, '--slot', 'schedule=0 9 * * 1', '--project', 'files');
    expect(set.stdout).toContain('schedule [cron]: 0 9 * * 1');
    expect(set.stdout).toContain(`Approve it with: autopilot approve ${id} --project files`);
    const approved = await autopilot('approve', id, '--project', 'files');
    expect(approved.stdout).toContain(`Run it now with: autopilot run ${id} --wait --project files`);
  }, 60_000);

  it('blueprints list, and validate FILE in the catalogue vocabulary or with a bad field', async () => {
    const list = await autopilot('blueprints', 'list');
    expect(list.stdout).toMatch(/^weekly-digest\s+bundled\s+recurring\s+Weekly news digest$/m);
    const good = join(files.dataDir, 'catalogue.json');
    writeFileSync(good, json(CATALOGUE_NEWS_DIGEST));
    const valid = await autopilot('blueprints', 'validate', good);
    expect(valid.code, valid.stderr).toBe(0);
    expect(valid.stdout).toContain('Kept, unused fields: x_vendor_meta');
    expect(valid.stdout).toContain(`Valid. Create a mission from it with: autopilot create --blueprint ${good}`);
    const bad = join(files.dataDir, 'bad.yaml');
    writeFileSync(
      bad,
      'id: bad\ntitle: Bad\nagent_graph: { entry: a, nodes: [{ id: a, prompt: x, tools: [teleport] }] }\n',
    );
    const invalid = await autopilot('blueprints', 'validate', bad);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toContain(
      '400 invalid_blueprint: invalid blueprint: blueprint_json.agent_graph.nodes[0].tools[0]: unknown tool "teleport"',
    );
    expect(invalid.stderr).toContain('next: autopilot blueprints validate FILE');
  }, 60_000);

  it('the goal help shows a quoted example', async () => {
    const help = await runCli(['autopilot', 'goal', '--help']);
    expect(help.stdout).toContain('autopilot goal "Summarise the news every Monday at 9"');
  }, 30_000);
});
