import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthenticator, createTokenService, createTokenStore, type TokenService } from '../../src/auth/index.js';
import { createDatabase, type DatabaseHandle } from '../../src/db/index.js';
import { createServer, registerAuthHooks } from '../../src/http/index.js';
import { createToolRegistry, toolsRoutes, type ToolRegistry } from '../../src/tools/index.js';
import { tempDataDir } from '../support/databases.js';
import { injectFetch } from '../support/inject.js';
import { toolsConfig } from './support/tools-config.js';

const API_KEY = 'tools-test-api-key-0123';
const AGENTS: Record<string, string[]> = { helper: ['get_current_time', 'weather'], other: ['http_request'] };

describe('tool discovery routes', () => {
  const temp = tempDataDir();
  let database: DatabaseHandle;
  let registry: ToolRegistry;
  let tokens: TokenService;
  let server: FastifyInstance;

  beforeAll(async () => {
    database = await createDatabase({ dataDir: temp.dataDir });
    tokens = createTokenService({
      store: createTokenStore(database.db),
      config: { default_expires_in_seconds: 3600, max_expires_in_seconds: 86_400 },
      agentExists: (name) => name in AGENTS,
    });
    registry = await createToolRegistry({
      config: toolsConfig([
        {
          name: 'weather',
          description: 'Weather for a city',
          url: 'http://127.0.0.1:9/weather/{{city}}',
          parameters: {
            type: 'object',
            properties: { city: { type: 'string' } },
            required: ['city'],
            additionalProperties: false,
          },
        },
        { name: 'bare', url: 'http://127.0.0.1:9/bare' },
        // Nothing listens on port 9: the server stays down and is retried in the background.
        { mcp: { url: 'http://127.0.0.1:9/mcp' }, prefix: 'gone', timeout_ms: 1_000 },
      ]),
      mcpBackoff: { initialMs: 60_000, maxMs: 60_000 },
    });
    server = await createServer({ logLevel: 'silent', bodyLimitBytes: 1_048_576, corsOrigins: [], version: 'test' });
    registerAuthHooks(
      server,
      createAuthenticator({
        config: { api_keys: [API_KEY], tokens: { default_expires_in_seconds: 3600, max_expires_in_seconds: 86_400 } },
        apiKeys: [API_KEY],
        tokens,
      }),
      tokens,
    );
    await server.register(toolsRoutes, { registry, agentTools: (name) => AGENTS[name] });
  });

  afterAll(async () => {
    await server.close();
    await registry.close();
    await database.close();
    temp.remove();
  });

  const get = async (path: string, credential?: string) => {
    const response = await injectFetch(server, path, {
      headers: credential ? { authorization: `Bearer ${credential}` } : {},
    });
    return { status: response.status, body: (await response.json()) as any };
  };
  const names = (body: { function: { name: string } }[]) => body.map((tool) => tool.function.name);

  it('needs credentials', async () => {
    expect((await get('/api/v1/tools')).status).toBe(401);
    expect((await get('/api/v1/tools/weather')).status).toBe(401);
  });

  describe('with an API key', () => {
    it('lists every tool in function-calling format, always with properties and required', async () => {
      const { status, body } = await get('/api/v1/tools', API_KEY);
      expect(status).toBe(200);
      expect(names(body)).toEqual(['bare', 'get_current_time', 'http_request', 'weather']);
      expect(body.find((tool: any) => tool.function.name === 'bare')).toEqual({
        type: 'function',
        function: { name: 'bare', description: '', parameters: { type: 'object', properties: {}, required: [] } },
      });
      expect(body.find((tool: any) => tool.function.name === 'weather')).toEqual({
        type: 'function',
        function: {
          name: 'weather',
          description: 'Weather for a city',
          parameters: {
            type: 'object',
            properties: { city: { type: 'string' } },
            required: ['city'],
            additionalProperties: false,
          },
        },
      });
    });

    it('filters by agent_name', async () => {
      expect(names((await get('/api/v1/tools?agent_name=helper', API_KEY)).body)).toEqual([
        'get_current_time',
        'weather',
      ]);
      expect(names((await get('/api/v1/tools?agent_name=other', API_KEY)).body)).toEqual(['http_request']);
    });

    it('answers 404 for an unknown agent and 400 for an unknown query parameter', async () => {
      const unknown = await get('/api/v1/tools?agent_name=ghost', API_KEY);
      expect(unknown).toEqual({
        status: 404,
        body: { error: { type: 'not_found_error', code: 'agent_not_found', message: 'No agent named "ghost"' } },
      });
      expect((await get('/api/v1/tools?agent=helper', API_KEY)).status).toBe(400);
    });

    it('shows each MCP server with the state of its connection', async () => {
      const { status, body } = await get('/api/v1/tools/mcp/servers', API_KEY);
      expect(status).toBe(200);
      expect(body).toEqual([
        {
          prefix: 'gone',
          transport: 'http',
          state: 'reconnecting',
          tools: 0,
          connected_at: null,
          last_error: expect.any(String),
          reconnect_attempts: 1,
          next_attempt_at: expect.any(String),
        },
      ]);
      expect(body[0].last_error).not.toContain('127.0.0.1:9/mcp');
    });

    it('shows one tool, and 404 tool_not_found for an unknown one', async () => {
      expect(await get('/api/v1/tools/get_current_time', API_KEY)).toMatchObject({
        status: 200,
        body: { type: 'function', function: { name: 'get_current_time' } },
      });
      expect(await get('/api/v1/tools/nope', API_KEY)).toEqual({
        status: 404,
        body: { error: { type: 'not_found_error', code: 'tool_not_found', message: 'No tool named "nope"' } },
      });
    });
  });

  describe('with an access token', () => {
    let token: string;
    beforeAll(async () => {
      token = (await tokens.create({ agent_name: 'helper', scopes: ['tools'] })).token;
    });

    it('may not see the MCP servers (configuration is for operators)', async () => {
      expect((await get('/api/v1/tools/mcp/servers', token)).status).toBe(403);
    });

    it('sees only its agent’s tools', async () => {
      expect(names((await get('/api/v1/tools', token)).body)).toEqual(['get_current_time', 'weather']);
      expect(names((await get('/api/v1/tools?agent_name=helper', token)).body)).toEqual([
        'get_current_time',
        'weather',
      ]);
    });

    it('may not ask for another agent’s tools', async () => {
      const { status, body } = await get('/api/v1/tools?agent_name=other', token);
      expect(status).toBe(403);
      expect(body.error).toMatchObject({ type: 'permission_error', code: 'wrong_agent' });
    });

    it('sees its own tools one by one, and no other tool', async () => {
      expect((await get('/api/v1/tools/weather', token)).status).toBe(200);
      expect(await get('/api/v1/tools/http_request', token)).toMatchObject({
        status: 404,
        body: { error: { code: 'tool_not_found' } },
      });
    });

    it('is refused without the tools scope', async () => {
      const chatOnly = (await tokens.create({ agent_name: 'helper', scopes: ['chat'] })).token;
      for (const path of ['/api/v1/tools', '/api/v1/tools/weather']) {
        const { status, body } = await get(path, chatOnly);
        expect(status).toBe(403);
        expect(body.error).toMatchObject({ type: 'permission_error', code: 'insufficient_scope' });
      }
    });
  });

  it('documents both routes in the OpenAPI document', async () => {
    const doc = (await get('/openapi.json')).body as {
      paths: Record<string, { get: { parameters?: { name: string }[] } }>;
    };
    expect(doc.paths['/api/v1/tools'].get.parameters?.map((p) => p.name)).toEqual(['agent_name', 'limit', 'offset']);
    expect(doc.paths['/api/v1/tools/{name}']).toBeDefined();
  });
});
