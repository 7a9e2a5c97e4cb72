import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authHeaders,
  errorOf,
  parseSse,
  postRun,
  startAguiGateway,
  typesOf,
  type AguiGateway,
} from './agui-harness.js';
import { connectWs } from './ws/ws-client.js';

describe('?access_token= on the AG-UI streams (browsers cannot set headers)', () => {
  let gateway: AguiGateway;
  let helperToken: string;
  beforeAll(async () => {
    gateway = await startAguiGateway();
    const created = await fetch(gateway.url('/gateway/tokens'), {
      method: 'POST',
      headers: authHeaders,
      body: JSON.stringify({ agent_name: 'helper', scopes: ['chat'] }),
    });
    helperToken = ((await created.json()) as { token: string }).token;
  });
  afterAll(() => gateway.stop());

  const finishedRun = async (agentName: string, token?: string) => {
    gateway.upstream.enqueue({ kind: 'text', text: 'Done.' });
    const init = token ? { headers: { ...authHeaders, authorization: `Bearer ${token}` } } : {};
    const response = await postRun(gateway, { agent_name: agentName, message: 'Hi' }, '', init);
    await response.text();
    return response.headers.get('x-run-id')!;
  };
  const wsUrl = (query: string) => `${gateway.app.url.replace('http', 'ws')}/agui/ws?${query}`;

  it('lets GET attach through with a token to a run it started; a run of another agent reads as unknown', async () => {
    const helperRun = await finishedRun('helper', helperToken);
    const attached = await fetch(gateway.url(`/agui/ws?run_id=${helperRun}&access_token=${helperToken}`));
    expect(attached.status).toBe(200);
    expect(typesOf(parseSse(await attached.text())).at(-1)).toBe('RUN_FINISHED');

    // The same answer as for a run id nobody has (issue #41: 403 told a token that the run exists).
    const otherRun = await finishedRun('other');
    const refused = await fetch(gateway.url(`/agui/ws?run_id=${otherRun}&access_token=${helperToken}`));
    const unknown = await fetch(gateway.url(`/agui/ws?run_id=run_${'0'.repeat(24)}&access_token=${helperToken}`));
    expect([refused.status, unknown.status]).toEqual([404, 404]);
    const [refusedError, unknownError] = [await errorOf(refused), await errorOf(unknown)];
    expect(refusedError).toEqual({ ...unknownError, message: unknownError.message.replace(/run_0+/, otherRun) });
    expect((await fetch(gateway.url(`/agui/ws?run_id=${helperRun}&access_token=sat-${'0'.repeat(64)}`))).status).toBe(
      401,
    );
  });

  it("answers 404 to a token attaching to another principal's run of its own agent; operators attach to any run", async () => {
    const operatorRun = await finishedRun('helper');
    const refused = await fetch(gateway.url(`/agui/ws?run_id=${operatorRun}&access_token=${helperToken}`));
    expect(refused.status).toBe(404);
    expect(await errorOf(refused)).toMatchObject({ code: 'run_not_found' });
    const created = await fetch(gateway.url('/gateway/tokens'), {
      method: 'POST',
      headers: authHeaders,
      body: JSON.stringify({ agent_name: 'helper', scopes: ['chat'] }),
    });
    const secondToken = ((await created.json()) as { token: string }).token;
    const tokenRun = await finishedRun('helper', secondToken);
    expect((await fetch(gateway.url(`/agui/ws?run_id=${tokenRun}&access_token=${helperToken}`))).status).toBe(404);
    const operator = await fetch(gateway.url(`/agui/ws?run_id=${tokenRun}`), { headers: authHeaders });
    expect(operator.status).toBe(200);
    expect(typesOf(parseSse(await operator.text())).at(-1)).toBe('RUN_FINISHED');
  });

  it('opens a WebSocket with a token for its agent, and refuses one for another agent', async () => {
    const client = await connectWs(wsUrl(`agent_name=helper&access_token=${helperToken}`));
    gateway.upstream.enqueue({ kind: 'text', text: 'Hello.' });
    client.send({ type: 'message', content: 'Hi' });
    const frames = await client.until((frame) => frame.type === 'RUN_FINISHED');
    expect(frames[0].type).toBe('RUN_STARTED');
    const run = await gateway.app.runs.find(frames[0].runId);
    expect(run?.run.token_id).toMatch(/^tok_/);
    await client.close();

    await expect(connectWs(wsUrl(`agent_name=other&access_token=${helperToken}`))).rejects.toMatchObject({
      statusCode: 403,
    });
  });

  it('is not taken on POST routes, which can send headers', async () => {
    const response = await fetch(gateway.url(`/agui/runs?access_token=${helperToken}`), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ agent_name: 'helper', message: 'Hi' }),
    });
    expect(response.status).toBe(401);
  });
});
