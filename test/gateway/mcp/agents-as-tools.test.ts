import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../../support/gateway.js';
import { connectMcp, createToken, mcpYaml } from './mcp-harness.js';

describe('/mcp: the agents as MCP tools (official SDK client)', () => {
  let gateway: TestGateway;
  const clients: Client[] = [];
  const connect = async (credential?: string) => {
    const client = await connectMcp(gateway.url, credential);
    clients.push(client);
    return client;
  };
  beforeAll(async () => {
    gateway = await startTestGateway({ yaml: mcpYaml });
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });
  afterAll(() => gateway.close());

  it('lists each agent as a tool with a message input and the run id in its output schema', async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['helper', 'timekeeper']);
    expect(tools[0]).toMatchObject({
      description: 'Answers questions.',
      inputSchema: { type: 'object', required: ['message'] },
      outputSchema: { type: 'object', required: ['answer', 'run_id', 'session_id'] },
    });
    expect(client.getServerCapabilities()).toMatchObject({ tools: {} });
  });

  it("calls an agent: the answer is the text, the run id and session in structured content, the run's source mcp", async () => {
    gateway.upstream.enqueue({ kind: 'text', text: 'Paris is the capital.' });
    const client = await connect();
    const result = await client.callTool({ name: 'helper', arguments: { message: 'Capital of France?' } });
    expect(result.isError).toBeFalsy();
    expect(result.content).toEqual([{ type: 'text', text: 'Paris is the capital.' }]);
    const { run_id: runId, session_id: sessionId } = result.structuredContent as Record<string, string>;
    expect(runId).toMatch(/^run_/);
    const run = await gateway.app.inject(`/api/v1/admin/runs/${runId}`, {
      headers: { authorization: `Bearer ${gateway.apiKey}` },
    });
    expect(await run.json()).toMatchObject({
      run_id: runId,
      agent_name: 'helper',
      source: 'mcp',
      session_id: sessionId,
    });
  });

  it('continues a conversation with the session_id of an earlier answer', async () => {
    gateway.upstream.enqueue({ kind: 'text', text: 'Noted: blue.' }, { kind: 'text', text: 'Blue.' });
    const client = await connect();
    const first = await client.callTool({ name: 'helper', arguments: { message: 'My colour is blue.' } });
    const sessionId = (first.structuredContent as { session_id: string }).session_id;
    await client.callTool({ name: 'helper', arguments: { message: 'What is my colour?', session_id: sessionId } });
    const sent = gateway.upstream.chatRequests().at(-1)!.body as { messages: { role: string; content: string }[] };
    expect(sent.messages.map((message) => message.content)).toContain('My colour is blue.');
  });

  it('refuses arguments by name as a tool error the model can read, and an unknown tool as a protocol error', async () => {
    const client = await connect();
    const bad = await client.callTool({ name: 'helper', arguments: { message: 'Hi', temperature: 2 } });
    expect(bad.isError).toBe(true);
    expect(JSON.stringify(bad.content)).toContain('temperature');
    const empty = await client.callTool({ name: 'helper', arguments: {} });
    expect(JSON.stringify(empty.content)).toContain('arguments.message');
    await expect(client.callTool({ name: 'nobody', arguments: { message: 'Hi' } })).rejects.toThrow(/Unknown tool/);
  });

  it('needs a credential; an access token needs the mcp scope and sees only its own agent', async () => {
    await expect(connectMcp(gateway.url, 'wrong-key-0123456789')).rejects.toMatchObject({
      code: 401,
      message: expect.stringContaining('invalid_credentials'),
    });
    const chatOnly = await createToken(gateway.url, 'helper', ['chat']);
    await expect(connectMcp(gateway.url, chatOnly)).rejects.toMatchObject({
      code: 403,
      message: expect.stringContaining('insufficient_scope'),
    });
    const token = await createToken(gateway.url, 'helper', ['mcp']);
    const client = await connect(token);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['helper']);
    gateway.upstream.enqueue({ kind: 'text', text: 'Hello.' });
    const result = await client.callTool({ name: 'helper', arguments: { message: 'Hi' } });
    expect(result.content).toEqual([{ type: 'text', text: 'Hello.' }]);
    await expect(client.callTool({ name: 'timekeeper', arguments: { message: 'Time?' } })).rejects.toMatchObject({
      code: 403,
      message: expect.stringContaining('wrong_agent'),
    });
  });

  it('a single-use token survives initialize and tools/list: only the tools/call spends it', async () => {
    const token = await createToken(gateway.url, 'helper', ['mcp'], { single_use: true });
    const client = await connect(token);
    await client.listTools();
    gateway.upstream.enqueue({ kind: 'text', text: 'Once.' });
    expect((await client.callTool({ name: 'helper', arguments: { message: 'Hi' } })).content).toEqual([
      { type: 'text', text: 'Once.' },
    ]);
    await expect(client.callTool({ name: 'helper', arguments: { message: 'Again' } })).rejects.toMatchObject({
      code: 401,
      message: expect.stringContaining('token_used'),
    });
  });
});
