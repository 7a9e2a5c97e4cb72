import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect, type TestDatabase } from '../../../support/databases.js';
import { startGateway, type GatewayHarness } from '../openai-harness.js';

/** Stored responses and the sessions behind previous_response_id, on each database the gateway runs on. */
await describeEachDialect('stored responses', (dialect) => {
  let testDb: TestDatabase;
  let gateway: GatewayHarness;
  beforeAll(async () => {
    testDb = await dialect.create();
    gateway = await startGateway({ databaseUrl: testDb.databaseUrl, dataDir: testDb.dataDir });
  });
  afterAll(async () => {
    await gateway?.stop();
    await testDb?.drop();
  });

  const conversationSent = () => gateway.upstream.chatRequests().at(-1)?.body.messages.slice(1);

  it('retrieves, continues, branches and deletes responses', async () => {
    gateway.upstream.enqueue({ kind: 'text', text: 'Hi Ada.' });
    const first = await gateway.client.responses.create({ model: 'helper', input: 'I am Ada.', metadata: { k: 'v' } });
    expect(await gateway.client.responses.retrieve(first.id)).toEqual(first);

    gateway.upstream.enqueue({ kind: 'text', text: 'You are Ada.' });
    const second = await gateway.client.responses.create({
      model: 'helper',
      input: 'Who am I?',
      previous_response_id: first.id,
    });
    expect(conversationSent()).toEqual([
      { role: 'user', content: 'I am Ada.' },
      { role: 'assistant', content: 'Hi Ada.' },
      { role: 'user', content: 'Who am I?' },
    ]);

    await gateway.client.responses.create({ model: 'helper', input: 'And now?', previous_response_id: second.id });
    expect(conversationSent()).toHaveLength(5);

    // From the first response again: a branch without the later turns.
    await gateway.client.responses.create({ model: 'helper', input: 'Where?', previous_response_id: first.id });
    expect(conversationSent()).toEqual([
      { role: 'user', content: 'I am Ada.' },
      { role: 'assistant', content: 'Hi Ada.' },
      { role: 'user', content: 'Where?' },
    ]);

    await gateway.client.responses.delete(first.id);
    await expect(gateway.client.responses.retrieve(first.id)).rejects.toMatchObject({ status: 404 });
  });
});
