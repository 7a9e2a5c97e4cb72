import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authHeaders,
  errorOf,
  parseSse,
  postRun,
  startAguiGateway,
  typesOf,
  type AguiGateway,
  type SseMessage,
} from './agui-harness.js';

describe('GET /agui/ws?run_id= (SSE attach)', () => {
  let gateway: AguiGateway;
  beforeAll(async () => {
    gateway = await startAguiGateway();
  });
  afterAll(() => gateway.stop());

  const attach = (runId: string, query = '', headers: Record<string, string> = {}, init: RequestInit = {}) =>
    fetch(gateway.url(`/agui/ws?run_id=${runId}${query}`), {
      headers: { authorization: authHeaders.authorization, ...headers },
      ...init,
    });

  const finishedToolRun = async (): Promise<{ runId: string; streamed: SseMessage[] }> => {
    gateway.upstream.enqueue(
      { kind: 'tool_calls', calls: [{ name: 'get_current_time', arguments: { timezone: 'UTC' }, id: 'call_1' }] },
      { kind: 'text', text: 'It is noon, UTC.', chunks: 3 },
    );
    const response = await postRun(gateway, { agent_name: 'timekeeper', message: 'Time?' });
    return { runId: response.headers.get('x-run-id')!, streamed: parseSse(await response.text()) };
  };

  it('replays a finished run: the full sequence, with the same ids, then closes', async () => {
    const { runId, streamed } = await finishedToolRun();
    const response = await attach(runId);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const replayed = parseSse(await response.text());
    expect(replayed).toEqual(streamed);
    expect(typesOf(replayed).at(-1)).toBe('RUN_FINISHED');
  });

  it('replays in the simple format too', async () => {
    const { runId } = await finishedToolRun();
    const replayed = parseSse(await (await attach(runId, '&format=simple')).text());
    expect(typesOf(replayed)).toEqual([
      'run_started',
      'tool_call',
      'tool_result',
      'text_delta',
      'text_delta',
      'text_delta',
      'run_completed',
    ]);
  });

  it('resumes after Last-Event-ID without repeating or losing events', async () => {
    const { runId, streamed } = await finishedToolRun();
    const cut = streamed.findIndex((message) => message.event === 'TOOL_CALL_RESULT');
    const resumed = parseSse(await (await attach(runId, '', { 'last-event-id': streamed[cut].id! })).text());
    expect(resumed).toEqual(streamed.slice(cut + 1));
  });

  it('attaches to a running run, and leaving only detaches: the run still completes', async () => {
    gateway.upstream.enqueue({ kind: 'text', text: 'slow words arriving one at a time', chunks: 8, chunkDelayMs: 30 });
    const started = await postRun(gateway, { agent_name: 'helper', message: 'x' });
    const runId = started.headers.get('x-run-id')!;
    const original = started.text();

    const complete = parseSse(await (await attach(runId)).text());
    expect(complete).toEqual(parseSse(await original).slice(0, complete.length));
    expect(typesOf(complete).at(-1)).toBe('RUN_FINISHED');

    gateway.upstream.enqueue({
      kind: 'text',
      text: 'another slow answer for a reader who leaves',
      chunks: 8,
      chunkDelayMs: 30,
    });
    const second = await postRun(gateway, { agent_name: 'helper', message: 'y' });
    const secondId = second.headers.get('x-run-id')!;
    const abort = new AbortController();
    const watcher = await attach(secondId, '', {}, { signal: abort.signal });
    await watcher.body!.getReader().read();
    abort.abort();
    expect(typesOf(parseSse(await second.text())).at(-1)).toBe('RUN_FINISHED');
    expect((await gateway.app.runs.find(secondId))?.run.status).toBe('completed');
  });

  it('answers an unknown run with 404 and a missing run_id with 400', async () => {
    const unknown = await attach('run_000000000000000000000000');
    expect(unknown.status).toBe(404);
    expect(await errorOf(unknown)).toMatchObject({ code: 'run_not_found' });
    const missing = await fetch(gateway.url('/agui/ws'), { headers: { authorization: authHeaders.authorization } });
    expect(missing.status).toBe(400);
  });
});
