import { Writable } from 'node:stream';
import { createApp, type App } from '../../src/app.js';
import { parseConfigText, type Config } from '../../src/config/index.js';
import { tempDataDir } from './databases.js';
import { injectFetch } from './inject.js';

export const TEST_API_KEY = 'test-api-key-0123456789';
export const TEST_JWT_SECRET = 'test-jwt-secret-0123456789abcdef';

/** Captures every JSON log line an app writes, so tests can check that no secret is logged. */
export class LogCapture extends Writable {
  readonly lines: string[] = [];
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
    this.lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    done();
  }
  get text(): string {
    return this.lines.join('\n');
  }
}

export interface TestApp extends App {
  url: string;
  logs: LogCapture;
  dataDir: string;
  /** fetch(path, init) through app.server.inject(): no socket (see inject.ts); works with listen: false. */
  inject(path: string, init?: RequestInit): Promise<Response>;
  /** Closes the app and removes its data dir (unless keepData). */
  stop(options?: { keepData?: boolean }): Promise<void>;
}

/**
 * Starts a real app on a random loopback port from YAML text (the same path users take).
 * `${TEST_API_KEY}` etc. may be used in the YAML; dataDir/databaseUrl override the server section.
 * `listen: false` opens no port (url is ''): the app is then reached through `inject()` only.
 */
export async function startTestApp(
  yaml: string,
  options: { dataDir?: string; databaseUrl?: string; env?: NodeJS.ProcessEnv; listen?: boolean } = {},
): Promise<TestApp> {
  const temp = options.dataDir ? undefined : tempDataDir();
  const dataDir = options.dataDir ?? temp!.dataDir;
  const parsed = parseConfigText(yaml, 'test.yaml', { TEST_API_KEY, TEST_JWT_SECRET, ...options.env });
  const config: Config = {
    ...parsed,
    server: {
      ...parsed.server,
      host: '127.0.0.1',
      port: 0,
      data_dir: dataDir,
      log_level: parsed.server.log_level === 'info' ? 'info' : parsed.server.log_level,
      ...(options.databaseUrl ? { database_url: options.databaseUrl } : {}),
    },
  };
  const logs = new LogCapture();
  const app = await createApp({ config, logStream: logs });
  const url = options.listen === false ? '' : await app.listen();
  return {
    ...app,
    url,
    logs,
    dataDir,
    inject: (path, init) => injectFetch(app.server, path, init),
    async stop(stopOptions) {
      await app.close();
      if (!stopOptions?.keepData) temp?.remove();
    },
  };
}

/** A minimal config with an API key and one agent on a provider that is never called. */
export const BASE_YAML = `
auth:
  api_keys: ["\${TEST_API_KEY}"]
  jwt: { secret: "\${TEST_JWT_SECRET}" }
providers:
  upstream: { type: openai-compatible, base_url: "http://127.0.0.1:9/v1" }
agents:
  - name: helper
    model: upstream/test-model
    system_prompt: You are a helpful assistant.
  - name: other
    model: upstream/test-model
`;
