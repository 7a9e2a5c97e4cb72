import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { spawnServer, type ServerProcess } from '../../../admin/spawn-server.js';
import { createPostgresDatabase, postgresUnavailable } from '../../../support/databases.js';
import {
  listRuns,
  payloadIds,
  pressureYaml,
  sendBursts,
  startCountingUpstream,
  waitForDone,
} from './pressure-harness.js';

const skip = await postgresUnavailable();

// Replicas on PostgreSQL without Redis: a replica starting up must not take the other's live runs for orphans.
it.skipIf(skip !== undefined)(
  `restarting one replica leaves the other's live runs running${skip ? ` (skipped: ${skip})` : ''}`,
  async () => {
    const database = await createPostgresDatabase();
    // A's handlers take 3 s, so its runs are still live while B restarts.
    const upstreams = await Promise.all([startCountingUpstream(3_000), startCountingUpstream(50)]);
    const file = join(database.dataDir, 'agent-gateway.yaml');
    writeFileSync(file, pressureYaml('${PRESSURE_UPSTREAM_URL}', { concurrency: 4 }));
    const start = (index: number) =>
      spawnServer(['--config', file, '--data-dir', join(database.dataDir, `p${index}`)], {
        DATABASE_URL: database.databaseUrl,
        PRESSURE_UPSTREAM_URL: upstreams[index].url,
        LOG_LEVEL: 'warn',
      });
    const servers: ServerProcess[] = await Promise.all([start(0), start(1)]);
    try {
      const acknowledged = await sendBursts(payloadIds(16, 'r'), 16, (index) => servers[index % 2].url);
      await expect.poll(() => upstreams[0].open.size, { timeout: 30_000, interval: 5 }).toBeGreaterThanOrEqual(1);
      await servers[1].kill('SIGTERM');
      servers[1] = await start(1);
      expect(await listRuns(servers[0].url, 'interrupted')).toEqual([]);
      await waitForDone(servers[0].url, 'webhook', new Set(acknowledged.values()), 60_000);
      expect(await listRuns(servers[0].url, 'interrupted')).toEqual([]);
    } finally {
      await Promise.all(servers.map((server) => server.kill()));
      await Promise.all(upstreams.map((upstream) => upstream.close()));
      await database.drop();
    }
  },
  120_000,
);
