import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startGateway, type GatewayHarness } from './openai-harness.js';

/**
 * The run's insert commits while the model call is under way, not ahead of it: on SQLite the commit is
 * synchronous, and a commit before the request went out added its whole time to every answer (bench/HISTORY.md,
 * optimisation log). The run is still stored before the answer arrives.
 */
let gateway: GatewayHarness;
let reader: SqliteDatabase.Database;
const storedRuns = () => (reader.prepare('select count(*) as n from runs').get() as { n: number }).n;

beforeAll(async () => {
  gateway = await startGateway();
  // A second connection: it sees committed rows only.
  reader = new SqliteDatabase(join(gateway.app.dataDir, 'agent-gateway.sqlite'), { readonly: true });
});
afterAll(async () => {
  reader?.close();
  await gateway?.stop();
});

it('sends the model request before the run is committed, and answers only once it is', async () => {
  // The first completion opens the upstream connection; the next one reuses it, as under load.
  await gateway.client.chat.completions.create({ model: 'helper', messages: [{ role: 'user', content: 'warm up' }] });
  const before = storedRuns();
  let storedWhenCalled: number | undefined;
  gateway.upstream.enqueue({
    kind: 'handler',
    fn: () => {
      storedWhenCalled = storedRuns();
      return { kind: 'text', text: 'overlapped' };
    },
  });
  const completion = await gateway.client.chat.completions.create({
    model: 'helper',
    messages: [{ role: 'user', content: 'hello' }],
  });
  expect(completion.choices[0].message.content).toBe('overlapped');
  // The upstream had the request while the run's insert was still waiting for its commit.
  expect(storedWhenCalled).toBe(before);
  expect(storedRuns()).toBe(before + 1);
});
