import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { adminYaml, startAdminHarness, type AdminHarness } from './admin-harness.js';

describe('admin agents, sessions and status', () => {
  let harness: AdminHarness;
  beforeAll(async () => {
    harness = await startAdminHarness({ yaml: adminYaml('admin: { session_window_minutes: 10 }') });
  });
  afterAll(() => harness.stop());

  it('lists agents, idle or running from their unfinished runs, with their run counts', async () => {
    await harness.client.chat.completions.create({ model: 'helper', messages: [{ role: 'user', content: 'hi' }] });
    harness.upstream.enqueue({ kind: 'hang' });
    const pending = harness.client.chat.completions
      .create({ model: 'helper', messages: [{ role: 'user', content: 'wait' }] })
      .catch((error: unknown) => error);
    await vi.waitFor(() => expect(harness.app.runs.active()).toHaveLength(1), { timeout: 10_000 });

    const { status, body } = await harness.admin('GET', '/agents');
    expect(status).toBe(200);
    expect(body).toEqual([
      {
        name: 'helper',
        model: 'upstream/test-model',
        status: 'running',
        total_runs: 2,
        registered_at: expect.any(String),
      },
      {
        name: 'timekeeper',
        model: 'upstream/test-model',
        status: 'idle',
        total_runs: 0,
        registered_at: expect.any(String),
      },
    ]);
    expect(Date.parse(body[0].registered_at)).not.toBeNaN();

    const [run] = harness.app.runs.active();
    await harness.admin('POST', `/runs/${run.runId}/cancel`);
    await pending;
    expect((await harness.admin('GET', '/agents')).body[0]).toMatchObject({ name: 'helper', status: 'idle' });
  });

  it('shows one agent with its prompt, tools and settings; 404 for an unknown name', async () => {
    const { status, body } = await harness.admin('GET', '/agents/timekeeper');
    expect(status).toBe(200);
    expect(body).toEqual({
      name: 'timekeeper',
      model: 'upstream/test-model',
      status: 'idle',
      total_runs: 0,
      registered_at: expect.any(String),
      system_prompt: 'You tell the time.',
      tools: ['get_current_time'],
      config: { temperature: 0.7, max_iterations: 10, max_tokens: null },
      description: '',
      capabilities: [],
    });
    expect((await harness.admin('GET', '/agents/helper')).body).toMatchObject({
      description: 'Answers questions.',
      capabilities: ['chat'],
      config: { temperature: 0.2, max_iterations: 4 },
    });
    expect(await harness.admin('GET', '/agents/nobody')).toMatchObject({
      status: 404,
      body: { error: { code: 'agent_not_found' } },
    });
  });

  let activeSessions = -1;
  it('lists sessions active within the configured window, most recent first', async () => {
    for (const id of ['ses-old', 'ses-a', 'ses-b']) {
      await harness.client.chat.completions.create(
        { model: 'helper', messages: [{ role: 'user', content: 'hi' }] },
        { headers: { 'x-session-id': id } },
      );
    }
    const longAgo = new Date(Date.now() - 11 * 60_000).toISOString();
    await harness.app.database.db
      .updateTable('sessions')
      .set({ last_active: longAgo })
      .where('session_id', '=', 'ses-old')
      .execute();

    const { status, body } = await harness.admin('GET', '/sessions');
    expect(status).toBe(200);
    // Chats without X-Session-Id in earlier tests started sessions of their own, not listed: nobody continued them.
    const owner = expect.stringMatching(/^operator:api_key:key_[0-9a-f]{16}$/);
    expect(body).toEqual([
      {
        session_id: 'ses-b',
        agent_name: 'helper',
        owner,
        message_count: 2,
        created_at: expect.any(String),
        last_active: expect.any(String),
      },
      {
        session_id: 'ses-a',
        agent_name: 'helper',
        owner,
        message_count: 2,
        created_at: expect.any(String),
        last_active: expect.any(String),
      },
    ]);
    activeSessions = body.length;
  });

  it('reports healthy with counts and uptime', async () => {
    const { status, body } = await harness.admin('GET', '/status');
    expect(status).toBe(200);
    expect(body).toEqual({
      status: 'healthy',
      reasons: [],
      agents: 2,
      active_runs: 0,
      active_sessions: activeSessions,
      uptime_seconds: expect.any(Number),
    });
    expect(Number.isInteger(body.uptime_seconds)).toBe(true);
  });
});

describe('admin status with an unreachable Redis', () => {
  let harness: AdminHarness;
  beforeAll(async () => {
    // Nothing listens on port 1: the bus keeps reconnecting.
    harness = await startAdminHarness({ yaml: `${adminYaml()}\nserver: { redis_url: "redis://127.0.0.1:1" }\n` });
  });
  afterAll(() => harness.stop());

  it('reports degraded, naming the bus, and still answers the other admin routes', async () => {
    const { status, body } = await harness.admin('GET', '/status');
    expect(status).toBe(200);
    expect(body).toMatchObject({
      status: 'degraded',
      reasons: ['run event bus (redis) unreachable'],
      agents: 2,
      active_runs: 0,
    });
    expect((await harness.admin('GET', '/agents')).status).toBe(200);
  });
});
