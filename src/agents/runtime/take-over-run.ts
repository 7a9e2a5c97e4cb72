import type { ClaimedRun } from '../records/run.types.js';
import { createRunWrites } from '../records/run-writes.js';
import { findEarlierEvents, findResumePoint, INTERRUPTED_TOOL_MESSAGE, textOfEvents } from './resume-point.js';
import { conversationStart, Run, type RuntimeDeps } from './run.js';

/**
 * A takeover without its earlier events (the in-process bus lost them with their process, or Redis lost
 * them) numbers attempt n's events from (n - 1) × this, above any seq an earlier attempt can have reached,
 * so numbering never goes back. With them, numbering goes on after their last.
 */
export const RESUMED_SEQ_BLOCK = 1_000_000;

/**
 * Continues a run this process claimed from a dead one, from its checkpoint: rebuilds the conversation at its
 * last stored step, tells the model which non-idempotent tool calls were cut short, and runs the loop to its
 * end on the same event stream. The run is admitted to its budgets again on this process (run.ts). Throws
 * for an agent this process does not know.
 */
export async function takeOverRun(deps: RuntimeDeps, claimed: ClaimedRun): Promise<Run> {
  const { run: record } = claimed;
  const id = record.run_id;
  const agent = deps.agents.get(record.agent_name);
  // The conversation starts with the session's first stored messages, which the resume input refers to.
  const count = claimed.input.session_history ?? 0;
  const history =
    record.session_id && count > 0
      ? { sessionId: record.session_id, messages: await deps.sessions.messages(record.session_id, count) }
      : undefined;
  const input = history
    ? { ...claimed.input, messages: [...history.messages, ...claimed.input.messages] }
    : claimed.input;
  const steps = await deps.runStore.listSteps(id);
  const earlier = findEarlierEvents(await deps.bus.history(id).catch(() => []));
  const settings = {
    source: record.source,
    sessionId: record.session_id,
    temperature: input.temperature,
    maxTokens: input.max_tokens ?? undefined,
    callOptions: input.call_options,
    clientTools: input.client_tools,
    toolChoice: input.tool_choice ?? undefined,
    parallelToolCalls: input.parallel_tool_calls ?? undefined,
    context: input.context,
    tokenId: record.token_id ?? undefined,
    endUser: record.end_user,
  };
  const point = findResumePoint(steps, {
    isIdempotent: (name) => deps.tools.isIdempotent(name),
    clientToolNames: new Set(input.client_tools.map((tool) => tool.name)),
  });
  // The model step the dead owner was streaming (started, not stored) is made again.
  const inFlight = earlier?.findLast((event) => event.type === 'step-start');
  const restarting =
    inFlight?.type === 'step-start' && inFlight.kind === 'model' && inFlight.stepIndex >= steps.length
      ? inFlight.stepIndex
      : undefined;
  // Text the dead owner held back (it was paused) or never got onto the bus: the stored steps have it, and it
  // goes out now. Without earlier events the log starts again, with all the text said so far.
  const told = textOfEvents(earlier ?? [], restarting);
  const untold = point.output.startsWith(told) ? point.output.slice(told.length) : '';
  const resumed = {
    steps,
    output: point.output.slice(0, point.output.length - untold.length),
    earlier,
    afterSeq: earlier ? undefined : (record.attempts - 1) * RESUMED_SEQ_BLOCK,
  };
  const writes = createRunWrites(deps.runStore, id, { stored: true, attempt: record.attempts });
  const run = new Run(deps, { id, agent, settings, writes, resumed, history });
  if (claimed.paused) run.controller.pause();
  if (!earlier)
    run.events.emit({
      type: 'run-start',
      agentName: agent.name,
      model: agent.model,
      source: record.source,
      sessionId: record.session_id,
    });
  if (restarting !== undefined)
    run.events.emit({ type: 'step-restarted', stepIndex: restarting, attempt: record.attempts });
  if (untold) run.events.emit({ type: 'text-delta', delta: untold });
  for (const call of point.interrupted) {
    const step = run.recorder.begin('tool', call.name);
    const error = { code: 'interrupted', message: INTERRUPTED_TOOL_MESSAGE };
    run.recorder.end(step, {
      status: 'failed',
      promptLog: { tool_call_id: call.id, arguments: call.arguments, error },
    });
    run.events.emit({
      type: 'tool-result',
      toolCallId: call.id,
      name: call.name,
      result: `Error: ${INTERRUPTED_TOOL_MESSAGE}`,
      isError: true,
    });
  }
  void run.execute({
    loop: point.loop ?? conversationStart(agent, input.messages, input.instructions),
    conversation: input.messages,
    session:
      record.session_id && input.session_pending
        ? { id: record.session_id, pending: input.session_pending }
        : undefined,
  });
  return run;
}
