import type OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { authHeaders, startGateway, type GatewayHarness } from '../openai-harness.js';

type StreamEvent = OpenAI.Responses.ResponseStreamEvent;

describe('POST /v1/responses with stream: true', () => {
  let gateway: GatewayHarness;
  beforeAll(async () => {
    gateway = await startGateway();
  });
  afterAll(() => gateway.stop());
  beforeEach(() => {
    gateway.upstream.requests.length = 0;
  });

  const collect = async (stream: AsyncIterable<StreamEvent>) => {
    const events: StreamEvent[] = [];
    for await (const event of stream) events.push(event);
    return events;
  };

  it('streams the documented event sequence, numbered, ending with response.completed (stored as sent)', async () => {
    gateway.upstream.enqueue({
      kind: 'text',
      text: 'one two three four',
      chunks: 4,
      usage: { prompt_tokens: 9, completion_tokens: 4 },
    });
    const events = await collect(
      await gateway.client.responses.create({ model: 'helper', input: 'count', stream: true }),
    );
    const deltas = events.filter((event) => event.type === 'response.output_text.delta');
    expect(deltas.length).toBeGreaterThan(1);
    const types = events.map((event) => event.type).filter((type) => type !== 'response.output_text.delta');
    expect(types).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    // Deltas sit between the part's opening and the text's end.
    expect(events.findIndex((event) => event.type === 'response.output_text.delta')).toBe(4);
    expect(events.map((event) => event.sequence_number)).toEqual(events.map((_, index) => index));
    expect(deltas.map((delta) => delta.delta).join('')).toBe('one two three four');

    const [created] = events;
    if (created.type !== 'response.created') throw new Error('not created first');
    expect(created.response).toMatchObject({ status: 'in_progress', output: [], model: 'helper' });
    const done = events.find((event) => event.type === 'response.output_text.done');
    expect(done).toMatchObject({ text: 'one two three four', output_index: 0, content_index: 0 });
    const completed = events.at(-1);
    if (completed?.type !== 'response.completed') throw new Error('not completed last');
    expect(completed.response).toMatchObject({
      id: created.response.id,
      status: 'completed',
      output: [
        { type: 'message', status: 'completed', content: [{ type: 'output_text', text: 'one two three four' }] },
      ],
      usage: { input_tokens: 9, output_tokens: 4, total_tokens: 13 },
    });
    expect(deltas.every((delta) => delta.item_id === completed.response.output[0].id)).toBe(true);
    const { output_text: _text, ...stored } = await gateway.client.responses.retrieve(created.response.id);
    expect(stored).toEqual(completed.response);
  });

  it('works with client.responses.stream: text deltas as they come, then the final response', async () => {
    gateway.upstream.enqueue({ kind: 'text', text: 'streamed by the helper', chunks: 3 });
    const stream = gateway.client.responses.stream({ model: 'helper', input: 'hello' });
    const deltas: string[] = [];
    stream.on('response.output_text.delta', (event) => deltas.push(event.delta));
    const final = await stream.finalResponse();
    expect(deltas.join('')).toBe('streamed by the helper');
    expect(final.output_text).toBe('streamed by the helper');
    expect(final.status).toBe('completed');
  });

  it('continues a streamed response with previous_response_id', async () => {
    gateway.upstream.enqueue({ kind: 'text', text: 'Hi Ada.' });
    const first = await gateway.client.responses.stream({ model: 'helper', input: 'I am Ada.' }).finalResponse();
    gateway.upstream.requests.length = 0;
    await gateway.client.responses
      .stream({ model: 'helper', input: 'Who am I?', previous_response_id: first.id })
      .finalResponse();
    expect(gateway.upstream.chatRequests()[0].body.messages.slice(1)).toEqual([
      { role: 'user', content: 'I am Ada.' },
      { role: 'assistant', content: 'Hi Ada.' },
      { role: 'user', content: 'Who am I?' },
    ]);
  });

  it('ends with response.failed, never response.completed, when the upstream breaks off mid-answer', async () => {
    gateway.upstream.enqueue({ kind: 'disconnect', afterChunks: 2 });
    const events = await collect(
      await gateway.client.responses.create({ model: 'helper', input: 'tell me', stream: true }),
    );
    expect(events.some((event) => event.type === 'response.output_text.delta')).toBe(true);
    expect(events.map((event) => event.type)).not.toContain('response.completed');
    expect(events.map((event) => event.type)).not.toContain('response.output_text.done');
    const failed = events.at(-1);
    if (failed?.type !== 'response.failed') throw new Error(`ended with ${failed?.type}`);
    expect(failed.response.status).toBe('failed');
    expect(failed.response.error?.code).toBeTruthy();
    expect(failed.response.output[0]).toMatchObject({ type: 'message', status: 'incomplete' });
    expect((await gateway.client.responses.retrieve(failed.response.id)).status).toBe('failed');
  });

  it('answers a run that fails before saying anything with an HTTP error, as chat completions do', async () => {
    gateway.upstream.enqueue({ kind: 'error', status: 500, body: { error: { message: 'boom' } } });
    const failure = await gateway.client.responses
      .create({ model: 'helper', input: 'x', stream: true })
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({ status: 502 });
  });

  it('pads deltas with obfuscation unless stream_options.include_obfuscation is false', async () => {
    const deltasOf = async (streamOptions?: object) => {
      gateway.upstream.enqueue({ kind: 'text', text: 'abc def', chunks: 2 });
      const response = await fetch(`${gateway.app.url}/v1/responses`, {
        method: 'POST',
        headers: authHeaders,
        body: JSON.stringify({ model: 'helper', input: 'x', stream: true, stream_options: streamOptions }),
      });
      expect(response.headers.get('content-type')).toContain('text/event-stream');
      const text = await response.text();
      expect(text).toContain('event: response.output_text.delta\ndata: ');
      return text
        .split('\n\n')
        .filter((block) => block.startsWith('event: response.output_text.delta'))
        .map((block) => JSON.parse(block.slice(block.indexOf('data: ') + 6)) as { obfuscation?: string });
    };
    expect((await deltasOf()).every((delta) => typeof delta.obfuscation === 'string')).toBe(true);
    expect((await deltasOf({ include_obfuscation: false })).some((delta) => 'obfuscation' in delta)).toBe(false);
  });
});
