import { expect, it } from 'vitest';
import type { ModelPromptLog } from '../../../src/agents/index.js';
import { describeEachDialect } from '../../support/databases.js';
import { startTestApp } from '../../support/app.js';
import { gatewayYaml, startGateway } from './openai-harness.js';

await describeEachDialect('run records', (dialect) => {
  it('keeps every completion with its steps and prompt logs across a restart', async () => {
    const db = await dialect.create();
    const gateway = await startGateway({ databaseUrl: db.databaseUrl, dataDir: db.dataDir });
    let restarted: Awaited<ReturnType<typeof startTestApp>> | undefined;
    try {
      gateway.upstream.enqueue(
        {
          kind: 'tool_calls',
          calls: [{ name: 'get_current_time', arguments: { timezone: 'UTC' }, id: 'call_utc' }],
          usage: { prompt_tokens: 20, completion_tokens: 5 },
        },
        { kind: 'text', text: 'It is late.', usage: { prompt_tokens: 40, completion_tokens: 4 } },
      );
      const tool = await gateway.client.chat.completions
        .create({ model: 'timekeeper', messages: [{ role: 'user', content: 'time?' }] })
        .withResponse();
      const stream = await gateway.client.chat.completions
        .create({ model: 'helper', messages: [{ role: 'user', content: 'streamed' }], stream: true })
        .withResponse();
      for await (const chunk of stream.data) void chunk;
      const ids = [tool.response.headers.get('x-run-id')!, stream.response.headers.get('x-run-id')!];
      await gateway.app.stop({ keepData: true });

      restarted = await startTestApp(gatewayYaml(), {
        env: { UPSTREAM_URL: gateway.upstream.url },
        databaseUrl: db.databaseUrl,
        dataDir: db.dataDir,
        listen: false,
      });
      const first = await restarted.runs.find(ids[0]);
      expect(first?.run).toMatchObject({
        agent_name: 'timekeeper',
        status: 'completed',
        source: 'chat',
        steps: 3,
        input_tokens: 60,
        output_tokens: 9,
        total_tokens: 69,
        cost_usd: 0,
        output: 'It is late.',
        model: 'upstream/test-model',
      });
      expect(first!.run.finished_at! >= first!.run.started_at).toBe(true);
      expect(first?.steps.map((step) => step.kind)).toEqual(['model', 'tool', 'model']);
      const firstLog = first?.steps[0].prompt_log as ModelPromptLog;
      expect(firstLog.messages).toEqual([
        { role: 'system', content: 'You tell the time.' },
        { role: 'user', content: 'time?' },
      ]);
      expect(firstLog.tool_calls).toEqual([
        { id: 'call_utc', name: 'get_current_time', arguments: '{"timezone":"UTC"}' },
      ]);
      expect(firstLog).toMatchObject({
        finish_reason: 'tool_calls',
        input_tokens: 20,
        output_tokens: 5,
        tools: ['get_current_time'],
      });
      expect(first?.steps[1].prompt_log).toMatchObject({
        tool_call_id: 'call_utc',
        arguments: '{"timezone":"UTC"}',
        result: expect.stringContaining('UTC'),
      });
      const lastLog = first?.steps[2].prompt_log as ModelPromptLog;
      expect(lastLog.messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'tool']);
      expect(lastLog.response).toBe('It is late.');

      const second = await restarted.runs.find(ids[1]);
      expect(second?.run).toMatchObject({
        agent_name: 'helper',
        status: 'completed',
        steps: 1,
        output: 'echo: streamed',
      });
      expect((second?.steps[0].prompt_log as ModelPromptLog).ttft_ms).toBeTypeOf('number');
    } finally {
      await restarted?.stop({ keepData: true });
      await gateway.upstream.close();
      await db.drop();
    }
  });
});
