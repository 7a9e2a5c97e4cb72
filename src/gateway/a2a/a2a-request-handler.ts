import type { AgentCard, CancelTaskRequest, Message, SendMessageRequest, StreamResponse, Task } from '@a2a-js/sdk';
import { RequestMalformedError, UnsupportedOperationError } from '@a2a-js/sdk/errors';
import { DefaultRequestHandler, type ServerCallContext } from '@a2a-js/sdk/server';
import { isTerminalTaskState, type BufferedTaskStore } from './buffered-task-store.js';
import { extractMessageText } from './extract-message-text.js';
import type { RunExecutor } from './run-executor.js';

/**
 * The SDK's request handler with our two rules: every message starts a new task (a run cannot take a
 * second turn), and cancelling a task whose run executes elsewhere cancels that run too.
 */
export class A2aRequestHandler extends DefaultRequestHandler {
  private readonly runExecutor: RunExecutor;
  private readonly taskRecords: BufferedTaskStore;

  constructor(
    card: AgentCard,
    tasks: BufferedTaskStore,
    executor: RunExecutor,
    options: { extendedCard?: (context: ServerCallContext) => Promise<AgentCard> } = {},
  ) {
    super(card, tasks, executor, undefined, undefined, undefined, options.extendedCard);
    this.taskRecords = tasks;
    this.runExecutor = executor;
  }

  override sendMessage(params: SendMessageRequest, context: ServerCallContext): Promise<Task | Message> {
    assertStartsTask(params);
    return super.sendMessage(params, context);
  }

  override async *sendMessageStream(
    params: SendMessageRequest,
    context: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    assertStartsTask(params);
    yield* super.sendMessageStream(params, context);
  }

  override async cancelTask(params: CancelTaskRequest, context: ServerCallContext): Promise<Task> {
    const task = await this.taskRecords.load(params.id, context);
    const runId = task?.metadata?.run_id;
    // Without a local executor the SDK only marks the task cancelled: the run must be stopped by us.
    if (
      task &&
      typeof runId === 'string' &&
      !isTerminalTaskState(task.status?.state) &&
      !this.runExecutor.isExecuting(task.id)
    ) {
      await this.runExecutor.cancelRun(runId);
    }
    return super.cancelTask(params, context);
  }
}

function assertStartsTask(params: SendMessageRequest): void {
  const message = params.message;
  if (message?.taskId) {
    throw new UnsupportedOperationError(
      `Each message starts a new task here; follow-up messages to task "${message.taskId}" are not supported (leave taskId out)`,
    );
  }
  if (message && !extractMessageText(message))
    throw new RequestMalformedError('The message has no text, data or file-URL part for the agent to read');
}
