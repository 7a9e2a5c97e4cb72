import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { BINS, cliEnv, REPO_ROOT, startCli } from '../cli/run-cli.js';

// The README's shell examples, run as written by bash in a folder of their own while `serve` runs there (as
// `npm start` would in a fresh clone): the same ./data, the same ./agent-gateway.yaml. Only what a reader fills
// in differs: the port (the server takes a free one; curl's 127.0.0.1:8000 and the CLI's PORT follow it),
// `npx agent-gateway`/`npx autopilot` (this checkout's built CLIs) and the `<run_id>`-style placeholders (the
// newest id the CLI lists, as a reader would copy it).
const README = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
const section = (heading: string) => README.slice(README.indexOf(heading));
const firstBlock = (text: string, lang: string) =>
  new RegExp(`^\`\`\`${lang}\\n([\\s\\S]*?)^\`\`\`$`, 'm').exec(text)![1];
const examples = firstBlock(section('## Examples'), 'sh');
const webhookIntro = section('A signed webhook that starts a run.');
const webhookYaml = firstBlock(webhookIntro, 'yaml');
const webhookCommands = firstBlock(webhookIntro, 'sh');
const run = promisify(execFile);

const PREAMBLE = `npx() {
  case "$1" in
    agent-gateway) shift; node ${JSON.stringify(BINS['agent-gateway'])} "$@" ;;
    autopilot) shift; node ${JSON.stringify(BINS.autopilot)} "$@" ;;
    *) command npx "$@" ;;
  esac
}
newest() { node -e 'const [row] = JSON.parse(require("fs").readFileSync(0, "utf8")); process.stdout.write(row[process.argv[1]])' "$1"; }
`;
const PLACEHOLDERS: Record<string, string> = {
  '<run_id>': '"$(npx agent-gateway runs list --json | newest run_id)"',
  '<mission_id>': '"$(npx autopilot missions --json | newest mission_id)"',
  '<delivery_id>': '"$(npx agent-gateway triggers deliveries --json | newest id)"',
};

let cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

/** `serve` in a new folder (the user's clone), with what the README has them write there first. */
async function serveIn(files: Record<string, string>, env: NodeJS.ProcessEnv = {}) {
  const folder = mkdtempSync(join(tmpdir(), 'agent-gateway-readme-'));
  cleanup.push(() => rmSync(folder, { recursive: true, force: true }));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(folder, name), text);
  const child = startCli(['serve', '--port', '0'], env, { cwd: folder });
  const exited = new Promise((resolve) => child.once('close', resolve));
  cleanup.push(async () => {
    child.kill('SIGTERM');
    await exited;
  });
  const port = await new Promise<string>((resolve, reject) => {
    let output = '';
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
      if (match) resolve(match[1]);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.once('close', (code) => reject(new Error(`serve exited with ${code}:\n${output}`)));
  });
  return { folder, port };
}

async function runBlock(block: string, server: { folder: string; port: string }, stopOnError = true) {
  let script = block.replaceAll('127.0.0.1:8000', `127.0.0.1:${server.port}`);
  for (const [placeholder, value] of Object.entries(PLACEHOLDERS)) script = script.replaceAll(placeholder, value);
  const bash = run('bash', ['-c', (stopOnError ? 'set -eo pipefail\n' : '') + PREAMBLE + script], {
    cwd: server.folder,
    env: cliEnv({ PORT: server.port }),
    timeout: 90_000,
  });
  // Without stopOnError the block's last exit status does not matter: its output is what is asserted.
  const { stdout, stderr } = await (stopOnError
    ? bash
    : bash.catch((error: { stdout: string; stderr: string }) => error));
  return { stdout, stderr };
}

describe("the README's shell examples", () => {
  it('run as written against the bundled config: chat, a streamed tool call, AG-UI, operators, a token, cards, autopilot', async () => {
    const server = await serveIn({});
    const { stdout, stderr } = await runBlock(examples, server);
    expect(stdout, stderr).toContain('"content":"You said: Hello there"');
    // The streamed tool call: the tool ran on the server, then the answer and the usage chunk, then [DONE].
    expect(stdout).toMatch(/get_current_time/);
    expect(stdout).toContain('"prompt_tokens"');
    expect(stdout).toContain('data: [DONE]');
    expect(stdout).toContain('RUN_FINISHED');
    // runs show <run_id>: the newest run's steps with their prompt logs.
    expect(stdout).toMatch(/run_[0-9a-f]+/);
    expect(stdout).toContain('sat-');
    expect(stdout).toContain('"name":"helper"');
    expect(stdout).toMatch(/step 2: summarise\s+completed\s+dev\/echo/);
    expect(stdout).toMatch(/^mis_[0-9a-f]+\s+scheduled\s+weekly-digest/m);
  }, 120_000);

  it('start a run from a signed webhook, with the example config copied first and the section added', async () => {
    const example = readFileSync(join(REPO_ROOT, 'config/agent-gateway.example.yaml'), 'utf8');
    const server = await serveIn(
      { 'agent-gateway.yaml': `${example}\n${webhookYaml}` },
      { SHOP_WEBHOOK_SECRET: 's3cret-shop' },
    );
    // Its last line replays a dead letter; this delivery is not dead, so the replay is refused by name.
    const { stdout, stderr } = await runBlock(webhookCommands, server, false);
    expect(stdout, stderr).toMatch(/"delivery_id":"(del_[0-9a-f]+)","event":"shop.order.created","duplicate":false/);
    const deliveryId = /"delivery_id":"(del_[0-9a-f]+)"/.exec(stdout)![1];
    // `triggers`: the webhook source with the delivery received (it may still be pending or running).
    expect(stdout).toMatch(/^webhook\s+shop\s+hmac-sha256\s/m);
    expect(stderr).toMatch(
      new RegExp(
        `409 delivery_not_dead: Only dead deliveries can be replayed; "${deliveryId}" is (pending|running|done)`,
      ),
    );
  }, 120_000);
});
