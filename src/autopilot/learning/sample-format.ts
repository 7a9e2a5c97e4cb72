import type { SampleFormat } from '../blueprints/blueprint.schema.js';

/** The system, user and assistant texts of one curated step. */
export interface SampleTurns {
  system: string;
  user: string;
  assistant: string;
}

/**
 * One JSONL line's object in the dataset's format: `openai` is the chat fine-tuning format of
 * OpenAI-compatible APIs; `alpaca` (instruction/input/output, plus system) and `sharegpt`
 * (conversations with from/value) are the formats local trainers (axolotl, Unsloth) read.
 */
export function mapTurnsToSample(format: SampleFormat, turns: SampleTurns): object {
  switch (format) {
    case 'openai':
      return {
        messages: [
          { role: 'system', content: turns.system },
          { role: 'user', content: turns.user },
          { role: 'assistant', content: turns.assistant },
        ],
      };
    case 'alpaca':
      return { instruction: turns.user, input: '', output: turns.assistant, system: turns.system };
    case 'sharegpt':
      return {
        conversations: [
          { from: 'system', value: turns.system },
          { from: 'human', value: turns.user },
          { from: 'gpt', value: turns.assistant },
        ],
      };
  }
}

/** Reads a line written by mapTurnsToSample back (held-out evaluation, chat-format uploads); undefined when it is not one. */
export function mapSampleToTurns(line: string): SampleTurns | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const value = parsed as Record<string, unknown>;
  if (Array.isArray(value.messages)) return pick(value.messages, 'role', 'content', ['system', 'user', 'assistant']);
  if (Array.isArray(value.conversations)) return pick(value.conversations, 'from', 'value', ['system', 'human', 'gpt']);
  if (typeof value.instruction === 'string')
    return {
      system: textOf(value.system),
      user: value.instruction + (value.input ? `\n${textOf(value.input)}` : ''),
      assistant: textOf(value.output),
    };
  return undefined;
}

/** A field's text: '' when absent, JSON for an object (never `[object Object]`). */
function textOf(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

const records = (items: unknown[]) =>
  items.filter((item): item is Record<string, unknown> => typeof item === 'object' && item !== null);

function pick(items: unknown[], roleKey: string, textKey: string, roles: [string, string, string]): SampleTurns {
  const text = (role: string) => textOf(records(items).find((item) => item[roleKey] === role)?.[textKey]);
  return { system: text(roles[0]), user: text(roles[1]), assistant: text(roles[2]) };
}
