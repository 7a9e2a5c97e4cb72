import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authHeaders, gatewayYaml, startGateway, type GatewayHarness } from './openai-harness.js';

const yaml = `${gatewayYaml()}  - name: roomy
    model: upstream/test-model
    max_output_bytes: 100000
runs:
  max_output_bytes: 1000
`;

const complete = (gateway: GatewayHarness, model: string, stream = false) =>
  fetch(`${gateway.app.url}/v1/chat/completions`, {
    method: 'POST',
    headers: authHeaders,
    body: JSON.stringify({ model, stream, messages: [{ role: 'user', content: 'say a lot' }] }),
  });

describe('a run whose output passes max_output_bytes', () => {
  let gateway: GatewayHarness;
  beforeAll(async () => {
    gateway = await startGateway({ yaml });
  });
  afterAll(() => gateway.stop());

  it('fails with output_too_large, keeping only what fit', async () => {
    gateway.upstream.enqueue({ kind: 'text', text: 'é'.repeat(1500), chunks: 30 });
    const response = await complete(gateway, 'helper');
    expect(response.status).toBe(502);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('output_too_large');
    expect(body.error.message).toMatch(/1000 bytes/);
    const record = (await gateway.app.runs.find(response.headers.get('x-run-id')!))?.run;
    expect(record).toMatchObject({ status: 'failed', error_code: 'output_too_large' });
    expect(Buffer.byteLength(record?.output ?? '')).toBeLessThanOrEqual(1000);
    expect(record?.output?.length).toBeGreaterThan(0);
  });

  it('ends a stream with the error once the cap is passed', async () => {
    gateway.upstream.enqueue({ kind: 'text', text: 'x'.repeat(3000), chunks: 30 });
    const text = await (await complete(gateway, 'helper', true)).text();
    expect(text).toContain('"code":"output_too_large"');
    expect(text).not.toContain('[DONE]');
  });

  it('lets an agent with a larger max_output_bytes say more', async () => {
    gateway.upstream.enqueue({ kind: 'text', text: 'x'.repeat(3000), chunks: 30 });
    const response = await complete(gateway, 'roomy');
    expect(response.status).toBe(200);
    const body = (await response.json()) as { choices: { message: { content: string } }[] };
    expect(body.choices[0].message.content).toHaveLength(3000);
  });
});
