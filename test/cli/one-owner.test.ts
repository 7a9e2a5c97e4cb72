import { hostname } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { spawnServer, type ServerProcess } from '../admin/spawn-server.js';
import { createPostgresDatabase, postgresUnavailable, tempDataDir } from '../support/databases.js';
import { runCli } from './run-cli.js';

const started: ServerProcess[] = [];
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((server) => server.kill()));
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function serve(dataDir: string, env: NodeJS.ProcessEnv = {}): Promise<ServerProcess> {
  const server = await spawnServer(['--data-dir', dataDir], { LOG_LEVEL: 'warn', ...env });
  started.push(server);
  return server;
}

describe('one process per SQLite data folder (issue #41)', () => {
  it('refuses a second serve on the same folder, naming the folder and its holder, while the first keeps serving', async () => {
    const temp = tempDataDir();
    cleanups.push(() => temp.remove());
    const first = await serve(temp.dataDir);

    const second = await runCli(['serve', '--port', '0', '--data-dir', temp.dataDir], { LOG_LEVEL: 'warn' });

    expect(second.code).not.toBe(0);
    expect(second.stdout).not.toMatch(/listening on/);
    expect(second.stderr).toContain(`the data folder ${temp.dataDir} is in use by process ${first.child.pid}`);
    expect(second.stderr).toContain(`on host ${hostname()}, started 20`);
    expect((await fetch(`${first.url}/healthz`)).status).toBe(200);
  });

  it('starts once the holder was killed with SIGKILL: a dead holder never blocks', async () => {
    const temp = tempDataDir();
    cleanups.push(() => temp.remove());
    const first = await serve(temp.dataDir);
    await first.kill('SIGKILL');

    const next = await serve(temp.dataDir);

    expect((await fetch(`${next.url}/healthz`)).status).toBe(200);
  });
});

const skip = await postgresUnavailable();
describe.skipIf(skip !== undefined)(
  `replicas on PostgreSQL share a data folder${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    it('starts two processes on one data folder: it holds only the shared admin key', async () => {
      const db = await createPostgresDatabase();
      cleanups.push(() => db.drop());
      const [a, b] = await Promise.all([
        serve(db.dataDir, { DATABASE_URL: db.databaseUrl }),
        serve(db.dataDir, { DATABASE_URL: db.databaseUrl }),
      ]);
      expect((await fetch(`${a.url}/healthz`)).status).toBe(200);
      expect((await fetch(`${b.url}/healthz`)).status).toBe(200);
    });
  },
);
