import { chmodSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import { createDatabase } from '../../src/db/index.js';
import { tempDataDir } from '../support/databases.js';

const temps: ReturnType<typeof tempDataDir>[] = [];
afterEach(() => temps.splice(0).forEach((temp) => temp.remove()));

const modeOf = (path: string) => (statSync(path).mode & 0o777).toString(8);

/** Every file of the folder with its permission bits, e.g. `{ 'agent-gateway.sqlite': '600' }`. */
const modes = (dataDir: string) =>
  Object.fromEntries(readdirSync(dataDir).map((name) => [name, modeOf(join(dataDir, name))]));

it('creates the data folder 0700 and the database, its WAL, shared memory and lock files 0600 (issue #41)', async () => {
  const temp = tempDataDir();
  temps.push(temp);
  const dataDir = join(temp.dataDir, 'data');
  const handle = await createDatabase({ dataDir });
  // A write, so the WAL and shared-memory files exist.
  await sql`create table mode_probe (x integer)`.execute(handle.db);
  const files = modes(dataDir);
  await handle.close();

  expect(modeOf(dataDir)).toBe('700');
  expect(Object.keys(files)).toEqual(
    expect.arrayContaining([
      'agent-gateway.sqlite',
      'agent-gateway.sqlite-wal',
      'agent-gateway.sqlite-shm',
      'agent-gateway.lock',
      'agent-gateway.owner.json',
    ]),
  );
  expect(Object.entries(files).filter(([, mode]) => mode !== '600')).toEqual([]);
});

it('takes read access from others on files an earlier version left world-readable', async () => {
  const temp = tempDataDir();
  temps.push(temp);
  const first = await createDatabase({ dataDir: temp.dataDir });
  await first.close();
  for (const name of readdirSync(temp.dataDir)) chmodSync(join(temp.dataDir, name), 0o644);
  writeFileSync(join(temp.dataDir, 'agent-gateway.sqlite-wal'), '', { mode: 0o644 });

  const again = await createDatabase({ dataDir: temp.dataDir });
  const files = modes(temp.dataDir);
  await again.close();
  expect(Object.entries(files).filter(([, mode]) => mode !== '600')).toEqual([]);
});
