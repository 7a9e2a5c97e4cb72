/** The one harness behind every HTTP test: a fake upstream, a gateway in front of it, and clients. */
import OpenAI from 'openai';
import { startTestApp, TEST_API_KEY, type TestApp } from './app.js';
import { startFakeUpstream, type FakeUpstream } from './fake-upstream.js';

export interface TestGatewayOptions {
  /** The gateway's YAML; `${UPSTREAM_URL}` is the fake upstream's URL, `${TEST_API_KEY}` the operator key. */
  yaml: string;
  env?: NodeJS.ProcessEnv;
  databaseUrl?: string;
  dataDir?: string;
  /** An upstream shared with other gateways; it is left open by close(). */
  upstream?: FakeUpstream;
}

export interface TestGateway {
  app: TestApp;
  upstream: FakeUpstream;
  /** The gateway's base URL, e.g. `http://127.0.0.1:40123`. */
  url: string;
  /** The operator API key the YAML lists as `${TEST_API_KEY}`. */
  apiKey: string;
  /** The official OpenAI client on `${url}/v1` with the operator key, without retries. */
  openai: OpenAI;
  /** An OpenAI client with another credential (an access token, a wrong key). */
  openaiWith(apiKey: string): OpenAI;
  /** Stops the gateway (keeping its data dir with keepData) and the upstream it started. */
  close(options?: { keepData?: boolean }): Promise<void>;
}

export async function startTestGateway(options: TestGatewayOptions): Promise<TestGateway> {
  const upstream = options.upstream ?? (await startFakeUpstream());
  const app = await startTestApp(options.yaml, {
    env: { UPSTREAM_URL: upstream.url, ...options.env },
    databaseUrl: options.databaseUrl,
    dataDir: options.dataDir,
  });
  const openaiWith = (apiKey: string) => new OpenAI({ baseURL: `${app.url}/v1`, apiKey, maxRetries: 0 });
  return {
    app,
    upstream,
    url: app.url,
    apiKey: TEST_API_KEY,
    openai: openaiWith(TEST_API_KEY),
    openaiWith,
    async close(closeOptions) {
      await app.stop(closeOptions);
      if (!options.upstream) await upstream.close();
    },
  };
}
