import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import * as analyticsMigration from '../../src/db/migrations/2026-11-22/2026-11-22-003-analytics.js';
import { createDatabase, type DatabaseHandle } from '../../src/db/index.js';

export type BenchEngine = 'sqlite' | 'postgres';

export interface BenchDatabase {
  handle: DatabaseHandle;
  /** The engine's version string, for the report. */
  version: string;
  /** Refreshes planner statistics once the data is loaded (what autovacuum does on its own in production). */
  settle(): Promise<void>;
  /** Closes and deletes the database. */
  drop(): Promise<void>;
}

/** A fresh, migrated database: a SQLite file in a temporary directory, or a new PostgreSQL database. */
export async function openBenchDatabase(engine: BenchEngine, postgresAdminUrl: string): Promise<BenchDatabase> {
  if (engine === 'sqlite') {
    const dataDir = mkdtempSync(join(tmpdir(), 'agent-gateway-bench-'));
    const handle = await migrated(await createDatabase({ dataDir }));
    const version = (await sql<{ v: string }>`select sqlite_version() as v`.execute(handle.db)).rows[0].v;
    return {
      handle,
      version: `SQLite ${version}`,
      // Production never runs ANALYZE on SQLite, so neither does the benchmark.
      settle: async () => undefined,
      async drop() {
        await handle.close();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const name = `ag_bench_${randomBytes(6).toString('hex')}`;
  await adminQuery(postgresAdminUrl, `create database ${name}`);
  const url = new URL(postgresAdminUrl);
  url.pathname = `/${name}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'agent-gateway-bench-'));
  const handle = await migrated(await createDatabase({ databaseUrl: url.toString(), dataDir }));
  const version = (await sql<{ server_version: string }>`show server_version`.execute(handle.db)).rows[0]
    .server_version;
  return {
    handle,
    version: `PostgreSQL ${version}`,
    async settle() {
      await sql`vacuum analyze usage_records`.execute(handle.db);
      await sql`vacuum analyze usage_daily`.execute(handle.db);
      await sql`vacuum analyze risk_events`.execute(handle.db);
    },
    async drop() {
      await handle.close();
      rmSync(dataDir, { recursive: true, force: true });
      await adminQuery(postgresAdminUrl, `drop database if exists ${name} with (force)`);
    },
  };
}

/** Applies the analytics migration when migrations/index.ts does not list it yet. */
async function migrated(handle: DatabaseHandle): Promise<DatabaseHandle> {
  const tables = await handle.db.introspection.getTables();
  if (!tables.some((table) => table.name === 'usage_records')) await analyticsMigration.up(handle.db);
  return handle;
}

async function adminQuery(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}
