import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type GatewayHarness } from '../gateway/openai/openai-harness.js';

// A blocking output guardrail on a streamed answer: text leaves through a hold-back window as long as the
// longest blocklist entry (plus one character), so the client sees the answer while the model still writes,
// and a blocked phrase split across chunks never reaches it.
const YAML = `
auth:
  api_keys: ["\${TEST_API_KEY}"]
providers:
  upstream: { type: openai-compatible, base_url: "\${UPSTREAM_URL}", max_retries: 0 }
guardrails:
  content_filter: { blocklist: ["forbidden plan"], action: block }
agents:
  - name: helper
    model: upstream/test-model
`;

const PREFIX = 'The quarterly report covers revenue, hiring and the roadmap for next year in some detail. ';

function gate(): { open: () => void; opened: Promise<void> } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

describe('a streamed answer under a blocking output guardrail', () => {
  let gateway: GatewayHarness;
  beforeAll(async () => {
    gateway = await startGateway({ yaml: YAML });
  });
  afterAll(() => gateway.stop());

  it('releases the text before the hold-back window while the model is still writing', async () => {
    const end = gate();
    const pieces = [PREFIX.slice(0, 40), PREFIX.slice(40), 'and a final line.'];
    gateway.upstream.enqueue({ kind: 'text', text: pieces.join(''), pieces, holdEnd: end.opened });
    const stream = await gateway.client.chat.completions.create({
      model: 'helper',
      messages: [{ role: 'user', content: 'Summarise' }],
      stream: true,
    });
    const iterator = stream[Symbol.asyncIterator]();
    let early = '';
    // The upstream has not ended (its end waits for the gate): any text seen now was released by the window.
    while (early === '') {
      const next = await iterator.next();
      expect(next.done).toBe(false);
      early += next.value.choices[0]?.delta?.content ?? '';
    }
    expect(pieces.join('').startsWith(early)).toBe(true);
    end.open();
    let rest = '';
    let finish: string | null | undefined;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
      rest += next.value.choices[0]?.delta?.content ?? '';
      finish = next.value.choices[0]?.finish_reason ?? finish;
    }
    expect(early + rest).toBe(pieces.join(''));
    expect(finish).toBe('stop');
  });

  it('never lets a blocked phrase split across chunks reach the client, and ends content_filter', async () => {
    const pieces = [PREFIX, 'so the forb', 'idden pl', 'an is as follows: step one, step two, step three.'];
    gateway.upstream.enqueue({ kind: 'text', text: pieces.join(''), pieces });
    const stream = await gateway.client.chat.completions.create({
      model: 'helper',
      messages: [{ role: 'user', content: 'Tell me' }],
      stream: true,
    });
    let seen = '';
    let finish: string | null | undefined;
    for await (const chunk of stream) {
      seen += chunk.choices[0]?.delta?.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    expect(finish).toBe('content_filter');
    // What came before the phrase streamed; nothing of the phrase (not even its first letters) did.
    expect(seen.length).toBeGreaterThan(0);
    expect(PREFIX.startsWith(seen) || seen.startsWith(PREFIX)).toBe(true);
    expect(seen).not.toContain('forb');
    expect(seen).not.toMatch(/plan/);
  });
});
