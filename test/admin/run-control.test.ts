import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { readCompletion, startAdminHarness, type AdminHarness } from './admin-harness.js';

const ANSWER = 'The quick brown fox jumps over the lazy dog while the cat watches from the warm windowsill.';
const messages = [{ role: 'user' as const, content: 'tell me' }];

/**
 * A streamed run whose upstream sends the answer's first piece, then holds the rest until the test calls `goOn()`:
 * a command the test sends meanwhile lands mid-answer however slow the machine is.
 */
async function startHeldStream(harness: AdminHarness, chunks: number) {
  let goOn!: () => void;
  const open = new Promise<void>((resolve) => (goOn = resolve));
  harness.upstream.enqueue({ kind: 'text', text: ANSWER, chunks, gates: [{ at: 1, open }] });
  const { data, response } = await harness.client.chat.completions
    .create({ model: 'helper', messages, stream: true })
    .withResponse();
  const reader = readCompletion(data);
  await vi.waitFor(() => expect(reader.pieces.length).toBeGreaterThan(0), { timeout: 10_000 });
  return { runId: response.headers.get('x-run-id')!, reader, goOn };
}

describe('pause and resume through the admin API', () => {
  let harness: AdminHarness;
  beforeAll(async () => {
    harness = await startAdminHarness();
  });
  afterAll(() => harness.stop());

  it('the streaming client sees nothing while paused, then the whole answer after resume', async () => {
    const { runId, reader, goOn } = await startHeldStream(harness, 16);
    const paused = await harness.admin('POST', `/runs/${runId}/pause`);
    expect(paused).toEqual({ status: 200, body: { run_id: runId, status: 'paused' } });
    expect((await harness.admin('GET', `/runs/${runId}`)).body.status).toBe('paused');

    // Only now does the upstream send the rest: its call finishes while paused (its step is written), but its
    // text is held.
    goOn();
    await vi.waitFor(
      async () => expect((await harness.admin('GET', `/runs/${runId}`)).body.step_details).toHaveLength(1),
      { timeout: 10_000 },
    );
    const published = (await harness.app.bus.history(runId))
      .flatMap((event) => (event.type === 'text-delta' ? [event.delta] : []))
      .join('');
    // Every delta of the finished upstream call was emitted before its step was written: anything wrongly
    // released while paused is in `published` by now, and the client receives exactly that.
    await vi.waitFor(() => expect(reader.text()).toBe(published), { timeout: 10_000 });
    expect(ANSWER.startsWith(reader.text()) && reader.text().length < ANSWER.length).toBe(true);

    const again = await harness.admin('POST', `/runs/${runId}/pause`);
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ type: 'conflict_error', code: 'invalid_run_state', status: 'paused' });

    expect(await harness.admin('POST', `/runs/${runId}/resume`)).toEqual({
      status: 200,
      body: { run_id: runId, status: 'running' },
    });
    await reader.done;
    expect(reader.failure()).toBeUndefined();
    expect(reader.text()).toBe(ANSWER);
    await vi.waitFor(
      async () =>
        expect((await harness.admin('GET', `/runs/${runId}`)).body).toMatchObject({
          status: 'completed',
          output: ANSWER,
        }),
      { timeout: 10_000 },
    );
  });

  it('answers 404 for an unknown run and 409 with the status for a finished one', async () => {
    for (const command of ['pause', 'resume', 'cancel']) {
      const unknown = await harness.admin('POST', `/runs/run_unknown/${command}`);
      expect(unknown.status).toBe(404);
      expect(unknown.body.error).toMatchObject({ type: 'not_found_error', code: 'run_not_found' });
    }
    const done = await harness.client.chat.completions.create({ model: 'helper', messages }).withResponse();
    const runId = done.response.headers.get('x-run-id')!;
    for (const command of ['pause', 'resume', 'cancel']) {
      const refused = await harness.admin('POST', `/runs/${runId}/${command}`);
      expect(refused.status).toBe(409);
      expect(refused.body.error).toMatchObject({
        code: 'invalid_run_state',
        status: 'completed',
        message: expect.stringContaining('completed'),
      });
    }
  });
});

describe('cancel through the admin API', () => {
  let harness: AdminHarness;
  beforeAll(async () => {
    harness = await startAdminHarness();
  });
  afterAll(() => harness.stop());

  it('ends the client stream with an error chunk and closes the upstream request', async () => {
    // The upstream holds the answer after its first piece (goOn is never called): the cancel lands mid-answer.
    const { runId, reader } = await startHeldStream(harness, 40);
    expect(harness.upstream.openConnections()).toBe(1);
    const resumeRunning = await harness.admin('POST', `/runs/${runId}/resume`);
    expect(resumeRunning.body.error).toMatchObject({ code: 'invalid_run_state', status: 'running' });

    expect(await harness.admin('POST', `/runs/${runId}/cancel`)).toEqual({
      status: 200,
      body: { run_id: runId, status: 'cancelled' },
    });
    await reader.done;
    expect(reader.failure()).toMatchObject({ code: 'cancelled', type: 'cancelled_error' });
    expect(reader.text().length).toBeLessThan(ANSWER.length);
    await vi.waitFor(() => expect(harness.upstream.openConnections()).toBe(0), { timeout: 10_000 });
    const { body } = await harness.admin('GET', `/runs/${runId}`);
    expect(body).toMatchObject({ status: 'cancelled', error: { code: 'cancelled' } });
  });
});
