import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  analyticsRoutes,
  createAnalyticsQueryStore,
  createAnalyticsService,
  createAnalyticsWriteStore,
  createUsageRecorder,
} from '../../src/analytics/index.js';
import { createAuthenticator, createTokenService, createTokenStore, type TokenService } from '../../src/auth/index.js';
import type { AuthConfig } from '../../src/config/index.js';
import type { DatabaseHandle } from '../../src/db/index.js';
import { createServer, registerAuthHooks } from '../../src/http/index.js';
import { describeEachDialect, type TestDatabase } from '../support/databases.js';
import { injectFetch } from '../support/inject.js';
import { openAnalyticsDatabase, RISK_SET, USAGE_SET } from './analytics-fixtures.js';

const API_KEY = 'analytics-test-api-key-0001';

/** The pieces src/app.ts wires, with only the analytics routes mounted. */
async function startServer(handle: DatabaseHandle): Promise<{ server: FastifyInstance; tokens: TokenService }> {
  const authConfig: AuthConfig = {
    api_keys: [API_KEY],
    tokens: { default_expires_in_seconds: 3600, max_expires_in_seconds: 86_400 },
  };
  const tokens = createTokenService({
    store: createTokenStore(handle.db),
    config: authConfig.tokens,
    agentExists: () => true,
  });
  const authenticator = createAuthenticator({ config: authConfig, apiKeys: authConfig.api_keys, tokens });
  const server = await createServer({
    logLevel: 'silent',
    bodyLimitBytes: 1_048_576,
    corsOrigins: [],
    version: 'test',
  });
  registerAuthHooks(server, authenticator, tokens);
  const analytics = createAnalyticsService({ store: createAnalyticsQueryStore(handle.db) });
  await server.register(analyticsRoutes, { analytics });
  return { server, tokens };
}

await describeEachDialect('analytics routes', (dialect) => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  let server: FastifyInstance;
  let tokens: TokenService;

  beforeAll(async () => {
    database = await dialect.create();
    handle = await openAnalyticsDatabase(database);
    const recorder = createUsageRecorder({ store: createAnalyticsWriteStore(handle.db) });
    await Promise.all([
      ...USAGE_SET.map((record) => recorder.record(record)),
      ...RISK_SET.map((event) => recorder.recordRisk(event)),
    ]);
    await recorder.close();
    ({ server, tokens } = await startServer(handle));
  });
  afterAll(async () => {
    await server?.close();
    await handle?.close();
    await database?.drop();
  });

  const get = async (path: string, headers: Record<string, string> = { 'x-api-key': API_KEY }) => {
    const response = await injectFetch(server, path, { headers });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  it('answer every report to an operator', async () => {
    expect(await get('/analytics/costs')).toEqual({
      status: 200,
      body: {
        total_cost_usd: 0.317123456,
        by_model: { 'openai/gpt-4o': 0.2125, 'upstream/a': 0.101623456, 'upstream/b': 0.003 },
        by_agent: { helper: 0.3045, other: 0.012623456 },
        record_count: 7,
      },
    });
    expect(await get('/analytics/usage')).toEqual({
      status: 200,
      body: {
        total_tokens: 2468,
        by_model: { 'openai/gpt-4o': 1503, 'upstream/a': 665, 'upstream/b': 300 },
        by_agent: { helper: 953, other: 1515 },
        record_count: 7,
      },
    });
    expect(await get('/analytics/risks')).toEqual({
      status: 200,
      body: { pii_events: 3, hallucination_flags: 1, content_filter_events: 2, total_events: 6 },
    });
    const models = await get('/analytics/models');
    expect(models.status).toBe(200);
    expect(models.body).toEqual([
      {
        model: 'openai/gpt-4o',
        total_cost_usd: 0.2125,
        total_tokens: 1503,
        request_count: 2,
        cost_per_1k_tokens: 0.141383899,
      },
      {
        model: 'upstream/a',
        total_cost_usd: 0.101623456,
        total_tokens: 665,
        request_count: 4,
        cost_per_1k_tokens: 0.152817227,
      },
      { model: 'upstream/b', total_cost_usd: 0.003, total_tokens: 300, request_count: 1, cost_per_1k_tokens: 0.01 },
    ]);
    const agents = await get('/analytics/agents');
    expect(agents.body).toEqual([
      {
        agent_name: 'helper',
        total_cost_usd: 0.3045,
        total_tokens: 953,
        request_count: 5,
        models_used: ['openai/gpt-4o', 'upstream/a', 'upstream/b'],
      },
      {
        agent_name: 'other',
        total_cost_usd: 0.012623456,
        total_tokens: 1515,
        request_count: 2,
        models_used: ['openai/gpt-4o', 'upstream/a'],
      },
    ]);
  });

  it('filter by agent and by a window given as dates or date-times with any zone', async () => {
    expect((await get('/analytics/costs?agent_name=other')).body).toMatchObject({
      total_cost_usd: 0.012623456,
      record_count: 2,
      by_agent: { other: 0.012623456 },
    });
    expect((await get('/analytics/costs?since=2026-03-02&until=2026-03-03')).body).toMatchObject({
      total_cost_usd: 0.012623456,
      record_count: 2,
    });
    const zoned = await get(
      `/analytics/usage?since=${encodeURIComponent('2026-03-01T13:00:00+01:00')}&until=${encodeURIComponent('2026-03-03T09:00:00+01:00')}`,
    );
    expect(zoned.body).toMatchObject({ total_tokens: 1815, record_count: 3 });
    expect((await get('/analytics/risks?agent_name=helper&since=2026-03-03T00:00:00Z')).body).toEqual({
      pii_events: 0,
      hallucination_flags: 0,
      content_filter_events: 2,
      total_events: 2,
    });
    expect((await get('/analytics/models?agent_name=other&until=2026-03-02T06:00:00.000Z')).body).toEqual([
      {
        model: 'upstream/a',
        total_cost_usd: 0.000123456,
        total_tokens: 15,
        request_count: 1,
        cost_per_1k_tokens: 0.0082304,
      },
    ]);
    expect((await get('/analytics/agents?since=2030-01-01')).body).toEqual([]);
  });

  it('reject a malformed window with 400 naming the field', async () => {
    const badSince = await get('/analytics/costs?since=yesterday');
    expect(badSince.status).toBe(400);
    expect(badSince.body).toMatchObject({
      error: { type: 'invalid_request_error', code: 'invalid_request', param: 'since' },
    });
    expect(JSON.stringify(badSince.body)).toContain('querystring.since');
    const noZone = await get('/analytics/usage?until=2026-03-01T10:00:00');
    expect(noZone).toMatchObject({ status: 400, body: { error: { param: 'until' } } });
    const reversed = await get('/analytics/agents?since=2026-03-02&until=2026-03-01');
    expect(reversed).toMatchObject({ status: 400, body: { error: { param: 'until' } } });
    const unknown = await get('/analytics/risks?from=2026-03-01');
    expect(unknown).toMatchObject({ status: 400, body: { error: { param: 'from' } } });
    expect(await get('/analytics/models?since=2026-02-30')).toMatchObject({
      status: 400,
      body: { error: { param: 'since' } },
    });
  });

  it('refuse requests without credentials (401) and access tokens (403)', async () => {
    expect(await get('/analytics/costs', {})).toMatchObject({
      status: 401,
      body: { error: { type: 'authentication_error' } },
    });
    const { token } = await tokens.create({ agent_name: 'helper', scopes: ['chat', 'tools', 'a2a'] });
    for (const path of [
      '/analytics/costs',
      '/analytics/usage',
      '/analytics/risks',
      '/analytics/models',
      '/analytics/agents',
    ]) {
      expect(await get(path, { authorization: `Bearer ${token}` })).toMatchObject({
        status: 403,
        body: { error: { type: 'permission_error', code: 'operator_only' } },
      });
    }
  });

  it('describe the routes and their query parameters in the OpenAPI document', async () => {
    const document = (await (await injectFetch(server, '/openapi.json')).json()) as {
      paths: Record<string, { get: { parameters: { name: string; in: string }[] } }>;
    };
    for (const path of [
      '/analytics/costs',
      '/analytics/usage',
      '/analytics/risks',
      '/analytics/models',
      '/analytics/agents',
    ]) {
      expect(
        document.paths[path].get.parameters.map((parameter) => `${parameter.in}:${parameter.name}`).sort(),
      ).toEqual([
        'query:agent_name',
        'query:end_user',
        'query:mission_id',
        'query:mission_step',
        'query:since',
        'query:until',
      ]);
    }
  });
});
