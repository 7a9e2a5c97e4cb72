import { afterEach, describe, expect, it } from 'vitest';
import { BASE_YAML, startTestApp, TEST_API_KEY, type TestApp } from '../support/app.js';

const apps: TestApp[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.stop();
});

async function modelsStatus(
  gateway: string,
  headers: Record<string, string> = { 'x-api-key': TEST_API_KEY },
): Promise<number> {
  const app = await startTestApp(`${gateway}\n${BASE_YAML}`, { listen: false });
  apps.push(app);
  return (await app.inject('/v1/models', { headers })).status;
}

describe('gateway feature flags', () => {
  it('mount the OpenAI-compatible routes by default', async () => {
    expect(await modelsStatus('')).toBe(200);
  });

  it('leave a disabled feature unmounted (404), by its own flag or by gateway.enabled', async () => {
    expect(await modelsStatus('gateway: { openai_compat: false }')).toBe(404);
    expect(await modelsStatus('gateway: { enabled: false }')).toBe(404);
  });

  it('answer 404 for a disabled feature even without credentials, while mounted routes still ask for them', async () => {
    expect(await modelsStatus('gateway: { openai_compat: false }', {})).toBe(404);
    expect(await modelsStatus('', {})).toBe(401);
  });
});
