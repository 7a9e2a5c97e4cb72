import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createToolRegistry, type ToolRegistry } from '../../src/tools/index.js';
import { createFixtureMcpServer } from '../fixtures/mcp-fixture-server.js';
import { captureLogger } from './support/capture-logger.js';
import { toolsConfig } from './support/tools-config.js';

const STDIO_SERVER = fileURLToPath(new URL('../fixtures/mcp-stdio-server.ts', import.meta.url));
const WAIT = { timeout: 20_000, interval: 50 };

function listen(server: Server, port = 0): Promise<number> {
  return new Promise((resolve) =>
    server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );
}

function createHttpMcpServer(): Server {
  return createServer((req, res) => {
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    const mcp = createFixtureMcpServer();
    res.on('close', () => void mcp.close());
    void mcp.connect(transport).then(() => transport.handleRequest(req, res));
  });
}

async function stop(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

describe('MCP servers that come and go', () => {
  const logger = captureLogger();
  let registry: ToolRegistry;
  let http: Server;
  let httpPort: number;
  const state = (prefix: string) => registry.mcpServers().find((server) => server.prefix === prefix);

  beforeAll(async () => {
    http = createHttpMcpServer();
    httpPort = await listen(http);
    registry = await createToolRegistry({
      logger,
      mcpBackoff: { initialMs: 50, maxMs: 200 },
      config: toolsConfig([
        {
          mcp: { command: process.execPath, args: ['--import', 'tsx', STDIO_SERVER] },
          prefix: 'fx',
          timeout_ms: 10_000,
        },
        { mcp: { url: `http://127.0.0.1:${httpPort}/mcp` }, prefix: 'web', timeout_ms: 5_000 },
      ]),
    });
  });

  afterAll(async () => {
    await registry.close();
    await stop(http);
  });

  it('restarts a stdio server that died; its tools fail with a clear tool error meanwhile, then work again', async () => {
    const before = state('fx');
    expect(before).toMatchObject({ state: 'connected', transport: 'stdio', last_error: null });

    // The call in flight when the process dies ends with a tool error, not a hang.
    await expect(registry.execute('fx__exit', {})).rejects.toMatchObject({
      name: 'ToolExecutionError',
      code: 'unavailable',
      message: expect.stringContaining('MCP server "fx"'),
    });
    // The tool is still listed, so the model keeps seeing it and gets an error it can read.
    expect(registry.get('fx__echo')).toBeDefined();
    await expect(registry.execute('fx__echo', { text: 'x' })).rejects.toMatchObject({
      code: 'unavailable',
      message: 'Tool "fx__echo" is unavailable: its MCP server "fx" is reconnecting; try again later',
    });
    expect(state('fx')).toMatchObject({ state: 'reconnecting', last_error: expect.any(String) });

    await vi.waitFor(() => expect(state('fx')?.state).toBe('connected'), WAIT);
    expect(state('fx')?.connected_at).not.toBe(before?.connected_at);
    expect(await registry.execute('fx__echo', { text: 'back' })).toBe('back');
  });

  it('refreshes the tool list when the server announces a change', async () => {
    expect(registry.get('fx__late')).toBeUndefined();
    expect(await registry.execute('fx__add_tool', { name: 'late' })).toBe('added late');
    await vi.waitFor(() => expect(registry.get('fx__late')).toBeDefined(), WAIT);
    expect(await registry.execute('fx__late', {})).toBe('late answers');
    expect(state('fx')?.tools).toBe(registry.list().filter((tool) => tool.name.startsWith('fx__')).length);
  });

  it('reconnects to an HTTP server that went away and came back', async () => {
    await stop(http);
    await expect(registry.execute('web__echo', { text: 'x' })).rejects.toMatchObject({ code: 'unavailable' });
    expect(state('web')?.state).toBe('reconnecting');

    http = createHttpMcpServer();
    await listen(http, httpPort);
    await vi.waitFor(() => expect(state('web')?.state).toBe('connected'), WAIT);
    expect(await registry.execute('web__echo', { text: 'again' })).toBe('again');
    expect(logger.lines.some((line) => line.message.includes('MCP server disconnected'))).toBe(true);
  });

  it('connects a server that was down at start-up once it comes up', async () => {
    const late = createHttpMcpServer();
    const port = await listen(late);
    await stop(late);
    const registryWithLate = await createToolRegistry({
      mcpBackoff: { initialMs: 50, maxMs: 200 },
      config: toolsConfig([{ mcp: { url: `http://127.0.0.1:${port}/mcp` }, prefix: 'late', timeout_ms: 5_000 }]),
    });
    try {
      expect(registryWithLate.list().some((tool) => tool.name.startsWith('late__'))).toBe(false);
      expect(registryWithLate.mcpServers()[0]).toMatchObject({ state: 'reconnecting', tools: 0 });
      const revived = createHttpMcpServer();
      await listen(revived, port);
      try {
        await vi.waitFor(() => expect(registryWithLate.mcpServers()[0]?.state).toBe('connected'), WAIT);
        expect(await registryWithLate.execute('late__echo', { text: 'hi' })).toBe('hi');
      } finally {
        await registryWithLate.close();
        await stop(revived);
      }
    } finally {
      await registryWithLate.close();
    }
  });
});
