import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RunService } from '../../../src/agents/index.js';
import { aguiRoutes } from '../../../src/gateway/agui/index.js';
import type { StreamFormat } from '../../../src/gateway/agui/agui-event.js';
import { createEventMapper } from '../../../src/gateway/agui/create-event-mapper.js';
import { formatSseEvents } from '../../../src/gateway/agui/format-sse-events.js';
import { createRunFrameCache, type RunFrameCache } from '../../../src/gateway/agui/run-frame-cache.js';
import { createServer } from '../../../src/http/index.js';
import { parseSse, startAguiGateway, type AguiGateway } from './agui-harness.js';
import { connectWs } from './ws/ws-client.js';

/** What one stream that maps the finished run on its own sends after `afterSeq`: the behaviour before frames were shared. */
async function loneStreamText(runs: RunService, runId: string, format: StreamFormat, afterSeq = 0): Promise<string> {
  const mapper = createEventMapper(format);
  let text = '';
  for await (const event of (await runs.attach(runId))!) {
    const events = mapper.map(event);
    if (event.seq > afterSeq && events.length > 0) text += formatSseEvents(events, event.seq);
  }
  return text;
}

/** Reads an SSE body as it arrives. */
function reading(response: Response) {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  return {
    get text() {
      return text;
    },
    async until(done: (text: string) => boolean): Promise<void> {
      while (!done(text)) {
        const chunk = await reader.read();
        if (chunk.done) return;
        text += decoder.decode(chunk.value, { stream: true });
      }
    },
    async all(): Promise<string> {
      await this.until(() => false);
      return text;
    },
  };
}

describe('AG-UI streams of one run share its frames', () => {
  let gateway: AguiGateway;
  let server: FastifyInstance;
  let frames: RunFrameCache;
  let base: string;
  beforeAll(async () => {
    gateway = await startAguiGateway();
    // The AG-UI routes over the gateway's own agents and runs, with a frame cache this test can look at.
    frames = createRunFrameCache();
    server = await createServer({ logLevel: 'silent', bodyLimitBytes: 1024 * 1024, corsOrigins: [], version: 'test' });
    await server.register(aguiRoutes, { agents: gateway.app.agents, runs: gateway.app.runs, frames });
    base = await server.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await server.close();
    await gateway.stop();
  });

  const startRun = (format: StreamFormat = 'agui') =>
    fetch(`${base}/agui/runs?format=${format}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ agent_name: 'timekeeper', message: 'Time?' }),
    });
  const attach = (runId: string, format: StreamFormat, lastEventId?: string, init: RequestInit = {}) =>
    fetch(`${base}/agui/ws?run_id=${runId}&format=${format}`, {
      headers: lastEventId ? { 'last-event-id': lastEventId } : {},
      ...init,
    });
  const slowToolRun = () =>
    gateway.upstream.enqueue(
      { kind: 'tool_calls', calls: [{ name: 'get_current_time', arguments: { timezone: 'UTC' }, id: 'call_1' }] },
      { kind: 'text', text: 'It is noon in UTC, which is twelve o’clock.', chunks: 10, chunkDelayMs: 30 },
    );

  it('gives a stream from the start and a late one resuming with Last-Event-ID, in both formats at once, exactly their events', async () => {
    slowToolRun();
    const owner = await startRun();
    const runId = owner.headers.get('x-run-id')!;
    const ownerBody = reading(owner);
    const early = reading(await attach(runId, 'agui'));
    const earlySimple = reading(await attach(runId, 'simple'));

    // The late streams come once the early one has seen part of the answer, and resume after it.
    const contents = (text: string) =>
      parseSse(text.slice(0, text.lastIndexOf('\n\n') + 2)).filter(
        (message) => message.event === 'TEXT_MESSAGE_CONTENT',
      );
    await early.until((text) => contents(text).length >= 3);
    const resumeAt = contents(early.text).at(-1)!.id!;
    await earlySimple.until((text) =>
      parseSse(text.slice(0, text.lastIndexOf('\n\n') + 2)).some((message) => message.event === 'text_delta'),
    );
    const resumeSimpleAt = parseSse(earlySimple.text.slice(0, earlySimple.text.lastIndexOf('\n\n') + 2)).at(-1)!.id!;
    const late = reading(await attach(runId, 'agui', resumeAt));
    const lateSimple = reading(await attach(runId, 'simple', resumeSimpleAt));

    const [ownerText, earlyText, earlySimpleText, lateText, lateSimpleText] = await Promise.all([
      ownerBody.all(),
      early.all(),
      earlySimple.all(),
      late.all(),
      lateSimple.all(),
    ]);
    const full = await loneStreamText(gateway.app.runs, runId, 'agui');
    const types = parseSse(full).map((message) => message.event);
    expect(types.slice(0, 6)).toEqual([
      'RUN_STARTED',
      'TOOL_CALL_START',
      'TOOL_CALL_ARGS',
      'TOOL_CALL_END',
      'TOOL_CALL_RESULT',
      'TEXT_MESSAGE_START',
    ]);
    expect(types.slice(6, -2).every((type) => type === 'TEXT_MESSAGE_CONTENT')).toBe(true);
    expect(types.slice(-2)).toEqual(['TEXT_MESSAGE_END', 'RUN_FINISHED']);
    expect(ownerText).toBe(full);
    expect(earlyText).toBe(full);
    expect(lateText).toBe(await loneStreamText(gateway.app.runs, runId, 'agui', Number(resumeAt)));
    expect(parseSse(lateText)[0].event).toBe('TEXT_MESSAGE_CONTENT');
    expect(earlySimpleText).toBe(await loneStreamText(gateway.app.runs, runId, 'simple'));
    expect(lateSimpleText).toBe(await loneStreamText(gateway.app.runs, runId, 'simple', Number(resumeSimpleAt)));
    expect(frames.size).toBe(0);
  });

  it('sends a WebSocket run’s frames to an SSE stream attached to it as well', async () => {
    const client = await connectWs(`${base.replace('http', 'ws')}/agui/ws?agent_name=timekeeper`);
    slowToolRun();
    client.send({ type: 'message', content: 'Time?' });
    const [started] = await client.until((frame) => frame.type === 'RUN_STARTED');
    const sseText = await reading(await attach(started.runId, 'agui')).all();
    await vi.waitFor(() => expect(client.frames.at(-1)?.type).toBe('RUN_FINISHED'));
    const full = await loneStreamText(gateway.app.runs, started.runId, 'agui');
    expect(sseText).toBe(full);
    expect(client.frames).toEqual(parseSse(full).map((message) => message.data));
    await client.close();
    await vi.waitFor(() => expect(frames.size).toBe(0));
  });

  it('releases a run’s frames when its streams leave before the run ends', async () => {
    slowToolRun();
    const owner = await startRun();
    const runId = owner.headers.get('x-run-id')!;
    const leaving = new AbortController();
    const watcher = await attach(runId, 'simple', undefined, { signal: leaving.signal });
    await watcher.body!.getReader().read();
    expect(frames.size).toBeGreaterThan(0);
    leaving.abort();
    // The owner leaving cancels the run; with every stream gone, nothing of the run is kept.
    await owner.body!.cancel();
    await vi.waitFor(() => expect(frames.size).toBe(0));
  });
});
