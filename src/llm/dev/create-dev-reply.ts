import type { LanguageModelV3Prompt, LanguageModelV3ToolResultOutput } from '@ai-sdk/provider';

/** What the offline development model answers; see docs/dev-model.md for the mini-syntax. */
export type DevReply =
  { kind: 'text'; text: string } | { kind: 'tool-calls'; calls: { id: string; name: string; input: string }[] };

const TOOL_COMMAND = /(?:^|\s)\/tool\s+(\S+)[ \t]*(.*)$/;

function describeOutput(output: LanguageModelV3ToolResultOutput): string {
  switch (output.type) {
    case 'text':
    case 'error-text':
      return output.value;
    case 'json':
    case 'error-json':
      return JSON.stringify(output.value);
    default:
      return JSON.stringify(output);
  }
}

function lastUserText(prompt: LanguageModelV3Prompt): string {
  for (let index = prompt.length - 1; index >= 0; index -= 1) {
    const message = prompt[index];
    if (message.role === 'user') return message.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
  }
  return '';
}

/** Counts earlier tool calls so ids stay unique and deterministic across a conversation. */
function priorToolCalls(prompt: LanguageModelV3Prompt): number {
  return prompt.reduce(
    (sum, message) =>
      sum + (message.role === 'assistant' ? message.content.filter((part) => part.type === 'tool-call').length : 0),
    0,
  );
}

function parseArguments(name: string, text: string): { input: string } | { error: string } {
  if (!text) return { input: '{}' };
  try {
    const value: unknown = JSON.parse(text);
    if (value === null || typeof value !== 'object' || Array.isArray(value))
      return { error: `arguments for ${name} must be a JSON object` };
    return { input: JSON.stringify(value) };
  } catch (error) {
    return { error: `arguments for ${name} are not valid JSON (${(error as Error).message})` };
  }
}

export function createDevReply(prompt: LanguageModelV3Prompt, toolNames: string[]): DevReply {
  const last = prompt.at(-1);
  if (last?.role === 'tool') {
    const results = last.content.flatMap((part) =>
      part.type === 'tool-result' ? [`Tool ${part.toolName} returned: ${describeOutput(part.output)}`] : [],
    );
    return { kind: 'text', text: results.join('\n') };
  }
  const userText = lastUserText(prompt);
  const commands = userText.split('\n').flatMap((line) => {
    const match = TOOL_COMMAND.exec(line);
    return match ? [{ name: match[1], args: match[2].trim() }] : [];
  });
  if (commands.length === 0) return { kind: 'text', text: `You said: ${userText}` };
  const firstId = priorToolCalls(prompt) + 1;
  const calls: { id: string; name: string; input: string }[] = [];
  for (const [index, command] of commands.entries()) {
    if (!toolNames.includes(command.name)) {
      return {
        kind: 'text',
        text: `Tool ${command.name} is not available. Available tools: ${toolNames.join(', ') || 'none'}.`,
      };
    }
    const parsed = parseArguments(command.name, command.args);
    if ('error' in parsed)
      return { kind: 'text', text: `Cannot call a tool: ${parsed.error}. Write /tool <name> {"key": "value"}.` };
    calls.push({ id: `call_dev_${firstId + index}`, name: command.name, input: parsed.input });
  }
  return { kind: 'tool-calls', calls };
}
