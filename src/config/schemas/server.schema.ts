import { z } from 'zod';

export const DEFAULT_MAX_JSON_DEPTH = 64;
export const DEFAULT_STALLED_CLIENT_TIMEOUT_SECONDS = 30;
/** Above this, recursive code (schema validation, the A2A SDK) can overflow the stack again. */
const MAX_JSON_DEPTH_CEILING = 1000;

export const serverSchema = z.strictObject({
  host: z.string().min(1).default('127.0.0.1'),
  port: z.number().int().min(0).max(65535).default(8000),
  data_dir: z.string().min(1).default('./data'),
  /** A postgres:// URL selects PostgreSQL; otherwise SQLite under data_dir. */
  database_url: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'database_url must be a postgres:// or postgresql:// URL (leave it out for SQLite)')
    .optional(),
  /** PostgreSQL: a statement unanswered this long fails (503) and its connection is dropped; the server's statement_timeout too. */
  database_query_timeout_ms: z.number().int().min(100).default(30_000),
  /** PostgreSQL: opening a connection, or waiting for a free one in the pool, fails after this long. */
  database_connect_timeout_ms: z.number().int().min(100).default(5_000),
  /**
   * How long a run's queued write (insert, steps, status, session turns) is tried again while the database is
   * out of reach, before the run fails with database_unavailable. A run's end and usage records are tried until
   * written; a new run is refused (503) while the outage is known.
   */
  database_write_retry_seconds: z.number().min(0).max(3_600).default(60),
  redis_url: z.string().optional(),
  /** This replica's id among those sharing the database and brokers (MQTT client ids, Redis consumers, SSE leases); the host name when unset. */
  replica_id: z
    .string()
    .regex(/^[A-Za-z0-9._:-]{1,100}$/, 'replica_id is 1-100 letters, digits, ".", "_", ":" or "-"')
    .optional(),
  log_level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** How `serve` writes its log: `pretty` one readable line per entry, `json` pino's lines; `auto` pretty on a terminal. */
  log_format: z.enum(['auto', 'json', 'pretty']).default('auto'),
  body_limit_bytes: z.number().int().positive().default(1_048_576),
  /** Deepest nesting of arrays and objects any JSON body may have (webhooks included); deeper is 400 json_too_deep. */
  max_json_depth: z.number().int().min(1).max(MAX_JSON_DEPTH_CEILING).default(DEFAULT_MAX_JSON_DEPTH),
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
  /**
   * A streaming client (SSE, WebSocket) that reads nothing for this long is disconnected; the run it started
   * is cancelled with client_stalled. Until then its run waits for it (the upstream is not read meanwhile).
   */
  stalled_client_timeout_seconds: z.number().positive().max(86_400).default(DEFAULT_STALLED_CLIENT_TIMEOUT_SECONDS),
  /** A WebSocket with no run under way that receives no frame from its client for this long is closed. */
  ws_idle_timeout_seconds: z.number().positive().max(86_400).default(300),
  /** Open WebSockets per principal (access token, JWT subject, API key) on this replica; the next one is refused. */
  ws_max_connections_per_principal: z.number().int().positive().max(100_000).default(16),
});

export type ServerConfig = z.infer<typeof serverSchema>;
