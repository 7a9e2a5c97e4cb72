import type { FastifyInstance } from 'fastify';
import type { Config } from '../config/index.js';
import type { DatabaseHandle } from '../db/index.js';
import { quietDuringOutages, type Logger } from '../logger.js';
import type { Topology } from './topology.js';

/** What every feature module is built from: the server it registers on, the config and the shared state. */
export interface AppContext {
  server: FastifyInstance;
  config: Config;
  database: DatabaseHandle;
  topology: Topology;
  /** For the loops that retry every second (heartbeats, the inbox, the push outbox, missions): an outage once per 30 s. */
  backgroundLog: Logger;
  /** The time autopilot schedules by and JWTs expire by; the system clock unless a test injects one. */
  clock?: () => Date;
  version: string;
}

/** A warning for an outage that reports an error on every attempt: one line per 30 s is enough. */
export function warnEvery30s(log: Logger, message: string): (error: unknown) => void {
  const quiet = quietDuringOutages(log, () => true);
  return (error) => quiet.warn({ err: error }, message);
}

/** The URL clients reach this server by, when configured (agent cards, cookie and CSRF checks). */
export function publicUrlOf(config: Config): string | undefined {
  return config.server.public_url ?? config.server.public_base_url;
}

/** A provider's type (`openai`, `anthropic`, …) by its configured name; the name itself when unknown (metric labels). */
export function providerTypeOf(config: Config): (provider: string) => string {
  return (provider) => config.providers[provider]?.type ?? provider;
}
