import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnServer, type ServerProcess } from '../../../admin/spawn-server.js';
import { createPostgresDatabase, postgresUnavailable, type TestDatabase } from '../../../support/databases.js';
import {
  listDeliveries,
  payloadIds,
  pressureYaml,
  repeated,
  sendBursts,
  startCountingUpstream,
  waitForDone,
  type CountingUpstream,
} from './pressure-harness.js';

const CONCURRENCY = 4;
const skip = await postgresUnavailable();

describe.skipIf(skip !== undefined)(
  `two server processes sharing one PostgreSQL inbox${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    let database: TestDatabase;
    let upstreams: CountingUpstream[];
    let servers: ServerProcess[] = [];
    beforeAll(async () => {
      database = await createPostgresDatabase();
      upstreams = await Promise.all([startCountingUpstream(20), startCountingUpstream(20)]);
      const file = join(database.dataDir, 'agent-gateway.yaml');
      // One config file; each process gets its own upstream through the environment, so the upstream tells who ran what.
      writeFileSync(file, pressureYaml('${PRESSURE_UPSTREAM_URL}', { concurrency: CONCURRENCY }));
      servers = await Promise.all(
        upstreams.map((upstream, index) =>
          spawnServer(['--config', file, '--data-dir', join(database.dataDir, `process-${index}`)], {
            DATABASE_URL: database.databaseUrl,
            PRESSURE_UPSTREAM_URL: upstream.url,
            LOG_LEVEL: 'warn',
          }),
        ),
      );
    });
    afterAll(async () => {
      await Promise.all(servers.map((server) => server.kill()));
      await Promise.all((upstreams ?? []).map((upstream) => upstream.close()));
      await database?.drop();
    });

    it('handles 600 deliveries sent alternately to both, each once, with both processes taking part', async () => {
      const ids = payloadIds(600, 'r');
      const acknowledged = await sendBursts(ids, 100, (index) => servers[index % 2].url);
      const done = await waitForDone(servers[0].url, 'webhook', new Set(acknowledged.values()), 90_000);
      expect(repeated(done.map((delivery) => delivery.id))).toEqual([]);
      expect(await listDeliveries(servers[1].url, { status: 'done', kind: 'webhook' })).toHaveLength(600);

      const [first, second] = upstreams.map((upstream) => [...upstream.calls.keys()]);
      // On failure, the deliveries that ran more than once and each process's log say why.
      const retried = done.filter((delivery) => delivery.attempts !== 1);
      expect(
        upstreams.flatMap((upstream) => upstream.duplicates()),
        `${JSON.stringify(retried)}\n${servers.map((server) => server.output().slice(-4_000)).join('\n')}`,
      ).toEqual([]);
      expect(first.filter((id) => second.includes(id))).toEqual([]);
      expect([...first, ...second].sort()).toEqual([...ids].sort());
      // Each process claims from the shared inbox whatever either one received.
      expect(first.length).toBeGreaterThan(0);
      expect(second.length).toBeGreaterThan(0);
      for (const upstream of upstreams) expect(upstream.peak()).toBeLessThanOrEqual(CONCURRENCY);
    }, 150_000);
  },
);
