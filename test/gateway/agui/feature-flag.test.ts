import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aguiYaml, authHeaders, startAguiGateway, type AguiGateway } from './agui-harness.js';

describe('gateway.agui: false', () => {
  let gateway: AguiGateway;
  beforeAll(async () => {
    gateway = await startAguiGateway(`gateway:\n  agui: false\n${aguiYaml}`);
  });
  afterAll(() => gateway.stop());

  it('does not mount the AG-UI routes', async () => {
    const response = await fetch(gateway.url('/agui/runs'), {
      method: 'POST',
      headers: authHeaders,
      body: JSON.stringify({ agent_name: 'helper', message: 'Hi' }),
    });
    expect(response.status).toBe(404);
    expect((await fetch(gateway.url('/agui/ws?run_id=run_x'), { headers: authHeaders })).status).toBe(404);
  });
});
