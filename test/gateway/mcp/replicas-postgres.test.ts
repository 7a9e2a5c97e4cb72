import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnServer, type ServerProcess } from '../../admin/spawn-server.js';
import { TEST_API_KEY } from '../../support/app.js';
import { createPostgresDatabase, postgresUnavailable, type TestDatabase } from '../../support/databases.js';
import { startFakeUpstream, type FakeUpstream } from '../../support/fake-upstream.js';

const skip = await postgresUnavailable();

const config = (upstream: string) => `
auth: { api_keys: ["${TEST_API_KEY}"] }
providers:
  upstream: { type: openai-compatible, base_url: "${upstream}", max_retries: 0, timeout_ms: 30000 }
agents:
  - { name: helper, model: upstream/test-model }
`;

describe.skipIf(skip !== undefined)(
  `/mcp on two server processes sharing PostgreSQL, no sticky sessions${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    let db: TestDatabase;
    let upstream: FakeUpstream;
    let a: ServerProcess;
    let b: ServerProcess;

    beforeAll(async () => {
      db = await createPostgresDatabase();
      upstream = await startFakeUpstream();
      const file = join(db.dataDir, 'agent-gateway.yaml');
      writeFileSync(file, config(upstream.url));
      const env = { DATABASE_URL: db.databaseUrl, LOG_LEVEL: 'warn' };
      [a, b] = await Promise.all(
        ['a', 'b'].map((name) => spawnServer(['--config', file, '--data-dir', join(db.dataDir, name)], env)),
      );
    }, 60_000);
    afterAll(async () => {
      await Promise.all([a?.kill(), b?.kill()]);
      await upstream?.close();
      await db?.drop();
    });

    it('the official SDK client calls an agent through both replicas alternately, with no session error', async () => {
      // A round-robin load balancer: each HTTP request of the client goes to the other replica.
      const served: string[] = [];
      let next = 0;
      const roundRobin: typeof fetch = (input, init) => {
        const replica = [a, b][next++ % 2];
        served.push(replica === a ? 'a' : 'b');
        const url = new URL(String(input instanceof Request ? input.url : input));
        return fetch(`${replica.url}${url.pathname}`, init);
      };
      const client = new Client({ name: 'replicas-test', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${a.url}/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${TEST_API_KEY}` } },
          fetch: roundRobin,
        }),
      );
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['helper']);
      upstream.enqueue({ kind: 'text', text: 'Noted: otters.' }, { kind: 'text', text: 'Otters.' });
      const first = await client.callTool({ name: 'helper', arguments: { message: 'Remember: otters.' } });
      expect(first.content).toEqual([{ type: 'text', text: 'Noted: otters.' }]);
      const sessionId = (first.structuredContent as { session_id: string }).session_id;
      const second = await client.callTool({
        name: 'helper',
        arguments: { message: 'What did I ask you to remember?', session_id: sessionId },
      });
      expect(second.content).toEqual([{ type: 'text', text: 'Otters.' }]);
      // The second replica continued the session the first one stored.
      const sent = upstream.chatRequests().at(-1)!.body as { messages: { content: string }[] };
      expect(sent.messages.map((message) => message.content)).toContain('Remember: otters.');
      expect(new Set(served)).toEqual(new Set(['a', 'b']));
      await client.close();
    }, 60_000);
  },
);
