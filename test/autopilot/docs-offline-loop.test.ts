import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLED_BLUEPRINTS_DIR, loadLocalBlueprints } from '../../src/autopilot/blueprints/local-blueprints.js';
import { splitCommand } from '../../src/autopilot/learning/split-command.js';
import { createLocalRanker } from '../../src/autopilot/routing/rank-local-blueprints.js';
import { autopilotSchema } from '../../src/config/index.js';
import { REPO_ROOT, runCli, startCli, type CliResult } from '../cli/run-cli.js';

// docs/autopilot.md's offline loop, walked as written: every ```sh and ```yaml block in document order, in
// one working folder as a user's clone would be (./data, ./agent-gateway.yaml, scripts/ for the shipped
// trainer). `npm start` is `serve` there (a free port, handed to the CLI as PORT: the commands stay as
// written), each `npx autopilot …` the real CLI, `mis_…` the mission the last `synthesize` created, a yaml
// block ./agent-gateway.yaml (read by the next `npm start`), and each `#   …` line under a command output
// that command must print (split at `…`, whitespace runs read as one space).
const DOC = readFileSync(join(REPO_ROOT, 'docs/autopilot.md'), 'utf8');
const BLOCKS = [...DOC.matchAll(/^```(sh|yaml)\n([\s\S]*?)^```$/gm)].map(([, lang, body]) => ({ lang, body }));
const flat = (text: string) => text.replace(/\s+/g, ' ');

let folder: string;
let server: ChildProcessWithoutNullStreams | undefined;
let port = '';
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'autopilot-doc-'));
  symlinkSync(join(REPO_ROOT, 'scripts'), join(folder, 'scripts'));
});
afterAll(async () => {
  await stopServer();
  rmSync(folder, { recursive: true, force: true });
});

async function stopServer() {
  if (!server || server.exitCode !== null) return;
  const exited = new Promise((resolve) => server!.once('close', resolve));
  server.kill('SIGTERM');
  await exited;
}

/** `npm start` in the folder (again: the old server stops first, as Ctrl-C would). */
async function npmStart(): Promise<string> {
  await stopServer();
  const child = startCli(['serve', '--port', '0'], {}, { cwd: folder });
  server = child;
  let out = '';
  port = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /^listening on http:\/\/127\.0\.0\.1:(\d+)$/m.exec(out);
      if (match) resolve(match[1]);
    });
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('close', (code) => reject(new Error(`serve exited with ${code}: ${out}`)));
  });
  return out;
}

const autopilot = (args: string[]): Promise<CliResult> =>
  runCli(args, { PORT: port }, { cwd: folder, bin: 'autopilot' });

describe('docs/autopilot.md, the offline loop', () => {
  it('runs as written: goal, mission, samples, a fine-tune by the shipped trainer, the takeover, rollback', async () => {
    const outputs: { command: string; output: string }[] = [];
    let mission = '';
    let last = '';
    for (const block of BLOCKS) {
      if (block.lang === 'yaml') {
        writeFileSync(join(folder, 'agent-gateway.yaml'), block.body);
        continue;
      }
      for (const raw of block.body.split('\n').filter((line) => line.trim())) {
        const line = raw.replaceAll('mis_…', mission);
        if (line.startsWith('#')) {
          // The output the doc shows under a command: each part between `…` appears in what it printed.
          for (const part of line
            .slice(1)
            .split('…')
            .map((text) => flat(text).trim()))
            expect(flat(last), `${raw}\nafter ${outputs.at(-1)?.command}`).toContain(part);
          continue;
        }
        const argv = splitCommand(line.replace(/\s+#\s.*$/, ''));
        if (argv.join(' ') === 'npm start') last = await npmStart();
        else if (argv[0] === 'npx' && argv[1] === 'autopilot') {
          const result = await autopilot(argv.slice(2));
          expect(result.code, `${line}\n${result.stdout}${result.stderr}`).toBe(0);
          last = result.stdout;
          if (argv[2] === 'synthesize') mission = /mission: (mis_[0-9a-f]+)/.exec(last)![1];
        } else throw new Error(`the test does not know how to run this step of the doc: ${line}`);
        outputs.push({ command: argv.join(' '), output: last });
      }
    }

    // What the loop is for, whatever the comments say: re-runs on the development model add no sample (the
    // curator says why), the 4th distinct sample trained a model that ran the next steps, rollback undid it.
    const at = (command: string) => outputs.filter((entry) => entry.command.startsWith(command)).map((e) => e.output);
    const [beforeFineTune] = at('npx autopilot curator');
    expect(beforeFineTune).toMatch(/weekly-digest\s+openai\s+2 samples/);
    expect(beforeFineTune).toContain('(identical samples count once');
    const trained = /succeeded\s+4 samples\s+\S+\s+→ (dev\/echo-ftj_\w+)/.exec(at('npx autopilot curator --wait')[0]);
    expect(trained, at('npx autopilot curator --wait')[0]).not.toBeNull();
    // The job's folder, as the doc names it: the training file (4 samples) and what the trainer wrote there.
    expect(DOC).toContain('`<data_dir>/fine-tunes/<job_id>/training.jsonl`, and that folder is the trainer');
    const job = join(
      folder,
      'data/fine-tunes',
      /(ftj_\w+)\s+weekly-digest/.exec(at('npx autopilot curator --wait')[0])![1],
    );
    expect(readFileSync(join(job, 'training.jsonl'), 'utf8').trim().split('\n')).toHaveLength(4);
    expect(JSON.parse(readFileSync(join(job, 'model.json'), 'utf8'))).toMatchObject({ model: trained![1].slice(4) });
    const runs = at('npx autopilot run');
    expect(runs.at(-1)).toMatch(new RegExp(`step 2: summarise\\s+completed\\s+${trained![1]}\\s`));
    expect(runs.at(-2)).toMatch(/step 2: summarise\s+completed\s+dev\/echo\s/);
    expect(at('npx autopilot rollback').at(-1)).toContain(trained![1]);
    const curator = JSON.parse((await autopilot(['curator', '--json'])).stdout) as {
      datasets: { name: string; active_model: string | null }[];
    };
    expect(curator.datasets.find((dataset) => dataset.name === 'weekly-digest')?.active_model).toBeNull();
  }, 240_000);

  it('states the pager goal as the ranking and the CLI answer it', async () => {
    const claim =
      /\("triage alerts from our pager"\) scores (0\.\d+) for `([\w-]+)`, just under the picker threshold (0\.\d+): `autopilot goal` offers no picker but answers `(\w+)`, with the reason `(\w+)` in tier `(\w+)` with the bundled config/.exec(
        flat(DOC),
      );
    expect(claim, 'the pager sentence in docs/autopilot.md').not.toBeNull();
    const [, score, blueprint, threshold, kind, reason, tier] = claim!;
    const library = loadLocalBlueprints({
      bundledDir: BUNDLED_BLUEPRINTS_DIR,
      checks: { toolExists: () => true, modelExists: () => true, defaultModel: 'dev/echo' },
    });
    const [top] = createLocalRanker(library.map((entry) => entry.blueprint))('triage alerts from our pager');
    expect({ id: top.id, score: top.score.toFixed(3) }).toEqual({ id: blueprint, score: Number(score).toFixed(3) });
    expect(Number(threshold)).toBe(autopilotSchema.parse({}).picker_threshold);
    expect(top.score).toBeLessThan(Number(threshold));

    // The bundled config again (the walk above left its own ./agent-gateway.yaml behind).
    rmSync(join(folder, 'agent-gateway.yaml'), { force: true });
    await npmStart();
    expect((await autopilot(['enable', '--tier', tier])).code).toBe(0);
    const goal = await autopilot(['goal', 'triage alerts from our pager']);
    expect(goal.stdout).toContain(`kind: ${kind}`);
    expect(goal.stdout).toContain(`No blueprint was routed for "triage alerts from our pager" (${reason}).`);
    // synthesize: no local blueprint reaches the picker threshold, and dev/echo cannot write one.
    const written =
      /`autopilot synthesize` has `autopilot\.model` write the blueprint \(the development model writes none: `(\d+ \w+)`, naming `([^`]+)`\)/.exec(
        flat(DOC),
      );
    expect(written, 'the synthesize sentence in docs/autopilot.md').not.toBeNull();
    const synthesized = await autopilot(['synthesize', 'triage alerts from our pager']);
    expect(synthesized.stderr).toContain(`error: ${written![1]}: autopilot.model (dev/echo)`);
    expect(synthesized.stderr).toContain(`next: ${written![2]}`);
  }, 120_000);
});
