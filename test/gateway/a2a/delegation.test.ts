import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_API_KEY } from '../../support/app.js';
import type { RecordedRequest } from '../../support/fake-upstream.js';
import { startA2aGateway, type A2aGateway } from './a2a-harness.js';

/** Gateway B: a coordinator that may delegate to gateway A's helper, known to it as "research". */
const coordinatorYaml = (timeoutMs = 10_000) => `
auth:
  api_keys: ["\${TEST_API_KEY}"]
providers:
  upstream: { type: openai-compatible, base_url: "\${UPSTREAM_URL}", max_retries: 0, timeout_ms: 10000 }
agents:
  - name: coordinator
    model: upstream/coordinator-model
    system_prompt: Delegate research questions.
    tools: [delegate_to_agent]
a2a:
  remotes:
    - name: research
      url: "\${A_URL}/a2a/helper"
      token: "\${A_TOKEN}"
      description: answers research questions
  timeout_ms: ${timeoutMs}
`;

/** The coordinator's model: first it calls the tool, then it repeats what the tool returned. */
const delegateThenRepeat = (task: string) => [
  { kind: 'tool_calls' as const, calls: [{ name: 'delegate_to_agent', arguments: { agent: 'research', task } }] },
  {
    kind: 'handler' as const,
    fn: (request: RecordedRequest) => {
      const tool = [...request.body.messages].reverse().find((message: { role: string }) => message.role === 'tool');
      return { kind: 'text' as const, text: `Coordinator relays: ${tool?.content}` };
    },
  },
];

async function askCoordinator(gateway: A2aGateway, question: string): Promise<string> {
  const response = await fetch(`${gateway.app.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TEST_API_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'coordinator', messages: [{ role: 'user', content: question }] }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { choices: { message: { content: string } }[] }).choices[0].message.content;
}

describe('delegation between two gateways over A2A', () => {
  let a: A2aGateway;
  let b: A2aGateway;
  let token: { token: string; token_id: string };
  beforeAll(async () => {
    a = await startA2aGateway();
    token = await a.createToken('helper', ['a2a']);
    b = await startA2aGateway({ yaml: coordinatorYaml(), env: { A_URL: a.app.url, A_TOKEN: token.token } });
  });
  afterAll(async () => {
    await b?.stop();
    await a?.stop();
  });

  it('lists the remotes in the tool description', () => {
    const tool = b.app.tools.get('delegate_to_agent');
    expect(tool?.description).toContain('research (answers research questions)');
    expect(tool?.parameters).toMatchObject({
      properties: { agent: { enum: ['research'] } },
      required: ['agent', 'task'],
    });
  });

  it("runs the delegated task on gateway A as a run of the target agent and brings its answer to B's client", async () => {
    b.upstream.enqueue(...delegateThenRepeat('What is the answer to everything?'));
    a.upstream.enqueue({ kind: 'text', text: 'The answer is 42.' });

    expect(await askCoordinator(b, 'Ask research about everything')).toBe('Coordinator relays: The answer is 42.');

    const [onA] = a.upstream.chatRequests().slice(-1);
    expect(onA.body.messages.at(-1)).toEqual({ role: 'user', content: 'What is the answer to everything?' });
    const runsOnA = await a.app.runs.list({ agentName: 'helper', limit: 10, offset: 0 });
    expect(runsOnA[0]).toMatchObject({
      agent_name: 'helper',
      source: 'a2a',
      status: 'completed',
      output: 'The answer is 42.',
      token_id: token.token_id,
    });

    const [coordinatorRun] = await b.app.runs.list({ agentName: 'coordinator', limit: 1, offset: 0 });
    const steps = (await b.app.runs.find(coordinatorRun.run_id))!.steps;
    expect(steps.map((step) => [step.kind, step.name, step.status])).toContainEqual([
      'tool',
      'delegate_to_agent',
      'completed',
    ]);
  });

  it('gives up after a2a.timeout_ms with a timeout error and cancels the task on A', async () => {
    const slowToken = await a.createToken('helper', ['a2a']);
    const impatient = await startA2aGateway({
      yaml: coordinatorYaml(500),
      env: { A_URL: a.app.url, A_TOKEN: slowToken.token },
    });
    try {
      impatient.upstream.enqueue(...delegateThenRepeat('Think very hard'));
      a.upstream.enqueue({ kind: 'hang' });
      const answer = await askCoordinator(impatient, 'Ask research, briefly');
      expect(answer).toBe(
        'Coordinator relays: Error: Remote agent "research" did not finish the task within 500 ms; it was asked to cancel it',
      );
      const [runOnA] = await a.app.runs.list({ agentName: 'helper', limit: 1, offset: 0 });
      expect(runOnA).toMatchObject({ source: 'a2a', status: 'cancelled', token_id: slowToken.token_id });
    } finally {
      await impatient.stop();
    }
  });

  it("fails the delegation with a clear tool error once A revoked B's token", async () => {
    await a.revokeToken(token.token_id);
    b.upstream.enqueue(...delegateThenRepeat('Anything new?'));
    const callsOnA = a.upstream.chatRequests().length;

    const answer = await askCoordinator(b, 'Ask research again');
    expect(answer).toContain('Coordinator relays: Error: Remote agent "research" did not accept the task');
    expect(answer).toContain('revoked');
    expect(a.upstream.chatRequests().length).toBe(callsOnA);

    const [coordinatorRun] = await b.app.runs.list({ agentName: 'coordinator', limit: 1, offset: 0 });
    const steps = (await b.app.runs.find(coordinatorRun.run_id))!.steps;
    expect(steps.find((step) => step.kind === 'tool')).toMatchObject({ name: 'delegate_to_agent', status: 'failed' });
  });
});
