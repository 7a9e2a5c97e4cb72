import { hostname } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { createDatabase, type DatabaseHandle } from '../../src/db/index.js';
import { DataDirInUseError } from '../../src/db/data-dir-lock.js';
import { tempDataDir } from '../support/databases.js';

describe('a SQLite data folder has one owner (issue #41)', () => {
  const cleanups: (() => unknown)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function open(dataDir: string): Promise<DatabaseHandle> {
    const handle = await createDatabase({ dataDir });
    cleanups.push(() => handle.close());
    return handle;
  }

  it('refuses a second opener, naming the folder and the holder, and lets it in once the holder closed', async () => {
    const temp = tempDataDir();
    cleanups.push(() => temp.remove());
    const first = await open(temp.dataDir);

    const refused = await createDatabase({ dataDir: temp.dataDir }).catch((error: unknown) => error);

    expect(refused).toBeInstanceOf(DataDirInUseError);
    expect((refused as DataDirInUseError).message).toMatch(
      new RegExp(
        `^the data folder ${temp.dataDir} is in use by process ${process.pid} on host ${hostname()}, started \\d{4}-`,
      ),
    );
    expect(await first.ping()).toBe(true);
    await first.close();
    const second = await open(temp.dataDir);
    expect(await second.ping()).toBe(true);
  });
});
