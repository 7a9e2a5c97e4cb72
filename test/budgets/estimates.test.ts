import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnServer, type ServerProcess } from '../admin/spawn-server.js';
import { cliEnv } from '../cli/run-cli.js';
import { TEST_API_KEY } from '../support/app.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { authHeaders, startGateway, type GatewayHarness } from '../gateway/openai/openai-harness.js';

// Issue #41 item 4: a call without max_tokens reserves the agent's stored average output (usage records, so a
// restart keeps it), not a blind 1,024 tokens; a refusal says whether the budget is used up or the call does not
// fit what is left. At these prices an uncapped call's blind estimate is $1.024 (1,024 output tokens at
// $1,000/M), an answered call (10 in, 5 out) costs $0.00501.

const yaml = (upstreamUrl: string, dataDir?: string) => `
${dataDir ? `server: { data_dir: "${dataDir}", log_level: info }` : ''}
auth:
  api_keys: ["${TEST_API_KEY}"]
providers:
  upstream: { type: openai-compatible, base_url: "${upstreamUrl}", max_retries: 0 }
pricing:
  upstream/test-model: { input_per_mtok: 1, output_per_mtok: 1000 }
agents:
  - { name: helper, model: upstream/test-model }
`;

const ANSWER = { prompt_tokens: 10, completion_tokens: 5 };

/** A gate the upstream's answers wait at (before their first piece) until the test opens it. */
function gateAnswers(upstream: FakeUpstream) {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  upstream.setDefault(() => ({
    kind: 'text',
    text: 'ok',
    pieces: ['ok'],
    usage: ANSWER,
    gates: [{ at: 0, open: opened }],
  }));
  return open;
}

async function until(condition: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 20));
}

async function createToken(url: string, maxCostUsd: number): Promise<string> {
  const response = await fetch(`${url}/gateway/tokens`, {
    method: 'POST',
    headers: authHeaders,
    body: JSON.stringify({ agent_name: 'helper', max_cost_usd: maxCostUsd }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { token: string }).token;
}

const chat = (url: string, token: string, stream = false) =>
  fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'helper', messages: [{ role: 'user', content: 'hi' }], stream }),
  });

/**
 * `count` concurrent streamed calls whose upstream answers wait at a gate: every call is either admitted (its
 * model call reached the upstream, holding its reservation) or refused before the gate opens. Resolves with the
 * refusals' messages and how many were admitted, after the admitted ones finished.
 */
async function concurrentWave(url: string, upstream: FakeUpstream, token: string, count: number) {
  const open = gateAnswers(upstream);
  const before = upstream.chatRequests().length;
  const refused: string[] = [];
  const admitted: Response[] = [];
  const calls = Array.from({ length: count }, async () => {
    const response = await chat(url, token, true);
    if (response.status === 402)
      refused.push(((await response.json()) as { error: { message: string } }).error.message);
    else admitted.push(response);
  });
  await until(() => upstream.chatRequests().length - before + refused.length === count);
  open();
  await Promise.all(calls);
  await Promise.all(admitted.map((response) => response.text()));
  return { refused, admitted: admitted.length };
}

describe('budget estimates: the stored average, and refusals that say which', () => {
  let gateway: GatewayHarness;
  beforeAll(async () => {
    gateway = await startGateway({ yaml: yaml('${UPSTREAM_URL}') });
  });
  afterAll(() => gateway.stop());

  it('refuses concurrent first admissions under a $3 cap as "does not fit", then admits 15 of 15 once an answer is stored', async () => {
    const token = await createToken(gateway.app.url, 3);
    const first = await concurrentWave(gateway.app.url, gateway.upstream, token, 15);
    // No answer stored yet: 1,024 output tokens are reserved per call, so two fit and the rest do not.
    expect(first.admitted).toBe(2);
    expect(first.refused).toHaveLength(13);
    for (const message of first.refused) {
      expect(message).not.toContain('used up');
      expect(message).toMatch(/this model call does not fit \(estimate \$1\.024\d*, left \$0\.951\d*; \$0 spent/);
    }
    // Two answers of 5 output tokens are stored: each call now reserves about $0.005.
    const second = await concurrentWave(gateway.app.url, gateway.upstream, token, 15);
    expect(second).toEqual({ refused: [], admitted: 15 });
  });
});

describe('budget estimates survive a restart (SQLite, kill -9)', () => {
  let upstream: FakeUpstream;
  let dir: string;
  let server: ServerProcess | undefined;
  beforeAll(async () => {
    upstream = await startFakeUpstream();
    dir = mkdtempSync(join(tmpdir(), 'budget-restart-'));
    writeFileSync(join(dir, 'gateway.yaml'), yaml(upstream.url, join(dir, 'data')));
  });
  afterAll(async () => {
    await server?.kill('SIGKILL');
    await upstream.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const serve = () => spawnServer(['--config', join(dir, 'gateway.yaml')], cliEnv());
  const operator = async (url: string, path: string) =>
    (await fetch(`${url}${path}`, { headers: authHeaders })).json() as Promise<any>;

  it('resumes the runs of a killed process under a $3 cap to completion, none refused budget_exceeded', async () => {
    server = await serve();
    const token = await createToken(server.url, 3);
    upstream.setDefault({ kind: 'text', text: 'ok', usage: ANSWER });
    for (let call = 0; call < 2; call += 1) expect((await chat(server.url, token)).status).toBe(200);
    // Five runs in flight, their answers held: each reserved the stored average's estimate (about $0.005).
    const before = upstream.chatRequests().length;
    gateAnswers(upstream);
    let refused = 0;
    const inFlight = Array.from({ length: 5 }, () =>
      chat(server!.url, token, true).then(
        (response) => void (response.status === 402 && (refused += 1)),
        () => undefined,
      ),
    );
    // Each call was admitted (its model call reached the upstream) or refused.
    await until(() => upstream.chatRequests().length - before + refused === 5);
    expect(refused).toBe(0);
    await server.kill('SIGKILL');
    await Promise.all(inFlight);

    // The restarted process resumes them: its estimate is the stored average again, not 1,024 tokens.
    upstream.setDefault({ kind: 'text', text: 'ok', usage: ANSWER });
    server = await serve();
    const url = server.url;
    const runs = async () =>
      ((await operator(url, '/api/v1/admin/runs?limit=100')) as { run_id: string; status: string }[]).slice(0, 5);
    await until(async () => (await runs()).every((run) => run.status !== 'running' && run.status !== 'paused'));
    const ended = await Promise.all((await runs()).map((run) => operator(url, `/api/v1/admin/runs/${run.run_id}`)));
    expect(ended.map((run) => [run.status, run.error?.code ?? null])).toEqual(Array(5).fill(['completed', null]));
  });
});
