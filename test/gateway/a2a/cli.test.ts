import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../cli/run-cli.js';
import { SECRET_PROMPT, startA2aGateway, type A2aGateway } from './a2a-harness.js';

describe('agent-gateway a2a (CLI)', () => {
  let gateway: A2aGateway;
  let token: string;
  beforeAll(async () => {
    gateway = await startA2aGateway();
    token = (await gateway.createToken('helper')).token;
  });
  afterAll(() => gateway.stop());

  it('a2a card prints the standard card of an agent', async () => {
    const result = await runCli(['a2a', 'card', `${gateway.app.url}/a2a/helper`]);
    expect(result.code).toBe(0);
    const card = JSON.parse(result.stdout);
    expect(card).toMatchObject({ name: 'helper', capabilities: { streaming: true } });
    expect(result.stdout).not.toContain(SECRET_PROMPT);
  });

  it('a2a send streams the answer of the agent', async () => {
    gateway.upstream.enqueue({ kind: 'text', text: 'Answer from the CLI task.', chunks: 3 });
    const result = await runCli([
      'a2a',
      'send',
      '--url',
      `${gateway.app.url}/a2a/helper`,
      '--token',
      token,
      'Say something',
    ]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('Answer from the CLI task.\n');
    expect(gateway.upstream.chatRequests().at(-1)?.body.messages.at(-1)).toEqual({
      role: 'user',
      content: 'Say something',
    });
  });

  it('a2a send reports a refused token and exits 1', async () => {
    const result = await runCli([
      'a2a',
      'send',
      '--url',
      `${gateway.app.url}/a2a/helper`,
      '--token',
      'sat-wrong',
      'hello',
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: .*(unknown|invalid)/i);
  });
});
