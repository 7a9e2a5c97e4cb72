import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp, type App } from '../src/app.js';
import { BUNDLED_CONFIG_PATH, loadConfig, type Config } from '../src/config/index.js';

export interface DocumentedApp {
  app: App;
  config: Config;
  close: () => Promise<void>;
}

/**
 * The bundled config in a throwaway data dir, with every feature flag on whatever the file says, so that every
 * route family is mounted (a disabled feature's routes are not, and would be missing from `/openapi.json`).
 */
export async function startDocumentedApp(): Promise<DocumentedApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'agent-gateway-docs-'));
  const { config } = loadConfig({ file: BUNDLED_CONFIG_PATH, env: {}, overrides: { data_dir: dataDir } });
  const everything: Config = {
    ...config,
    server: { ...config.server, log_level: 'silent', database_url: undefined, redis_url: undefined },
    gateway: { enabled: true, openai_compat: true, agui: true, webhooks: true, a2a: true, mcp: true },
  };
  const app = await createApp({ config: everything });
  return {
    app,
    config: everything,
    close: async () => {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
