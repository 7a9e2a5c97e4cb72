import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createDatabase, createGroupCommit, type DatabaseHandle } from '../../src/db/index.js';

describe('SQLite group commit', () => {
  const cleanups: Array<() => unknown> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function open(): Promise<{ handle: DatabaseHandle; readAgents: () => string[] }> {
    const dataDir = mkdtempSync(join(tmpdir(), 'ag-group-commit-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const handle = await createDatabase({ dataDir });
    cleanups.push(() => handle.close());
    // A second connection sees only what is committed.
    const reader = new SqliteDatabase(join(dataDir, 'agent-gateway.sqlite'), { readonly: true });
    cleanups.push(() => reader.close());
    const readAgents = () =>
      reader
        .prepare('select name from agents order by rowid')
        .all()
        .map((row) => (row as { name: string }).name);
    return { handle, readAgents };
  }

  const agent = (name: string) => ({ name, registered_at: '2026-11-22T00:00:00.000Z' });

  it('commits every write of a burst, in the order queued, before resolving it', async () => {
    const { handle, readAgents } = await open();
    const names = Array.from({ length: 40 }, (_, index) => `agent-${String(index).padStart(2, '0')}`);
    await Promise.all(
      names.map((name) =>
        handle.writes.write(async (db) => {
          await db.insertInto('agents').values(agent(name)).execute();
        }),
      ),
    );
    expect(readAgents()).toEqual(names);
  });

  it('fails only the write that failed; the others of its batch are committed', async () => {
    const { handle, readAgents } = await open();
    const insert = (name: string) =>
      handle.writes.write(async (db) => {
        await db.insertInto('agents').values(agent(name)).execute();
      });
    const results = await Promise.allSettled([insert('a'), insert('b'), insert('a'), insert('c')]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect(readAgents()).toEqual(['a', 'b', 'c']);
  });

  it('keeps a write with several statements all-or-nothing', async () => {
    const { handle, readAgents } = await open();
    const failing = handle.writes.write(async (db) => {
      await db.insertInto('agents').values(agent('first-half')).execute();
      await db.insertInto('agents').values(agent('first-half')).execute();
    });
    const other = handle.writes.write(async (db) => {
      await db.insertInto('agents').values(agent('other')).execute();
    });
    await expect(failing).rejects.toThrow(/UNIQUE/);
    await other;
    expect(readAgents()).toEqual(['other']);
  });

  it('splits bursts larger than the batch limit and commits writes queued during a commit', async () => {
    const { handle, readAgents } = await open();
    const writes = createGroupCommit(handle.db, { maxBatch: 3 });
    const names: string[] = [];
    const pending: Promise<void>[] = [];
    for (let index = 0; index < 10; index += 1) {
      const name = `burst-${index}`;
      names.push(name);
      pending.push(
        writes.write(async (db) => {
          await db.insertInto('agents').values(agent(name)).execute();
          if (index === 0) {
            names.push('queued-during-commit');
            pending.push(
              writes.write(
                async (inner) =>
                  void (await inner.insertInto('agents').values(agent('queued-during-commit')).execute()),
              ),
            );
          }
        }),
      );
    }
    await writes.flush();
    await Promise.all(pending);
    expect(readAgents().sort()).toEqual(names.sort());
  });

  it('writes what is still queued when the database closes', async () => {
    const { handle, readAgents } = await open();
    void handle.writes.write(async (db) => {
      await db.insertInto('agents').values(agent('last')).execute();
    });
    await handle.close();
    expect(readAgents()).toEqual(['last']);
  });
});
