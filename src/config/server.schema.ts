import { z } from 'zod';

export const serverSchema = z.strictObject({
  host: z.string().min(1).default('127.0.0.1'),
  port: z.number().int().min(0).max(65535).default(8000),
  data_dir: z.string().min(1).default('./data'),
  /** A postgres:// URL selects PostgreSQL; otherwise SQLite under data_dir. */
  database_url: z.string().regex(/^postgres(ql)?:\/\//, 'database_url must be a postgres:// or postgresql:// URL (leave it out for SQLite)').optional(),
  redis_url: z.string().optional(),
  log_level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  body_limit_bytes: z.number().int().positive().default(1_048_576),
  /**
   * Base URL that other systems use to reach this gateway (A2A cards). Unset: the address the server
   * listens on, or, with trust_proxy, the request's (forwarded) host.
   */
  public_url: z.url().optional(),
  /** The earlier name of public_url, still accepted; public_url wins when both are set. */
  public_base_url: z.url().optional(),
  /** True behind a reverse proxy: public URLs may then follow X-Forwarded-Proto/-Host and Host. */
  trust_proxy: z.boolean().default(false),
  cors: z.strictObject({ origins: z.array(z.string()).default([]) }).default({ origins: [] }),
  shutdown_timeout_ms: z.number().int().positive().default(10_000),
});

export type ServerConfig = z.infer<typeof serverSchema>;
