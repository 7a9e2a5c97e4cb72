import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { trace } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToolRegistry, ToolExecutionError, type ToolRegistry } from '../../src/tools/index.js';
import { createFixtureMcpServer } from '../fixtures/mcp-fixture-server.js';
import { captureLogger } from './support/capture-logger.js';
import { toolsConfig } from './support/tools-config.js';

const STDIO_SERVER = fileURLToPath(new URL('../fixtures/mcp-stdio-server.ts', import.meta.url));
const FIXTURE_TOOLS = ['add_tool', 'dotted_name', 'echo', 'env', 'exit', 'fail', 'greet', 'slow'];

/** The `traceparent` header of each `tools/call` request the HTTP fixture received. */
const callTraceparents: (string | undefined)[] = [];

/** The fixture over streamable HTTP, stateless: a fresh server and transport per request. */
async function startHttpMcpServer(): Promise<{ url: string; server: Server }> {
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null') as { method?: string } | null;
    if (body?.method === 'tools/call') callTraceparents.push(req.headers.traceparent as string | undefined);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    const mcp = createFixtureMcpServer();
    res.on('close', () => void mcp.close());
    await mcp.connect(transport);
    await transport.handleRequest(req, res, body);
  };
  // A failure in a fake surfaces as an unhandled rejection, which vitest reports.
  const server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, server };
}

describe('MCP servers as tools', () => {
  const logger = captureLogger();
  let http: { url: string; server: Server };
  let registry: ToolRegistry;

  beforeAll(async () => {
    http = await startHttpMcpServer();
    registry = await createToolRegistry({
      logger,
      config: toolsConfig([
        {
          mcp: {
            command: process.execPath,
            args: ['--import', 'tsx', STDIO_SERVER],
            env: { FIXTURE_GREETING: 'from config' },
          },
          prefix: 'fx',
          timeout_ms: 5_000,
        },
        { mcp: { url: http.url }, prefix: 'web' },
        { mcp: { command: process.execPath, args: ['-e', 'process.exit(3)'] }, prefix: 'dead', timeout_ms: 5_000 },
        { mcp: { url: 'http://127.0.0.1:9/mcp' }, prefix: 'nowhere', timeout_ms: 5_000 },
      ]),
    });
  });

  afterAll(async () => {
    await registry.close();
    http.server.closeAllConnections();
    await new Promise((resolve) => http.server.close(resolve));
  });

  it('adds each server’s tools as <prefix>__<tool>, with names models accept', () => {
    const names = registry.list().map((tool) => tool.name);
    expect(names.filter((name) => name.startsWith('fx__'))).toEqual(FIXTURE_TOOLS.map((tool) => `fx__${tool}`));
    expect(names.filter((name) => name.startsWith('web__'))).toEqual(FIXTURE_TOOLS.map((tool) => `web__${tool}`));
    expect(registry.get('fx__echo')).toMatchObject({
      description: 'Echoes the text',
      parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    });
  });

  it('logs and skips servers that cannot be connected', () => {
    const names = registry.list().map((tool) => tool.name);
    expect(names.some((name) => name.startsWith('dead__') || name.startsWith('nowhere__'))).toBe(false);
    const skipped = logger.lines.filter(
      (line) => line.level === 'warn' && line.message.includes('could not be connected'),
    );
    expect([...new Set(skipped.map((line) => (line.details as { mcp: string }).mcp))].sort()).toEqual([
      'dead',
      'nowhere',
    ]);
  });

  it('expands <prefix>__* to all of that server’s tools', () => {
    expect(registry.forAgent(['web__*', 'get_current_time']).map((tool) => tool.name)).toEqual([
      ...FIXTURE_TOOLS.map((tool) => `web__${tool}`),
      'get_current_time',
    ]);
  });

  it.each(['fx', 'web'])('calls %s tools and joins their text content', async (prefix) => {
    expect(await registry.execute(`${prefix}__echo`, { text: 'ping' })).toBe('ping');
    expect(await registry.execute(`${prefix}__greet`, '{"names":["ada","bob"]}')).toBe('hello ada\nhello bob');
    expect(await registry.execute(`${prefix}__dotted_name`, {})).toBe('dotted');
  });

  it('passes the configured environment to a stdio server', async () => {
    expect(await registry.execute('fx__env', {})).toBe('from config');
  });

  it('validates arguments against the server’s schema before calling', async () => {
    const error = await registry.execute('fx__echo', { text: 42 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolExecutionError);
    expect(error).toMatchObject({
      code: 'invalid_arguments',
      message: 'Invalid arguments for tool "fx__echo": text: must be string',
    });
  });

  it('turns an isError result into a failure carrying the server’s message', async () => {
    await expect(registry.execute('web__fail', {})).rejects.toMatchObject({
      name: 'ToolExecutionError',
      code: 'failed',
      message: expect.stringContaining('fixture failure'),
    });
  });

  it('aborts a call when the caller aborts', async () => {
    const controller = new AbortController();
    const pending = registry.execute('fx__slow', { ms: 60_000 }, { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: 'aborted' });
    expect(await registry.execute('fx__echo', { text: 'still alive' })).toBe('still alive');
  });

  it('times out a call after the server’s timeout_ms', async () => {
    const quick = await createToolRegistry({
      config: toolsConfig([{ mcp: { url: http.url }, prefix: 'quick', timeout_ms: 200 }]),
    });
    try {
      await expect(quick.execute('quick__slow', { ms: 60_000 })).rejects.toMatchObject({
        code: 'timeout',
        message: 'Tool "quick__slow" timed out after 200 ms',
      });
    } finally {
      await quick.close();
    }
  });

  it("sends the calling tool span's traceparent to an MCP server over HTTP, and none without a span", async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const spanId = '00f067aa0ba902b7';
    const span = trace.wrapSpanContext({ traceId, spanId, traceFlags: 1 });
    callTraceparents.length = 0;
    expect(await registry.execute('web__echo', { text: 'traced' }, { trace: span })).toBe('traced');
    expect(await registry.execute('web__echo', { text: 'untraced' })).toBe('untraced');
    expect(callTraceparents).toEqual([`00-${traceId}-${spanId}-01`, undefined]);
  });
});
