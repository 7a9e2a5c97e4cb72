import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { createDatabase } from '../../src/db/index.js';
import { tempDataDir } from '../support/databases.js';
import { authHeaders, startGateway } from '../gateway/openai/openai-harness.js';

/** One request on a connection of its own (no keep-alive), so closing the server waits only for its answer. */
function post(url: string, body: object): Promise<number> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { method: 'POST', headers: authHeaders, agent: false }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    outgoing.on('error', reject);
    outgoing.end(JSON.stringify(body));
  });
}

describe('shutdown', () => {
  it('writes the usage records of runs that drain before the database closes', async () => {
    const temp = tempDataDir();
    const gateway = await startGateway({ dataDir: temp.dataDir });
    let started!: () => void;
    const upstreamStarted = new Promise<void>((resolve) => (started = resolve));
    gateway.upstream.enqueue({
      kind: 'handler',
      fn: () => (
        started(),
        { kind: 'text', text: 'late answer', delayMs: 200, usage: { prompt_tokens: 4, completion_tokens: 2 } }
      ),
    });
    const answer = post(`${gateway.app.url}/v1/chat/completions`, {
      model: 'helper',
      messages: [{ role: 'user', content: 'hi' }],
    });
    await upstreamStarted;
    await gateway.app.stop({ keepData: true });
    await gateway.upstream.close();
    expect(await answer).toBe(200);

    const database = await createDatabase({ dataDir: temp.dataDir });
    try {
      const runs = await database.db.selectFrom('runs').select(['run_id', 'status']).execute();
      const usage = await database.db
        .selectFrom('usage_records')
        .select(['run_id', 'input_tokens', 'output_tokens'])
        .execute();
      expect(runs).toEqual([{ run_id: expect.any(String), status: 'completed' }]);
      expect(usage).toEqual([{ run_id: runs[0].run_id, input_tokens: 4, output_tokens: 2 }]);
    } finally {
      await database.close();
      temp.remove();
    }
  });
});
