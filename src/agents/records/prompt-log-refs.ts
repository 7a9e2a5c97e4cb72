import type { ChatMessage } from '../../llm/index.js';
import type { PromptLog, StepRecord } from './run.types.js';

/**
 * Where a stored model step's messages come from besides its own (the stored JSON only; reads see them whole):
 * the first `count` messages of an earlier model step of the run, or the session's first `count` stored
 * messages, placed at `at`. So a turn's prompt logs hold what is new, not the session's history again
 * (docs/decisions/0075-session-history-stored-once.md).
 */
export type MessagesFrom = { step_index: number; count: number } | { session_id: string; count: number; at: number };

/** The session history a run's conversation starts with: the same objects as in its first model call. */
export interface SessionHistory {
  sessionId: string;
  messages: readonly ChatMessage[];
}

type StoredLog = PromptLog & { messages_from?: MessagesFrom };

/**
 * Returns what to store of each step's prompt log, in the order the steps end: a model step's messages less
 * the previous model step's (when they start with them, as the loop's do) or less the session history.
 * `stored`: a run taken over, its earlier steps as read back (whole).
 */
export function createPromptLogCompactor(
  history: SessionHistory | undefined,
  stored: readonly StepRecord[] = [],
): (stepIndex: number, log: PromptLog) => StoredLog {
  const lastStored = stored.filter((step) => 'messages' in step.prompt_log).at(-1);
  let last =
    lastStored && 'messages' in lastStored.prompt_log
      ? { stepIndex: lastStored.step_index, messages: lastStored.prompt_log.messages }
      : undefined;
  return (stepIndex, log) => {
    if (!('messages' in log)) return log;
    const { messages } = log;
    const previous = last;
    last = { stepIndex, messages };
    if (previous && previous.messages.length > 0 && startsWith(messages, previous.messages, 0))
      return {
        ...log,
        messages: messages.slice(previous.messages.length),
        messages_from: { step_index: previous.stepIndex, count: previous.messages.length },
      };
    const count = history?.messages.length ?? 0;
    if (!history || count === 0) return log;
    const at = messages.indexOf(history.messages[0]);
    if (at < 0 || !startsWith(messages, history.messages, at)) return log;
    return {
      ...log,
      messages: [...messages.slice(0, at), ...messages.slice(at + count)],
      messages_from: { session_id: history.sessionId, count, at },
    };
  };
}

/** The same objects at `from` (the loop appends to its messages; it never copies one). */
function startsWith(messages: readonly ChatMessage[], prefix: readonly ChatMessage[], from: number): boolean {
  if (from + prefix.length > messages.length) return false;
  for (let index = 0; index < prefix.length; index += 1) if (messages[from + index] !== prefix[index]) return false;
  return true;
}

/**
 * A run's steps as read back, each prompt log whole again: references to earlier steps and to the session's
 * history are replaced by the messages they name. `loadHistory` reads a session's first `count` messages.
 */
export async function expandPromptLogs(
  steps: StepRecord[],
  loadHistory: (sessionId: string, count: number) => Promise<ChatMessage[]>,
): Promise<StepRecord[]> {
  const refs = steps.flatMap((step) => {
    const from = (step.prompt_log as StoredLog).messages_from;
    return from && 'session_id' in from ? [from] : [];
  });
  const histories = new Map<string, ChatMessage[]>();
  for (const ref of refs) {
    const longest = Math.max(
      ...refs.filter((other) => other.session_id === ref.session_id).map((other) => other.count),
    );
    if (!histories.has(ref.session_id)) histories.set(ref.session_id, await loadHistory(ref.session_id, longest));
  }
  const byIndex = new Map<number, ChatMessage[]>();
  return steps.map((step) => {
    const { messages_from: from, ...log } = step.prompt_log as StoredLog;
    if (!('messages' in log)) return step;
    let messages = log.messages;
    if (from && 'step_index' in from) {
      messages = [...(byIndex.get(from.step_index) ?? []).slice(0, from.count), ...messages];
    } else if (from) {
      const history = (histories.get(from.session_id) ?? []).slice(0, from.count);
      messages = [...messages.slice(0, from.at), ...history, ...messages.slice(from.at)];
    }
    byIndex.set(step.step_index, messages);
    return from ? { ...step, prompt_log: { ...log, messages } } : step;
  });
}
