import { createOpenAI } from '@ai-sdk/openai';
import { generateText, streamText } from 'ai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TEST_API_KEY } from '../../../support/app.js';
import { startGateway, type GatewayHarness } from '../openai-harness.js';

/** The Vercel AI SDK's default OpenAI model speaks the Responses API: `openai('helper')`, base URL and key changed only. */
describe('the AI SDK default model (Responses API) against the gateway', () => {
  let gateway: GatewayHarness;
  let openai: ReturnType<typeof createOpenAI>;
  beforeAll(async () => {
    gateway = await startGateway();
    openai = createOpenAI({ baseURL: `${gateway.app.url}/v1`, apiKey: TEST_API_KEY });
  });
  afterAll(() => gateway.stop());
  beforeEach(() => {
    gateway.upstream.requests.length = 0;
  });

  it('generateText gets the agent answer, its usage and the response id', async () => {
    gateway.upstream.enqueue({
      kind: 'text',
      text: 'Hello from the agent.',
      usage: { prompt_tokens: 12, completion_tokens: 5 },
    });
    const result = await generateText({
      model: openai('helper'),
      system: 'Answer politely.',
      prompt: 'Hello',
      temperature: 0.7,
      maxOutputTokens: 100,
      maxRetries: 0,
    });
    expect(result.text).toBe('Hello from the agent.');
    expect(result.finishReason).toBe('stop');
    expect(result.usage).toMatchObject({ inputTokens: 12, outputTokens: 5, totalTokens: 17 });
    expect(result.response.id).toMatch(/^resp_/);
    const [sent] = gateway.upstream.chatRequests();
    expect(sent.body.messages).toEqual([
      { role: 'system', content: 'You are a helpful assistant.' },
      { role: 'system', content: 'Answer politely.' },
      { role: 'user', content: 'Hello' },
    ]);
    expect(sent.body.temperature).toBe(0.7);
    expect(sent.body.max_tokens ?? sent.body.max_completion_tokens).toBe(100);
  });

  it('streamText streams the text and finishes with usage', async () => {
    gateway.upstream.enqueue({
      kind: 'text',
      text: 'one two three',
      chunks: 3,
      usage: { prompt_tokens: 4, completion_tokens: 3 },
    });
    const result = streamText({ model: openai('helper'), prompt: 'count', maxRetries: 0 });
    const parts: string[] = [];
    for await (const part of result.textStream) parts.push(part);
    expect(parts.length).toBeGreaterThan(1);
    expect(parts.join('')).toBe('one two three');
    expect(await result.finishReason).toBe('stop');
    expect(await result.usage).toMatchObject({ inputTokens: 4, outputTokens: 3, totalTokens: 7 });
  });

  it('continues the conversation with providerOptions.openai.previousResponseId', async () => {
    gateway.upstream.enqueue({ kind: 'text', text: 'Hi Ada.' });
    const first = await generateText({ model: openai('helper'), prompt: 'I am Ada.', maxRetries: 0 });
    gateway.upstream.requests.length = 0;
    await generateText({
      model: openai('helper'),
      prompt: 'Who am I?',
      maxRetries: 0,
      providerOptions: { openai: { previousResponseId: first.response.id } },
    });
    expect(gateway.upstream.chatRequests()[0].body.messages.slice(1)).toEqual([
      { role: 'user', content: 'I am Ada.' },
      { role: 'assistant', content: 'Hi Ada.' },
      { role: 'user', content: 'Who am I?' },
    ]);
  });

  it('streamText reports an error, not a finished answer, when the upstream breaks off mid-answer', async () => {
    gateway.upstream.enqueue({ kind: 'disconnect', afterChunks: 2 });
    const errors: unknown[] = [];
    const result = streamText({
      model: openai('helper'),
      prompt: 'tell me',
      maxRetries: 0,
      onError: ({ error }) => void errors.push(error),
    });
    for await (const _part of result.fullStream) void _part;
    expect(errors.length).toBeGreaterThan(0);
    expect(await result.finishReason).not.toBe('stop');
  });
});
