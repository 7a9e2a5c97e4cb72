import { APIError } from 'openai';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createDatabase, type DatabaseHandle } from '../../../src/db/index.js';
import { describeEachDialect, type TestDatabase } from '../../support/databases.js';
import { authHeaders, gatewayYaml, startGateway, type GatewayHarness } from './openai-harness.js';

// Issue #41 item 2: a session's turns are stored once. A run's prompt logs refer to the session's history (and a
// later step to the one before) instead of copying it, an ended run keeps no resume input, and operators still
// read each step's whole prompt. A session's history is capped by sessions.max_history_bytes.

const TURN = 20_000;
const turn = (index: number) => `turn ${index} `.padEnd(TURN, 'x');

await describeEachDialect('a session stores each turn once', (dialect) => {
  let db: TestDatabase;
  let gateway: GatewayHarness;
  let reader: DatabaseHandle;
  beforeAll(async () => {
    db = await dialect.create();
    gateway = await startGateway({
      yaml: `${gatewayYaml()}\nsessions: { max_history_bytes: 200000 }\n`,
      databaseUrl: db.databaseUrl,
      dataDir: db.dataDir,
    });
    reader = await createDatabase({ databaseUrl: db.databaseUrl, dataDir: db.dataDir, ownDataDir: false });
  });
  afterAll(async () => {
    await reader?.close();
    await gateway?.stop();
    await db?.drop();
  });

  const say = async (sessionId: string, content: string) => {
    const { response } = await gateway.client.chat.completions
      .create({ model: 'helper', messages: [{ role: 'user', content }] }, { headers: { 'x-session-id': sessionId } })
      .withResponse();
    return response.headers.get('x-run-id')!;
  };

  it("stores what each turn adds, not the history again, and shows each step's whole prompt", async () => {
    const runIds: string[] = [];
    for (let index = 1; index <= 4; index += 1) runIds.push(await say('growing', turn(index)));
    const rows = await reader.db
      .selectFrom('run_steps')
      .innerJoin('runs', 'runs.run_id', 'run_steps.run_id')
      .select(['runs.run_id', 'run_steps.prompt_log', 'runs.resume_input'])
      .where('runs.session_id', '=', 'growing')
      .execute();
    expect(rows).toHaveLength(4);
    // Each prompt log holds its turn: the question and the answer (~20 KB each), however long the session grew.
    for (const row of rows) {
      expect(row.prompt_log.length).toBeGreaterThan(TURN);
      expect(row.prompt_log.length).toBeLessThan(2 * TURN + 2_000);
      expect(row.resume_input).toBeNull();
    }
    const detail = (await (
      await fetch(`${gateway.app.url}/api/v1/admin/runs/${runIds[3]}`, { headers: authHeaders })
    ).json()) as { step_details: { prompt_log: { messages: { role: string; content: string }[] } }[] };
    expect(detail.step_details[0].prompt_log.messages).toEqual([
      { role: 'system', content: 'You are a helpful assistant.' },
      ...[1, 2, 3].flatMap((index) => [
        { role: 'user', content: turn(index) },
        { role: 'assistant', content: `echo: ${turn(index)}` },
      ]),
      { role: 'user', content: turn(4) },
    ]);
  });

  it('refuses a turn that would take the history past sessions.max_history_bytes, naming the cap', async () => {
    const big = 'y'.repeat(60_000);
    await say('capped', big);
    await say('capped', big);
    // 240 KB stored (two questions and their echoes): one more question is refused, and nothing is stored.
    const refused = await say('capped', big).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(APIError);
    expect((refused as APIError).status).toBe(413);
    expect((refused as APIError).error).toMatchObject({
      type: 'payload_too_large_error',
      code: 'session_history_too_large',
      message: expect.stringMatching(
        /^Session "capped" would hold \d+ bytes of history, over sessions\.max_history_bytes \(200000\)/,
      ),
    });
    const session = await reader.db
      .selectFrom('sessions')
      .select('message_count')
      .where('session_id', '=', 'capped')
      .executeTakeFirstOrThrow();
    expect(Number(session.message_count)).toBe(4);
  });
});
