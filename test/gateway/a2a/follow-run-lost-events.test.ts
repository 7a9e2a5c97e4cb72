import { TaskState, type Task } from '@a2a-js/sdk';
import { describe, expect, it } from 'vitest';
import { eventsLostError } from '../../../src/agents/control/guard-run-events.js';
import type { RunEvent } from '../../../src/bus/index.js';
import { followRun } from '../../../src/gateway/a2a/follow-run.js';

const RUN_ID = 'run_followed';
const task = { id: 'task_1', contextId: 'ctx_1' } as Task;

/** The run's events as attach gives them when the bus lost some and the store cannot fill the gap. */
async function* lostAfterFirstPiece(): AsyncGenerator<RunEvent> {
  const at = '2026-01-01T00:00:00Z';
  yield {
    type: 'run-start',
    agentName: 'helper',
    model: 'm',
    source: 'a2a',
    sessionId: null,
    runId: RUN_ID,
    seq: 1,
    at,
  };
  yield { type: 'text-delta', delta: 'Part of ', runId: RUN_ID, seq: 2, at };
  throw eventsLostError(RUN_ID);
}

describe('an A2A task followed on another replica', () => {
  it('fails, naming where the whole answer is, when the run events lost part of it', async () => {
    const runs = { attach: async () => lostAfterFirstPiece(), find: async () => undefined };
    const updates = [];
    for await (const update of followRun(task, RUN_ID, { runs, inputToolNames: new Set() })) updates.push(update);
    const last = updates.at(-1)?.payload;
    expect(last?.$case).toBe('statusUpdate');
    const status = last?.$case === 'statusUpdate' ? last.value.status : undefined;
    expect(status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(JSON.stringify(status?.message)).toContain(`GET /api/v1/admin/runs/${RUN_ID}`);
  });
});
