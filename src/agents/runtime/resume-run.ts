import type { LiveRun } from '../control/run-handle.js';
import type { ClaimedRun } from '../records/run.types.js';
import { createRunWrites } from '../records/run-writes.js';
import { openRun, type RuntimeDeps } from './open-run.js';
import { executeRun } from './run-execution.js';
import { findEarlierEvents, textOfEvents } from './earlier-events.js';
import { findResumePoint, INTERRUPTED_TOOL_MESSAGE } from './resume-point.js';

/**
 * A takeover without its earlier events (the in-process bus lost them with their process, or Redis lost
 * them) numbers attempt n's events from (n - 1) × this, above any seq an earlier attempt can have reached,
 * so numbering never goes back. With them, numbering goes on after their last.
 */
export const RESUMED_SEQ_BLOCK = 1_000_000;

/**
 * Continues a run this process claimed from a dead one: rebuilds the conversation at its last stored
 * step, tells the model which non-idempotent tool calls were cut short, and runs the loop to its end on
 * the same event stream. The run is admitted to its budgets again on this process: the dead owner's
 * reservation is freed (what its finished calls were charged stays spent) and a new one is made. Throws for
 * an agent this process does not know.
 */
export async function resumeRun(deps: RuntimeDeps, claimed: ClaimedRun): Promise<LiveRun> {
  const { run: record, input } = claimed;
  const runId = record.run_id;
  const agent = deps.agents.get(record.agent_name);
  const steps = await deps.runStore.listSteps(runId);
  const clientTools = input.client_tools;
  const earlier = findEarlierEvents(await deps.bus.history(runId).catch(() => []));
  const toolResults = steps.flatMap((step) =>
    step.kind === 'tool' && 'result' in step.prompt_log && step.prompt_log.result !== undefined
      ? [step.prompt_log.result]
      : [],
  );
  const clientResults = input.messages.flatMap((message) => (message.role === 'tool' ? [message.content] : []));
  const writes = createRunWrites(deps.runStore, runId, { stored: true, attempt: record.attempts });
  const settings = {
    source: record.source,
    sessionId: record.session_id,
    temperature: input.temperature,
    maxTokens: input.max_tokens ?? undefined,
    clientTools,
    context: input.context,
    sources: [...input.context, ...clientResults, ...toolResults],
  };
  const clientToolNames = new Set(clientTools.map((tool) => tool.name));
  const point = findResumePoint(agent, input, steps, {
    isIdempotent: (name) => deps.tools.isIdempotent(name),
    clientToolNames,
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
  const run = openRun(deps, { runId, agent, settings, writes, resumed });
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
    const step = run.setup.recorder.begin('tool', call.name);
    const error = { code: 'interrupted', message: INTERRUPTED_TOOL_MESSAGE };
    run.setup.recorder.end(step, {
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
  const budgets = deps.budgets;
  const result = executeRun({
    runId,
    setup: run.setup,
    controller: run.controller,
    events: run.events,
    writes,
    bus: deps.bus,
    start: { loop: point.loop, conversation: input.messages },
    admit:
      budgets &&
      (async (messages) => {
        await deps.runStore.releaseBudget(runId);
        return budgets.admit({
          runId,
          agent,
          messages,
          tools: run.setup.toolDefinitions,
          maxTokens: input.max_tokens ?? undefined,
          tokenId: record.token_id ?? undefined,
        });
      }),
    session:
      record.session_id && input.session_pending
        ? { id: record.session_id, pending: input.session_pending, service: deps.sessions }
        : undefined,
    log: run.log,
  });
  return run.toLive(result);
}
