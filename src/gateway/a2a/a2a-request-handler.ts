import {
  TaskState,
  type AgentCard,
  type CancelTaskRequest,
  type DeleteTaskPushNotificationConfigRequest,
  type GetTaskPushNotificationConfigRequest,
  type Message,
  type SendMessageRequest,
  type StreamResponse,
  type SubscribeToTaskRequest,
  type Task,
  type TaskPushNotificationConfig,
} from '@a2a-js/sdk';
import {
  RequestMalformedError,
  TaskNotCancelableError,
  TaskNotFoundError,
  UnsupportedOperationError,
} from '@a2a-js/sdk/errors';
import {
  DefaultRequestHandler,
  type PushNotificationSender,
  type PushNotificationStore,
  type ServerCallContext,
} from '@a2a-js/sdk/server';
import { isTerminalTaskState, type BufferedTaskStore } from './buffered-task-store.js';
import { extractMessageText } from './extract-message-text.js';
import { followRun, type FollowRunOptions } from './follow-run.js';
import { pendingInputOf } from './input-tools.js';
import type { RunExecutor } from './run-executor.js';

/**
 * The SDK's request handler with our two rules: a message starts a new task unless it answers a task
 * waiting for input, and cancelling a task whose run executes elsewhere cancels that run too.
 */
export class A2aRequestHandler extends DefaultRequestHandler {
  private readonly runExecutor: RunExecutor;
  private readonly taskRecords: BufferedTaskStore;
  private readonly follow?: FollowRunOptions;
  private readonly pushConfigs?: PushNotificationStore;

  constructor(
    card: AgentCard,
    tasks: BufferedTaskStore,
    executor: RunExecutor,
    options: {
      extendedCard?: (context: ServerCallContext) => Promise<AgentCard>;
      /** Follows a task whose run executes on another replica (resubscribe). */
      follow?: FollowRunOptions;
      /** Where push configs are kept, and the outbox their notifications go to. */
      push?: { store: PushNotificationStore; sender: PushNotificationSender };
    } = {},
  ) {
    // A task waiting for input has no executor: its bus closes, and the caller's answer opens a new one.
    super(
      card,
      tasks,
      executor,
      undefined,
      options.push?.store,
      options.push?.sender,
      options.extendedCard,
      undefined,
      {
        keepBusAliveStates: [],
      },
    );
    this.taskRecords = tasks;
    this.runExecutor = executor;
    this.follow = options.follow;
    this.pushConfigs = options.push?.store;
  }

  /**
   * Resubscribing to a task whose run executes elsewhere (another replica) reads the run's events from
   * the run event bus: the SDK alone would answer with the task's snapshot and end.
   */
  override async *resubscribe(
    params: SubscribeToTaskRequest,
    context: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    // Odd ids (not a string) are the SDK's to refuse.
    const followable = typeof params.id === 'string' && !this.runExecutor.isExecuting(params.id);
    const task = followable ? await this.taskRecords.load(params.id, context) : undefined;
    const runId: unknown = task?.metadata?.run_id;
    if (
      !this.follow ||
      !task ||
      typeof runId !== 'string' ||
      isTerminalTaskState(task.status?.state) ||
      task.status?.state === TaskState.TASK_STATE_INPUT_REQUIRED
    ) {
      yield* super.resubscribe(params, context);
      return;
    }
    yield { payload: { $case: 'task', value: task } };
    yield* followRun(task, runId, this.follow);
  }

  override async sendMessage(params: SendMessageRequest, context: ServerCallContext): Promise<Task | Message> {
    await this.assertAccepted(params, context);
    return super.sendMessage(params, context);
  }

  override async *sendMessageStream(
    params: SendMessageRequest,
    context: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    await this.assertAccepted(params, context);
    yield* super.sendMessageStream(params, context);
  }

  /** A message starts a new task, or answers a task waiting for input (input-required). */
  private async assertAccepted(params: SendMessageRequest, context: ServerCallContext): Promise<void> {
    const message = params.message;
    if (message && !extractMessageText(message))
      throw new RequestMalformedError('The message has no text, data or file-URL part for the agent to read');
    if (!message?.taskId) return;
    const task = await this.taskRecords.load(message.taskId, context);
    // An unknown task (or another principal's) is the SDK's TaskNotFound.
    if (!task || pendingInputOf(task) || isTerminalTaskState(task.status?.state)) return;
    throw new UnsupportedOperationError(
      `Task "${message.taskId}" is not waiting for input: only a task in input-required takes a follow-up message (leave taskId out to start a new task)`,
    );
  }

  /** v0.3 lets a caller leave the config id out (see resolvePushConfigId); the SDK looks for a config with id "". */
  override async getTaskPushNotificationConfig(
    params: GetTaskPushNotificationConfigRequest,
    context: ServerCallContext,
  ): Promise<TaskPushNotificationConfig> {
    if (params.id || !this.pushConfigs) return super.getTaskPushNotificationConfig(params, context);
    const id = await this.resolvePushConfigId(params.taskId, context);
    if (id === undefined) throw new TaskNotFoundError(`Push notification config not found for task ${params.taskId}.`);
    return super.getTaskPushNotificationConfig({ ...params, id }, context);
  }

  override async deleteTaskPushNotificationConfig(
    params: DeleteTaskPushNotificationConfigRequest,
    context: ServerCallContext,
  ): Promise<void> {
    // Without a config to delete the SDK's answer stands: success, nothing changes.
    const id = params.id || (this.pushConfigs && (await this.resolvePushConfigId(params.taskId, context)));
    return super.deleteTaskPushNotificationConfig({ ...params, id: id || params.taskId }, context);
  }

  /**
   * The config a request without a config id means, as v0.3 defines the default: the one named after the task
   * (the id a config set without one gets), else the task's only config. Several, none named after the task:
   * the caller must say which.
   */
  private async resolvePushConfigId(taskId: string, context: ServerCallContext): Promise<string | undefined> {
    if (typeof taskId !== 'string' || !taskId) return undefined;
    const configs = await this.pushConfigs!.load(taskId, context);
    const chosen = configs.find((config) => config.id === taskId) ?? (configs.length === 1 ? configs[0] : undefined);
    if (chosen || configs.length === 0) return chosen?.id;
    throw new RequestMalformedError(
      `Task "${taskId}" has ${configs.length} push notification configs: name one with pushNotificationConfigId (v0.3) or id`,
    );
  }

  override async cancelTask(params: CancelTaskRequest, context: ServerCallContext): Promise<Task> {
    const task = await this.taskRecords.load(params.id, context);
    // A task cancelled already is as terminal as any other (A2A: TaskNotCancelableError); the SDK returns it again.
    if (task?.status?.state === TaskState.TASK_STATE_CANCELED)
      throw new TaskNotCancelableError(`Task "${task.id}" is already canceled`);
    const runId: unknown = task?.metadata?.run_id;
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
