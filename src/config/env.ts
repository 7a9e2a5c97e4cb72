import { z } from 'zod';
import { ConfigError } from '../errors.js';
import { applyAutopilotEnv } from './schemas/autopilot.schema.js';
import type { Config } from './config.schema.js';
import { serverSchema } from './schemas/server.schema.js';
import { applyTelemetryEnv } from './schemas/telemetry.schema.js';

/** Values from command-line flags (serve --host/--port/--data-dir/--config). */
export interface ConfigOverrides {
  host?: string;
  port?: number;
  data_dir?: string;
}

const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'])
  .transform((v) => ['true', '1', 'yes', 'on'].includes(v));

const SERVER_ENV = {
  HOST: ['host', serverSchema.shape.host.unwrap()],
  PORT: [
    'port',
    z.string().regex(/^\d+$/, 'expected a port number').transform(Number).pipe(serverSchema.shape.port.unwrap()),
  ],
  DATA_DIR: ['data_dir', serverSchema.shape.data_dir.unwrap()],
  DATABASE_URL: ['database_url', serverSchema.shape.database_url.unwrap()],
  REDIS_URL: ['redis_url', z.string().min(1)],
  LOG_LEVEL: ['log_level', serverSchema.shape.log_level.unwrap()],
  LOG_FORMAT: ['log_format', serverSchema.shape.log_format.unwrap()],
  REPLICA_ID: ['replica_id', serverSchema.shape.replica_id.unwrap()],
} as const;

const GATEWAY_ENV = {
  SERVICE_GATEWAY_ENABLED: 'enabled',
  SERVICE_GATEWAY_OPENAI_COMPAT: 'openai_compat',
  SERVICE_GATEWAY_AGUI: 'agui',
  SERVICE_GATEWAY_WEBHOOKS: 'webhooks',
  SERVICE_GATEWAY_A2A: 'a2a',
  SERVICE_GATEWAY_MCP: 'mcp',
} as const;

/** Environment wins over the file, flags win over the environment. The only reader of process.env is the caller of this. */
export function applyEnvOverrides(config: Config, env: NodeJS.ProcessEnv, flags: ConfigOverrides): Config {
  const errors: string[] = [];
  const server: Record<string, unknown> = { ...config.server };
  for (const [name, [key, schema]] of Object.entries(SERVER_ENV)) {
    const raw = env[name];
    if (raw === undefined || raw === '') continue;
    const parsed = schema.safeParse(raw);
    if (parsed.success) server[key] = parsed.data;
    else errors.push(`environment variable ${name}: ${parsed.error.issues[0]?.message ?? 'invalid value'}`);
  }
  const gateway: Record<string, unknown> = { ...config.gateway };
  for (const [name, key] of Object.entries(GATEWAY_ENV)) {
    const raw = env[name]?.toLowerCase();
    if (raw === undefined || raw === '') continue;
    const parsed = booleanFlag.safeParse(raw);
    if (parsed.success) gateway[key] = parsed.data;
    else errors.push(`environment variable ${name}: expected true or false, got "${env[name]}"`);
  }
  const ui = { ...config.ui };
  const uiRaw = env.GATEWAY_UI?.toLowerCase();
  if (uiRaw !== undefined && uiRaw !== '') {
    const parsed = booleanFlag.safeParse(uiRaw);
    if (parsed.success) ui.enabled = parsed.data;
    else errors.push(`environment variable GATEWAY_UI: expected true or false, got "${env.GATEWAY_UI}"`);
  }
  const autopilot = applyAutopilotEnv(config.autopilot, env, errors);
  const telemetry = applyTelemetryEnv(config.telemetry, env, errors);
  if (errors.length > 0) throw new ConfigError(errors.join('\n'));
  for (const [key, value] of Object.entries(flags)) if (value !== undefined) server[key] = value;
  return Object.freeze({
    ...config,
    server: server as Config['server'],
    gateway: gateway as Config['gateway'],
    autopilot,
    telemetry,
    ui,
  });
}
