import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect, type TestDatabase } from '../support/databases.js';
import { startAuthTestServer, type AuthTestServer } from './auth-test-server.js';

const CONCURRENT = 20;

await describeEachDialect('concurrent token use', (dialect) => {
  let database: TestDatabase;
  let gw: AuthTestServer;
  beforeAll(async () => {
    database = await dialect.create();
    gw = await startAuthTestServer({ database });
  });
  afterAll(async () => {
    await gw?.close();
    await database?.drop();
  });

  const race = (token: string) =>
    Promise.all(
      Array.from({ length: CONCURRENT }, async () => {
        const response = await fetch(`${gw.url}/probe/agents/helper/chat`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: '{}',
        });
        const body = (await response.json()) as { error?: { code: string } };
        return `${response.status} ${body.error?.code ?? 'ok'}`;
      }),
    );

  it(`a single-use token succeeds exactly once under ${CONCURRENT} concurrent requests`, async () => {
    const { token, token_id } = await gw.tokens.create({ agent_name: 'helper', single_use: true });
    const outcomes = await race(token);
    expect(outcomes.filter((outcome) => outcome === '200 ok')).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome === '401 token_used')).toHaveLength(CONCURRENT - 1);
    expect(await gw.tokens.get(token_id)).toMatchObject({ status: 'used', use_count: 1 });
  });

  it(`a reusable token succeeds for all ${CONCURRENT} and counts every use`, async () => {
    const { token, token_id } = await gw.tokens.create({ agent_name: 'helper' });
    const outcomes = await race(token);
    expect(outcomes).toEqual(Array.from({ length: CONCURRENT }, () => '200 ok'));
    const view = await gw.tokens.get(token_id);
    expect(view).toMatchObject({ status: 'active', use_count: CONCURRENT });
    expect(view.last_used_at).toBe(gw.clock.now().toISOString());
  });
});
