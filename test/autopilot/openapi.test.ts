import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { injectFetch } from '../support/inject.js';
import { startAutopilot, type AutopilotHarness } from './autopilot-harness.js';

let h: AutopilotHarness;
beforeAll(async () => {
  h = await startAutopilot();
});
afterAll(() => h.stop());

describe('the OpenAPI document of the autopilot routes', () => {
  it('declares the X-Project-ID header on every autopilot route', async () => {
    const document = (await (await injectFetch(h.app.server, '/openapi.json')).json()) as {
      paths: Record<string, Record<string, { parameters?: { in: string; name: string }[] }>>;
    };
    const operations = Object.entries(document.paths)
      .filter(([path]) => path.startsWith('/api/v1/autopilot'))
      .flatMap(([path, methods]) =>
        Object.entries(methods).map(([method, operation]) => ({ route: `${method.toUpperCase()} ${path}`, operation })),
      );
    expect(operations.length).toBeGreaterThan(20);
    for (const { route, operation } of operations) {
      expect(
        operation.parameters?.some((parameter) => parameter.in === 'header' && parameter.name === 'x-project-id'),
        route,
      ).toBe(true);
    }
  });

  it('declares the service_auth cookie as a way to authenticate (spec section 5)', async () => {
    const document = (await (await injectFetch(h.app.server, '/openapi.json')).json()) as {
      components: { securitySchemes: Record<string, unknown> };
      security: Record<string, unknown>[];
    };
    expect(document.components.securitySchemes.serviceAuth).toMatchObject({
      type: 'apiKey',
      in: 'cookie',
      name: 'service_auth',
    });
    expect(document.security).toContainEqual({ serviceAuth: [] });
  });

  it('still answers 400 invalid_project_id for a bad header', async () => {
    const answer = await h.api('GET', '/missions', undefined, { project: '../etc' });
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe('invalid_project_id');
  });
});
