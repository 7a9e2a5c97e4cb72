import { TaskState, type Task, type TaskStatus } from '@a2a-js/sdk';
import type { RegisteredAgent, ToolDefinition } from '../../agents/index.js';
import { createAgentMessage } from './a2a-messages.js';
import type { TaskIds } from './task-end.js';

/** The call of a requires_input tool a task waits on; its id and name are kept in the status message's metadata. */
export interface PendingInput {
  toolCallId: string;
  toolName: string;
  question: string;
}

/** The agent's requires_input tools, as client tools the run offers (the run ends when the model calls one). */
export function mapInputTools(agent: RegisteredAgent): ToolDefinition[] {
  return (agent.requires_input ?? []).map((tool) => ({
    name: tool.name,
    description: tool.description,
    awaitsCaller: true,
    parameters: {
      type: 'object',
      properties: { question: { type: 'string', description: 'What to ask the caller' } },
      required: ['question'],
    },
  }));
}

/** The question of a requires_input call: its `question` argument, else the arguments as the model wrote them. */
export function readQuestion(argumentsJson: string): string {
  try {
    const parsed = JSON.parse(argumentsJson) as { question?: unknown };
    if (typeof parsed.question === 'string' && parsed.question.trim()) return parsed.question;
  } catch {
    // Not JSON: the text itself is the question.
  }
  return argumentsJson;
}

export function createInputRequiredStatus(ids: TaskIds, pending: PendingInput): TaskStatus {
  const message = createAgentMessage(pending.question, ids);
  message.metadata = { input_tool_call_id: pending.toolCallId, input_tool_name: pending.toolName };
  return { state: TaskState.TASK_STATE_INPUT_REQUIRED, message, timestamp: new Date().toISOString() };
}

/** The requires_input call a task in input-required waits on, or undefined. */
export function pendingInputOf(task: Task | undefined): Omit<PendingInput, 'question'> | undefined {
  if (task?.status?.state !== TaskState.TASK_STATE_INPUT_REQUIRED) return undefined;
  const metadata: Record<string, unknown> | undefined = task.status.message?.metadata;
  const toolCallId = metadata?.input_tool_call_id;
  const toolName = metadata?.input_tool_name;
  return typeof toolCallId === 'string' && typeof toolName === 'string' ? { toolCallId, toolName } : undefined;
}
