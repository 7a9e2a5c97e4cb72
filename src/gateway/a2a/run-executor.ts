import { TaskState, type Task } from '@a2a-js/sdk';
import {
  AgentEvent,
  type AgentExecutor,
  type ExecutionEventBus,
  type RequestContext,
  type ServerCallContext,
} from '@a2a-js/sdk/server';
import type { ChatMessage, RunHandle, RunService, ToolDefinition } from '../../agents/index.js';
import { isAppError } from '../../errors.js';
import { isoNow } from '../../ids.js';
import type { BufferedTaskStore } from './buffered-task-store.js';
import { ownerOfContext, tokenIdOf, traceOf } from './call-context.js';
import { contextSessionId } from './context-session-id.js';
import { extractMessageText } from './extract-message-text.js';
import { createInputRequiredStatus, pendingInputOf, readQuestion, type PendingInput } from './input-tools.js';
import { createRunEventMapper } from './map-run-events.js';
import { applyTaskEnd, type TaskEnd, type TaskIds } from './task-end.js';
import type { PushRecorder } from './push/push-sender.js';
import { createAgentMessage } from './a2a-messages.js';

/** The result a question's tool call gets when the caller started a new task instead of answering it. */
const UNANSWERED = 'The caller did not answer this question; they sent a new message instead.';

/** The SDK's executor for one agent, plus what the request handler asks of it for cancellation. */
export interface RunExecutor extends AgentExecutor {
  /** True while this process runs the task. */
  isExecuting(taskId: string): boolean;
  /** Cancels a run wherever it executes; a run that already ended is left alone. */
  cancelRun(runId: string): Promise<void>;
  /** Resolves once every task this executor started has finished (their runs end or are cancelled by the drain). */
  idle(): Promise<void>;
}

export interface RunExecutorOptions {
  agentName: string;
  runs: RunService;
  tasks: BufferedTaskStore;
  /** The agent's requires_input tools: calling one puts the task in input-required. */
  inputTools?: ToolDefinition[];
  /** Stores a status change in the push outbox (awaited before the change is published). */
  push?: PushRecorder;
}

/**
 * An A2A task is one run of the agent (source `a2a`): the task is published with the run id in its
 * metadata, then the run's events are mapped to task updates until the run ends.
 */
export function createRunExecutor({
  agentName,
  runs,
  tasks,
  inputTools = [],
  push = () => Promise.resolve(),
}: RunExecutorOptions): RunExecutor {
  const inputToolNames = new Set(inputTools.map((tool) => tool.name));
  const executing = new Map<string, RunHandle>();
  const inFlight = new Set<Promise<void>>();

  async function cancelRun(runId: string): Promise<void> {
    try {
      await runs.control(runId, 'cancel');
    } catch (error) {
      // 409: the run ended meanwhile, and its end is what the task reports.
      if (!(isAppError(error) && error.status === 409)) throw error;
    }
  }

  return {
    isExecuting: (taskId) => executing.has(taskId),
    cancelRun,
    async idle() {
      await Promise.allSettled([...inFlight]);
    },

    execute(request: RequestContext, bus: ExecutionEventBus) {
      const execution = execute(request, bus);
      inFlight.add(execution);
      void execution.catch(() => undefined).finally(() => inFlight.delete(execution));
      return execution;
    },

    // The run ends cancelled and execute() publishes that; the SDK waits for it.
    async cancelTask(taskId) {
      const run = executing.get(taskId);
      if (run) await cancelRun(run.runId);
    },
  };

  /**
   * A new task in a context whose earlier task still waits for input: the question stays unanswered, so
   * its tool call gets a result saying so (an upstream refuses a tool call without one) and that task is
   * cancelled (an answer to it now would come after the conversation moved on).
   */
  async function closeUnansweredQuestions(ids: TaskIds, context: ServerCallContext): Promise<ChatMessage[]> {
    const owner = ownerOfContext(context);
    const results: ChatMessage[] = [];
    for (const waiting of await tasks.waitingIn(ids.contextId, owner)) {
      const pending = pendingInputOf(waiting);
      if (!pending || waiting.id === ids.taskId) continue;
      results.push({
        role: 'tool',
        tool_call_id: pending.toolCallId,
        name: pending.toolName,
        content: UNANSWERED,
      });
      const status = {
        state: TaskState.TASK_STATE_CANCELED,
        message: createAgentMessage(`Not answered: task ${ids.taskId} continued the context instead`, {
          taskId: waiting.id,
          contextId: waiting.contextId,
        }),
        timestamp: isoNow(),
      };
      await tasks.save({ ...waiting, status }, context);
    }
    return results;
  }

  async function execute(request: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const ids = { taskId: request.taskId, contextId: request.contextId };
    let end: TaskEnd | undefined;
    const owner = ownerOfContext(request.context);
    tasks.track(ids.taskId);
    try {
      const text = extractMessageText(request.userMessage);
      // A task waiting for input takes the caller's message as the answer to the tool call it waits on.
      const waitedOn = pendingInputOf(request.task);
      const messages: ChatMessage[] = waitedOn
        ? [{ role: 'tool', tool_call_id: waitedOn.toolCallId, name: waitedOn.toolName, content: text }]
        : [...(await closeUnansweredQuestions(ids, request.context)), { role: 'user', content: text }];
      // One context is one conversation: its earlier turns are stored as a session of the caller's. It counts as
      // active once a second task runs in it: the SDK makes up a context id for a message that has none.
      const run = await runs.start({
        agentName,
        messages,
        source: 'a2a',
        sessionId: contextSessionId(agentName, owner, ids.contextId),
        sessionNamed: false,
        owner,
        tokenId: tokenIdOf(request.context),
        parentSpan: traceOf(request.context),
        clientTools: inputTools.length > 0 ? inputTools : undefined,
      });
      executing.set(ids.taskId, run);
      const started: Task = {
        id: ids.taskId,
        contextId: ids.contextId,
        status: { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: isoNow() },
        artifacts: [],
        // A resumed task keeps its history (the SDK added the caller's answer to it).
        history: request.task ? request.task.history : [request.userMessage],
        metadata: { run_id: run.runId },
      };
      await push(started);
      bus.publish(AgentEvent.task(started));
      const mapper = createRunEventMapper(ids);
      let asked: PendingInput | undefined;
      try {
        for await (const event of run) {
          if (event.type === 'tool-call' && inputToolNames.has(event.name))
            asked = { toolCallId: event.toolCallId, toolName: event.name, question: readQuestion(event.arguments) };
          for (const update of mapper.map(event)) bus.publish(update);
        }
      } catch (error) {
        // This process left and handed the run on: the task stays working, read from the run's end later.
        if (isAppError(error) && error.code === 'run_handed_over') return;
        throw error;
      }
      const result = await run.result;
      if (result.status === 'completed' && result.finishReason === 'tool_calls' && asked) {
        end = { status: createInputRequiredStatus(ids, asked) };
        await push(applyTaskEnd(started, end));
        bus.publish(
          AgentEvent.statusUpdate({
            taskId: ids.taskId,
            contextId: ids.contextId,
            status: end.status,
            metadata: undefined,
          }),
        );
      } else {
        const finish = mapper.finish(result);
        end = finish.end;
        await push(applyTaskEnd(started, end));
        for (const update of finish.events) bus.publish(update);
      }
    } finally {
      executing.delete(ids.taskId);
      await tasks.release(ids.taskId, end);
    }
  }
}
