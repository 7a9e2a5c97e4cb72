import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { afterEach, expect, it, vi } from 'vitest';
import { createDatabase } from '../../src/db/index.js';

/**
 * The WAL is copied into the database file by a thread of its own while the writer only commits: the
 * writer's automatic checkpoint (every 1,000 pages by default) no longer runs on the event loop, before the
 * answers of the writes that crossed it.
 */
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

it('checkpoints committed writes into the database file without the writer checkpointing', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ag-wal-checkpoint-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const handle = await createDatabase({ dataDir });
  cleanups.push(() => handle.close());
  // A copy of the database file alone, without its WAL, holds only what a checkpoint copied into it.
  const fileOnly = () => {
    const copy = join(dataDir, `copy-${Date.now()}-${Math.random()}.sqlite`);
    copyFileSync(join(dataDir, 'agent-gateway.sqlite'), copy);
    const reader = new SqliteDatabase(copy);
    try {
      return (reader.prepare('select count(*) as n from agents').get() as { n: number }).n;
    } finally {
      reader.close();
    }
  };
  // Far fewer pages than the writer's own checkpoint threshold.
  for (let index = 0; index < 20; index += 1) {
    await handle.writes.write(async (db) => {
      await db
        .insertInto('agents')
        .values({ name: `agent-${index}`, registered_at: '2026-11-24T00:00:00.000Z' })
        .execute();
    });
  }
  await vi.waitFor(() => expect(fileOnly()).toBe(20), { timeout: 5_000, interval: 20 });
});
