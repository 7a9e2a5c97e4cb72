import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TaskState, type StreamResponse } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, postgresUnavailable, type TestDatabase } from '../../support/databases.js';
import { startFakeUpstream, type FakeUpstream } from '../../support/fake-upstream.js';
import { redisUnavailable, TEST_REDIS_URL } from '../../support/redis.js';
import {
  a2aYaml,
  bearer,
  discover,
  discoverLegacy,
  startA2aGateway,
  userMessage,
  type A2aGateway,
} from './a2a-harness.js';

const skip = (await postgresUnavailable()) ?? (await redisUnavailable());
const ANSWER = 'one two three four five six seven eight nine ten eleven twelve';

describe.skipIf(skip !== undefined)(
  `resubscribe on replica B to a task running on A (PostgreSQL + Redis)${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    let db: TestDatabase;
    let upstream: FakeUpstream;
    let a: A2aGateway;
    let b: A2aGateway;
    let token: string;
    beforeAll(async () => {
      db = await createPostgresDatabase();
      upstream = await startFakeUpstream();
      const start = () =>
        startA2aGateway({
          yaml: a2aYaml({ extra: 'server:\n  redis_url: "${REDIS_URL}"\n' }),
          upstream,
          databaseUrl: db.databaseUrl,
          dataDir: mkdtempSync(join(tmpdir(), 'a2a-replica-')),
          env: { REDIS_URL: TEST_REDIS_URL },
        });
      a = await start();
      b = await start();
      token = (await a.createToken('helper', ['a2a'])).token;
    });
    afterAll(async () => {
      await a?.stop();
      await b?.stop();
      await upstream?.close();
      await db?.drop();
    });

    const textOf = (events: StreamResponse[]) =>
      events
        .flatMap((event) => (event.payload?.$case === 'artifactUpdate' ? event.payload.value.artifact!.parts : []))
        .map((part) => (part.content?.$case === 'text' ? part.content.value : ''))
        .join('');

    for (const version of ['1.0', '0.3'] as const) {
      it(`follows the task to its end on B while A runs it (${version})`, async () => {
        // Slow enough that the run is still going when B subscribes; B replays it from the start either way.
        upstream.enqueue({ kind: 'text', text: ANSWER, chunks: 12, chunkDelayMs: 150 });
        const onA = (await discover(a.agentUrl('helper'))).sendMessageStream(userMessage('count'), bearer(token));
        const first = await onA.next();
        const taskId = first.value?.payload?.$case === 'task' ? first.value.payload.value.id : undefined;
        expect(taskId).toBeDefined();

        const clientB: Client =
          version === '1.0' ? await discover(b.agentUrl('helper')) : await discoverLegacy(b.agentUrl('helper'));
        const onB: StreamResponse[] = [];
        for await (const event of clientB.resubscribeTask({ tenant: '', id: taskId! }, bearer(token))) onB.push(event);
        for await (const _ of onA) void _;

        expect(onB[0]?.payload?.$case).toBe('task');
        const last = onB.at(-1)?.payload;
        expect(last?.$case === 'statusUpdate' && last.value.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
        expect(textOf(onB)).toBe(ANSWER);
      });
    }
  },
);
