import { Command } from 'commander';
import { loadConfig, splitHostPort } from '../config/index.js';
import { ConfigError } from '../errors.js';
import { createPrettyLogStream } from '../logger.js';
import { parseHost, parsePort } from './address-options.js';
import { saveCompileCache } from './compile-cache.js';
import { releaseYoungGeneration } from './young-generation.js';

interface ServeFlags {
  config?: string;
  host?: string;
  port?: number;
  dataDir?: string;
}

export function serveCommand(): Command {
  return new Command('serve')
    .description('start the gateway server')
    .option(
      '--config <file>',
      'config file (env AGENT_GATEWAY_CONFIG; default ./agent-gateway.yaml, else the bundled example)',
    )
    .option('--host <host>', 'address to listen on, or host:port (env HOST; default 127.0.0.1)', parseHost)
    .option('--port <port>', 'port to listen on, 0 for any free port (env PORT; default 8000)', parsePort)
    .option('--data-dir <dir>', 'where SQLite and generated secrets live (env DATA_DIR; default ./data)')
    .action(async (flags: ServeFlags) => {
      const loaded = loadConfig({
        file: flags.config,
        overrides: { ...listenAddress(flags), data_dir: flags.dataDir },
      });
      // Loaded here, not at the top, so that the client verbs and --help do not load the whole server.
      const { createApp } = await import('../app.js');
      const app = await createApp({ config: loaded.config, logStream: logStreamFor(loaded.config.server.log_format) });
      const log = app.server.log;
      if (loaded.bundled)
        log.warn(
          { config: loaded.path },
          'no config file found (--config, AGENT_GATEWAY_CONFIG, ./agent-gateway.yaml): using the bundled example config',
        );
      else log.info({ config: loaded.path }, 'config loaded');
      log.info({ engine: app.database.engine, location: app.database.location }, 'database ready');
      if (app.generatedAdminKey) {
        // Shown once on the terminal, never through the structured log.
        process.stderr.write(
          `\nNo API key or JWT secret is configured, so an admin API key was generated:\n\n  ${app.generatedAdminKey.key}\n\nIt is stored in ${app.generatedAdminKey.path} (mode 0600). Send it as X-API-Key or Authorization: Bearer.\n\n`,
        );
      }
      // Before listen() changes V8's flags (the young generation's, --expose-gc): the cache must carry the
      // flags the chunks are compiled under. Writes only what had no cache (the first start after a build).
      saveCompileCache();
      const url = await app.listen();
      releaseYoungGeneration();
      // Before the line that tells supervisors it serves: a SIGTERM right after it must drain, not kill.
      registerShutdown(
        () => app.close(),
        app.config.server.shutdown_timeout_ms,
        (message) => log.info(message),
      );
      console.log(`listening on ${url}`);
    });
}

/**
 * After the drain's deadline (`server.shutdown_timeout_ms`) runs still going are handed on and the last records
 * written: this long at most, then the process exits anyway. A termination grace period must cover both.
 */
export const HAND_OVER_MS = 5_000;

function registerShutdown(close: () => Promise<void>, timeoutMs: number, info: (message: string) => void): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    info(`${signal} received: draining`);
    const force = setTimeout(() => {
      info('hand-over timed out: exiting');
      process.exit(0);
    }, timeoutMs + HAND_OVER_MS);
    force.unref();
    close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

/** server.log_format: readable lines on a terminal (or when asked), pino's JSON lines otherwise (stdout by default). */
function logStreamFor(format: 'auto' | 'json' | 'pretty'): NodeJS.WritableStream | undefined {
  const pretty = format === 'pretty' || (format === 'auto' && process.stdout.isTTY === true);
  return pretty ? createPrettyLogStream(process.stdout, { colour: process.stdout.isTTY === true }) : undefined;
}

/** --host and --port; `--host 127.0.0.1:18000` names both. */
function listenAddress(flags: ServeFlags): { host?: string; port?: number } {
  if (flags.host === undefined) return { port: flags.port };
  const named = splitHostPort(flags.host);
  if (named.url !== undefined)
    throw new ConfigError(`--host ${flags.host}: serve listens on a host or host:port, not a URL`);
  if (flags.port !== undefined && named.port !== undefined && flags.port !== named.port)
    throw new ConfigError(`--host ${flags.host} and --port ${flags.port} name two different ports: give one`);
  return { host: named.host, port: flags.port ?? named.port };
}
