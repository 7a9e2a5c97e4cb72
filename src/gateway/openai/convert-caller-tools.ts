import type { ToolChoice, ToolDefinition } from '../../agents/index.js';

/** A function tool as OpenAI's APIs describe it (Chat Completions nests it under `function`, Responses does not). */
export interface FunctionToolInput {
  name: string;
  description?: string | null;
  parameters?: Record<string, unknown> | null;
  strict?: boolean | null;
}

/** The caller's function tool → a tool the model may call and the caller answers (a run ends on its call). */
export function convertFunctionTool(tool: FunctionToolInput): ToolDefinition {
  // No schema (or `{}`): a function without arguments, as OpenAI reads it.
  const parameters = { type: 'object', properties: {}, ...tool.parameters } as ToolDefinition['parameters'];
  return {
    name: tool.name,
    description: tool.description ?? '',
    parameters,
    ...(tool.strict != null && { strict: tool.strict }),
  };
}

export type ToolChoiceInput =
  'none' | 'auto' | 'required' | { type: 'function'; function?: { name: string }; name?: string };

/** OpenAI's `tool_choice` (Chat Completions' `{type, function: {name}}` or Responses' `{type, name}`) → the runtime's. */
export function convertToolChoice(choice: ToolChoiceInput | null | undefined): ToolChoice | undefined {
  if (choice == null || typeof choice === 'string') return choice ?? undefined;
  return { name: choice.function?.name ?? choice.name ?? '' };
}
