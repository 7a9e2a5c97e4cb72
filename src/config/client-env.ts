import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isMap, isScalar } from 'yaml';
import { z } from 'zod';
import { ConfigError } from '../errors.js';
import { interpolateEnv, parseYaml, readConfigFile, resolveConfigPath } from './load-config.js';
import { serverSchema } from './schemas/server.schema.js';

export interface ClientSettings {
  baseUrl: string;
  token?: string;
}

/** The client flags: --host (host, host:port or a base URL), --port, --token and --config. */
export interface ClientAddressFlags {
  host?: string;
  port?: string | number;
  token?: string;
  config?: string;
}

const PORT = z.coerce.number().int().min(1).max(65535);
/** What the CLI needs from the server section; the rest of the file (provider keys included) is not read. */
const SERVER_ADDRESS = {
  host: serverSchema.shape.host.unwrap(),
  port: PORT,
  data_dir: serverSchema.shape.data_dir.unwrap(),
} as const;
type ServerAddress = { host?: string; port?: number; data_dir?: string };

/** Addresses a server listens on that a client cannot send to, and the loopback address that reaches it there. */
const WILDCARDS: Record<string, string> = { '0.0.0.0': '127.0.0.1', '::': '::1' };

/**
 * Where CLI client commands send requests and with which credential, found as `serve` finds its address:
 * --port, else a port in --host, else PORT, else server.port in the config file the server would read
 * (--config, AGENT_GATEWAY_CONFIG, ./agent-gateway.yaml, the bundled example), else 8000; the host likewise
 * (--host, HOST, server.host). The credential: --token, then AGENT_GATEWAY_TOKEN, then the admin key a local
 * server generated in its data dir (DATA_DIR, else server.data_dir), so a first `npm start` works without setup.
 */
export function resolveClientSettings(
  flags: ClientAddressFlags,
  env: NodeJS.ProcessEnv = process.env,
  cwd: string = process.cwd(),
): ClientSettings {
  let read: ServerAddress | undefined;
  // Read only when a flag or variable leaves something open: a full set of flags works whatever the file holds.
  const file = () => (read ??= readServerAddress(flags.config, env, cwd));
  const named = flags.host === undefined ? {} : splitHostPort(flags.host);
  const flagPort = flags.port === undefined ? undefined : Number(flags.port);
  if (flagPort !== undefined && named.port !== undefined && flagPort !== named.port)
    throw new ConfigError(`--host ${flags.host} and --port ${flags.port} name two different ports: give one`);
  let base = named.url;
  if (base === undefined) {
    const host = named.host ?? fromEnv(env, 'HOST', SERVER_ADDRESS.host) ?? file().host ?? '127.0.0.1';
    const port = flagPort ?? named.port ?? fromEnv(env, 'PORT', PORT) ?? file().port ?? 8000;
    const connectTo = WILDCARDS[host] ?? host;
    base = `http://${connectTo.includes(':') ? `[${connectTo}]` : connectTo}:${port}`;
  }
  const token =
    flags.token ?? (env.AGENT_GATEWAY_TOKEN || undefined) ?? generatedKey(env.DATA_DIR || file().data_dir, cwd);
  return { baseUrl: base.replace(/\/$/, ''), token };
}

function generatedKey(dataDir: string | undefined, cwd: string): string | undefined {
  const path = join(resolve(cwd, dataDir ?? './data'), 'admin-api-key');
  return existsSync(path) ? readFileSync(path, 'utf8').trim() : undefined;
}

/**
 * `--host` as given: a base URL (kept whole), `host:port`, `[v6]:port`, or a host alone (a bare IPv6
 * address included). Throws a ConfigError for a port that is not one.
 */
export function splitHostPort(value: string): { url?: string; host?: string; port?: number } {
  if (/^https?:\/\//.test(value)) return { url: value };
  const match = /^\[([^\]]+)\](?::(.*))?$/.exec(value) ?? /^([^:]*):([^:]*)$/.exec(value);
  if (!match) return { host: value };
  const [, host, port] = match;
  if (port === undefined) return { host };
  const parsed = PORT.safeParse(/^\d+$/.test(port) ? port : Number.NaN);
  if (!host || !parsed.success)
    throw new ConfigError(`--host ${value}: expected host:port with a port from 1 to 65535`);
  return { host, port: parsed.data };
}

function fromEnv<T>(env: NodeJS.ProcessEnv, name: string, schema: z.ZodType<T>): T | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  const parsed = schema.safeParse(name === 'PORT' && !/^\d+$/.test(raw) ? Number.NaN : raw);
  if (!parsed.success)
    throw new ConfigError(
      `environment variable ${name}: expected ${name === 'PORT' ? 'a port number from 1 to 65535' : 'a host'}`,
    );
  return parsed.data;
}

/** server.host, server.port and server.data_dir from the config file the server would read, `${VAR}`s resolved. */
function readServerAddress(file: string | undefined, env: NodeJS.ProcessEnv, cwd: string): ServerAddress {
  const { path } = resolveConfigPath(file, env, cwd);
  const { doc, at } = parseYaml(readConfigFile(path), path);
  const server = doc.get('server', true);
  if (!isMap(server)) return {};
  const address: ServerAddress = {};
  for (const key of ['host', 'port', 'data_dir'] as const) {
    const node = server.get(key, true);
    if (!isScalar(node)) continue;
    interpolateEnv(node, env, at);
    const parsed = SERVER_ADDRESS[key].safeParse(node.value);
    if (!parsed.success)
      throw new ConfigError(
        `${at(node.range?.[0])}: server.${key}: ${key === 'port' ? 'expected a port number from 1 to 65535' : parsed.error.issues[0]?.message}`,
      );
    (address as Record<string, unknown>)[key] = parsed.data;
  }
  return address;
}
