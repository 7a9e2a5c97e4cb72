import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { describe } from 'vitest';

/** The PostgreSQL server the machine runs on loopback; override with TEST_POSTGRES_URL. */
export const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestDatabase {
  /** undefined for SQLite (the data dir is used), a postgres:// URL otherwise. */
  databaseUrl?: string;
  dataDir: string;
  drop(): Promise<void>;
}

export interface Dialect {
  name: 'sqlite' | 'postgres';
  /** A reason to skip this dialect, or undefined when it can run. */
  skip?: string;
  create(): Promise<TestDatabase>;
}

let postgresProbe: Promise<string | undefined> | undefined;

/** Resolves to a skip reason when PostgreSQL is unreachable; under CI=true it must be reachable. */
export function postgresUnavailable(): Promise<string | undefined> {
  postgresProbe ??= (async () => {
    const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 2000 });
    try {
      await client.connect();
      await client.query('select 1');
      return undefined;
    } catch (error) {
      if (process.env.CI === 'true')
        throw new Error(`PostgreSQL at ${POSTGRES_ADMIN_URL} is required under CI=true: ${(error as Error).message}`, {
          cause: error,
        });
      return `PostgreSQL not reachable at ${POSTGRES_ADMIN_URL} (${(error as Error).message})`;
    } finally {
      await client.end().catch(() => undefined);
    }
  })();
  return postgresProbe;
}

export function tempDataDir(): { dataDir: string; remove(): void } {
  const dataDir = mkdtempSync(join(tmpdir(), 'agent-gateway-test-'));
  return { dataDir, remove: () => rmSync(dataDir, { recursive: true, force: true }) };
}

/** A fresh, empty PostgreSQL database, dropped by drop(). */
export async function createPostgresDatabase(): Promise<TestDatabase> {
  const name = `ag_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  const { dataDir, remove } = tempDataDir();
  return {
    databaseUrl: url.toString(),
    dataDir,
    async drop() {
      remove();
      const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

/** Every engine a store test runs on: SQLite always, PostgreSQL when reachable (always under CI=true). */
export async function dialects(): Promise<Dialect[]> {
  const skip = await postgresUnavailable();
  return [
    {
      name: 'sqlite',
      async create() {
        const { dataDir, remove } = tempDataDir();
        return { dataDir, drop: async () => remove() };
      },
    },
    { name: 'postgres', skip, create: createPostgresDatabase },
  ];
}

/**
 * Declares `suite` once per engine: on SQLite always, on PostgreSQL when reachable (under CI=true it must be).
 * A skipped engine shows as one skipped suite whose name gives the reason. Use with a top-level `await`.
 */
export async function describeEachDialect(name: string, suite: (dialect: Dialect) => void): Promise<void> {
  for (const dialect of await dialects()) {
    if (dialect.skip) describe.skip(`${name} on ${dialect.name} (skipped: ${dialect.skip})`, () => suite(dialect));
    else describe(`${name} on ${dialect.name}`, () => suite(dialect));
  }
}
