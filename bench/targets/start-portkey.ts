import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { findFreePort } from '../processes/free-port.js';
import { spawnService, type ServiceProcess } from '../processes/spawn-service.js';

export interface PortkeyInstance {
  url: string;
  process: ServiceProcess;
  version: string;
}

/** Portkey's gateway from npm, started with its own bin (`build/start-server.js --port=N --headless`). */
export async function startPortkey(): Promise<PortkeyInstance> {
  const require = createRequire(import.meta.url);
  const packageJson = require.resolve('@portkey-ai/gateway/package.json');
  const { version, bin } = require(packageJson) as { version: string; bin: string };
  const port = await findFreePort();
  const url = `http://127.0.0.1:${port}`;
  const process = await spawnService({
    name: 'portkey',
    nodeArgs: [join(dirname(packageJson), bin), `--port=${port}`, '--headless'],
    // Its ready line comes after a 1 s spinner it shows on purpose, so GET / (200) is the better start-up mark.
    readyLine: /Your AI Gateway is running/,
    healthUrl: `${url}/`,
  });
  return { url, process, version };
}
