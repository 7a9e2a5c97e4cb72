import { expect } from 'vitest';
import { settle, type AutopilotHarness } from '../autopilot-harness.js';
import { TEST_API_KEY } from '../../support/app.js';
import type { RecordedRequest } from '../../support/fake-upstream.js';

/** A one-node blueprint whose samples go to the dataset named after its id. */
export const LEARN = {
  id: 'learn-answers',
  title: 'Answer questions',
  required_slots: { topic: 'str' },
  agent_graph: { entry: 'answer', nodes: [{ id: 'answer', role: 'expert', prompt: 'Answer about {{topic}}' }] },
};

/** A long answer (well past the 200-character preview) that repeats the prompt, so samples differ per topic. */
export function longAnswer(request: RecordedRequest) {
  const user =
    [...(request.body?.messages ?? [])].reverse().find((message: { role: string }) => message.role === 'user')
      ?.content ?? '';
  return { kind: 'text' as const, text: `echo: ${user}. ${'more detail '.repeat(30)}END` };
}

/** Creates, approves and waits for a one-off mission of the blueprint; returns its detail. */
export async function runMission(h: AutopilotHarness, topic: string, blueprint: object = LEARN) {
  const created = await h.api('POST', '/missions', { blueprint_json: JSON.stringify(blueprint), slots: { topic } });
  expect(created.status).toBe(200);
  await h.api('POST', `/missions/${created.body.mission_id}/approve`);
  await settle(h);
  const detail = (await h.api('GET', `/missions/${created.body.mission_id}`)).body;
  expect(detail.status).toBe('completed');
  return detail;
}

export async function downloadDataset(h: AutopilotHarness, name: string): Promise<{ status: number; lines: any[] }> {
  const response = await fetch(`${h.url}/api/v1/autopilot/curator/datasets/${name}`, {
    headers: { authorization: `Bearer ${TEST_API_KEY}` },
  });
  const text = await response.text();
  return {
    status: response.status,
    lines: response.ok
      ? text
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line))
      : [],
  };
}
