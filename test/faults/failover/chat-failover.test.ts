import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeResponse } from '../../support/fake-upstream.js';
import { FALLBACK_TEXT, NEVER, settledRun, startFailoverHarness, type FailoverHarness } from './failover-harness.js';

const EVENT_STREAM = { 'content-type': 'text/event-stream' };

/** Failures of the primary before its first token: each moves the call to the fallback (the failoverbench catalogue). */
const MOVES_ON: { name: string; agent?: string; answer?: FakeResponse; reason: string; status?: number }[] = [
  { name: 'HTTP 500', answer: { kind: 'error', status: 500 }, reason: 'server_error', status: 500 },
  { name: 'HTTP 503', answer: { kind: 'error', status: 503 }, reason: 'server_error', status: 503 },
  { name: 'HTTP 429 without Retry-After', answer: { kind: 'error', status: 429 }, reason: 'rate_limited', status: 429 },
  {
    name: 'HTTP 429 with Retry-After',
    answer: { kind: 'error', status: 429, headers: { 'retry-after': '30' } },
    reason: 'rate_limited',
    status: 429,
  },
  { name: 'a refused connection', agent: 'refused-first', reason: 'connection' },
  { name: 'a connection reset', answer: { kind: 'disconnect', afterChunks: 0 }, reason: 'connection' },
  { name: 'a timeout before the headers', agent: 'slow-first', answer: { kind: 'hang' }, reason: 'timeout' },
  {
    name: 'a stall before the first token',
    agent: 'stalling-first',
    answer: { kind: 'text', text: 'never sent', gates: [{ at: 0, open: NEVER }] },
    reason: 'stalled',
  },
  {
    name: 'malformed JSON in the stream',
    answer: { kind: 'raw', status: 200, headers: EVENT_STREAM, body: 'data: {"choices": [{"delta": \n\n' },
    reason: 'invalid_response',
  },
  {
    name: 'malformed SSE (no data field)',
    answer: { kind: 'raw', status: 200, headers: EVENT_STREAM, body: '{"choices":[{"delta":{"content":"hi"}}]}\n\n' },
    reason: 'invalid_response',
  },
  {
    name: 'a wrong content type',
    answer: { kind: 'raw', status: 200, headers: { 'content-type': 'text/html' }, body: '<html>Bad gateway</html>' },
    reason: 'invalid_response',
  },
  {
    name: 'HTTP 200 with an error body',
    answer: {
      kind: 'raw',
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: '{"error":{"message":"the model is overloaded","type":"server_error"}}',
    },
    reason: 'invalid_response',
  },
];

const ASK = [{ role: 'user' as const, content: 'hello' }];

describe('an agent with fallback models, through chat completions', () => {
  let harness: FailoverHarness;
  let client: OpenAI;
  beforeAll(async () => {
    harness = await startFailoverHarness();
    client = harness.gateway.openai;
  });
  afterAll(() => harness.close());

  /** The answer and run id of a non-streamed or streamed completion. */
  async function complete(agent: string, stream: boolean): Promise<{ text: string; runId: string }> {
    if (!stream) {
      const { data, response } = await client.chat.completions.create({ model: agent, messages: ASK }).withResponse();
      return { text: data.choices[0].message.content ?? '', runId: response.headers.get('x-run-id')! };
    }
    const { data, response } = await client.chat.completions
      .create({ model: agent, messages: ASK, stream: true })
      .withResponse();
    let text = '';
    let finish: string | null = null;
    for await (const chunk of data) {
      text += chunk.choices[0]?.delta.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    expect(finish).toBe('stop');
    return { text, runId: response.headers.get('x-run-id')! };
  }

  describe.each([false, true])('streamed: %s', (stream) => {
    it.each(MOVES_ON)(
      'moves on to the fallback after $name',
      async ({ agent = 'resilient', answer, reason, status }) => {
        harness.primaryAnswers(answer ?? { kind: 'error', status: 500 });
        const { text, runId } = await complete(agent, stream);
        expect(text).toBe(FALLBACK_TEXT);
        expect(harness.secondary.chatRequests()).toHaveLength(1);
        const { run, steps, records } = await settledRun(harness, runId);
        expect(run.status).toBe('completed');
        const failedModel = `${agent === 'resilient' ? 'primary' : agent.replace('-first', '').replace('refused', 'down')}/m`;
        expect(steps[0].prompt_log).toMatchObject({
          attempts: [
            {
              model: failedModel,
              status: 'failed',
              reason,
              next: 'fallback',
              ...(status && { upstream_status: status }),
            },
            { model: 'secondary/m', status: 'ok' },
          ],
        });
        // One usage record, priced as the fallback's answer (10 input and 5 output tokens at its prices).
        expect(records).toHaveLength(1);
        expect(records[0]).toMatchObject({
          status: 'ok',
          provider: 'secondary',
          model: 'secondary/m',
          input_tokens: 10,
          output_tokens: 5,
        });
        expect(Number(records[0].cost_usd)).toBeCloseTo((10 * 1000 + 5 * 2000) / 1e6, 9);
      },
    );
  });

  describe.each([false, true])('streamed: %s', (stream) => {
    it('answers a clear error naming every target when all are down, and bills nothing', async () => {
      harness.primaryAnswers({ kind: 'error', status: 500 });
      harness.secondary.setDefault({ kind: 'error', status: 503 });
      const error = await complete('resilient', stream).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(OpenAI.APIError);
      const apiError = error as InstanceType<typeof OpenAI.APIError>;
      expect(apiError).toMatchObject({ status: 502, type: 'upstream_error' });
      expect(apiError.message).toMatch(/all 2 model targets failed: .*"primary".*HTTP 500.*"secondary".*HTTP 503/);
      const { run, steps, records } = await settledRun(harness, apiError.headers!.get('x-run-id')!);
      expect(run.status).toBe('failed');
      expect(steps[0].prompt_log).toMatchObject({
        attempts: [
          { model: 'primary/m', reason: 'server_error', next: 'fallback' },
          { model: 'secondary/m', reason: 'server_error', next: 'none' },
        ],
      });
      expect(records).toMatchObject([{ status: 'error', input_tokens: 0, output_tokens: 0 }]);
    });

    it('does not move on when the request is too long for the model: a clear error, the fallback untried', async () => {
      harness.primaryAnswers({
        kind: 'error',
        status: 400,
        body: {
          error: {
            message: "This model's maximum context length is 8192 tokens",
            type: 'invalid_request_error',
            code: 'context_length_exceeded',
          },
        },
      });
      const error = await complete('resilient', stream).catch((caught: unknown) => caught);
      expect(error).toMatchObject({ status: 502, type: 'upstream_error' });
      expect((error as Error).message).toContain('maximum context length is 8192 tokens');
      expect(harness.primary.chatRequests()).toHaveLength(1);
      expect(harness.secondary.chatRequests()).toHaveLength(0);
    });
  });

  /** The primary starts answering, then breaks: the fallback is never tried and the client never sees a success. */
  const BREAKS_MID_ANSWER: { name: string; agent: string; answer: FakeResponse }[] = [
    { name: 'cut', agent: 'resilient', answer: { kind: 'disconnect', afterChunks: 2 } },
    {
      name: 'stalls',
      agent: 'stalling-first',
      answer: {
        kind: 'text',
        text: 'part0 part1 never',
        pieces: ['part0 ', 'part1 ', 'never'],
        gates: [{ at: 2, open: NEVER }],
      },
    },
  ];

  it.each(BREAKS_MID_ANSWER)(
    'ends a stream whose upstream $name after its first token with an error chunk and no [DONE], billed once',
    async ({ agent, answer }) => {
      harness.primaryAnswers(answer);
      const response = await fetch(`${harness.gateway.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${harness.gateway.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: agent, messages: ASK, stream: true }),
      });
      expect(response.status).toBe(200);
      const frames = (await response.text()).split('\n\n').filter(Boolean);
      const payloads = frames.map((frame) => frame.replace(/^data: /, ''));
      expect(payloads).not.toContain('[DONE]');
      expect(payloads.join('')).toContain('part0 ');
      expect(payloads.join('')).not.toContain('"finish_reason":"stop"');
      expect(JSON.parse(payloads.at(-1)!)).toMatchObject({
        error: { type: expect.stringMatching(/upstream_error|timeout_error/) },
      });
      expect(harness.secondary.chatRequests()).toHaveLength(0);
      const { run, records } = await settledRun(harness, response.headers.get('x-run-id')!);
      expect(run.status).toBe('failed');
      expect(records).toHaveLength(1);
      expect(records[0]).toMatchObject({ status: 'error', estimated: 1 });
      expect(records[0].output_tokens).toBeGreaterThan(0);
    },
  );

  it.each(BREAKS_MID_ANSWER)(
    'answers a non-streamed call whose upstream $name mid-answer with an error',
    async ({ agent, answer }) => {
      harness.primaryAnswers(answer);
      const error = await complete(agent, false).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(OpenAI.APIError);
      expect((error as InstanceType<typeof OpenAI.APIError>).status).toBeGreaterThanOrEqual(502);
      expect(harness.secondary.chatRequests()).toHaveLength(0);
    },
  );
});
