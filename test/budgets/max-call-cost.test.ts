import { describe, expect, it, vi } from 'vitest';
import { createMaxCallCost, UNCAPPED_CALL_OUTPUT_TOKENS } from '../../src/agents/budgets/max-call-cost.js';
import type { RunPricing } from '../../src/agents/records/run-recorder.js';
import { countPromptTokens, createPricing, type ChatMessage, type ToolDefinition } from '../../src/llm/index.js';

// $1 per million input tokens, $10 per million output tokens.
const pricing = createPricing({
  overrides: {
    'p/priced': { input_per_mtok: 1, output_per_mtok: 10 },
    'p/free-input': { input_per_mtok: 0, output_per_mtok: 10 },
  },
  providerTypes: { p: 'openai-compatible' },
});
const runPricing: RunPricing = pricing;
const tools: ToolDefinition[] = [
  {
    name: 'lookup',
    description: 'Finds a thing',
    parameters: { type: 'object', properties: { q: { type: 'string' } } },
  },
];
const conversation: ChatMessage[] = [
  { role: 'system', content: 'You answer in French.' },
  { role: 'user', content: 'What is the weather like in Lyon today, and should I take an umbrella?' },
];

describe('the most a model call can cost', () => {
  it('is its prompt as the gateway counts it plus max_tokens of output, at the model price', () => {
    const maxCallCost = createMaxCallCost({ pricing: runPricing, model: 'p/priced', tools, maxTokens: 200 });
    const input = countPromptTokens(conversation, tools);
    expect(maxCallCost(conversation)).toBeCloseTo(input * 1e-6 + 200 * 10e-6, 12);
  });

  it('reserves UNCAPPED_CALL_OUTPUT_TOKENS of output when max_tokens is not set', () => {
    const maxCallCost = createMaxCallCost({ pricing: runPricing, model: 'p/priced', tools: [], maxTokens: undefined });
    const input = countPromptTokens(conversation);
    expect(maxCallCost(conversation)).toBeCloseTo(input * 1e-6 + UNCAPPED_CALL_OUTPUT_TOKENS * 10e-6, 12);
  });

  it('grows with each later call of the run, which resends the messages before it', () => {
    const maxCallCost = createMaxCallCost({ pricing: runPricing, model: 'p/priced', tools, maxTokens: 200 });
    const later: ChatMessage[] = [
      ...conversation,
      { role: 'assistant', content: '', tool_calls: [{ id: 'c1', name: 'lookup', arguments: '{"q":"Lyon"}' }] },
      { role: 'tool', tool_call_id: 'c1', name: 'lookup', content: 'Rain all afternoon, 14 °C.' },
    ];
    expect(maxCallCost(conversation)).toBeCloseTo(countPromptTokens(conversation, tools) * 1e-6 + 2e-3, 12);
    expect(maxCallCost(later)).toBeCloseTo(countPromptTokens(later, tools) * 1e-6 + 2e-3, 12);
    expect(maxCallCost(later)).toBeGreaterThan(maxCallCost(conversation));
  });

  it('is max_tokens of output alone when input costs nothing', () => {
    const price = vi.fn(runPricing.price);
    const maxCallCost = createMaxCallCost({
      pricing: { price },
      model: 'p/free-input',
      tools,
      maxTokens: 100,
    });
    expect(maxCallCost(conversation)).toBeCloseTo(100 * 10e-6, 12);
    expect(price).toHaveBeenLastCalledWith('p/free-input', expect.objectContaining({ inputTokens: 0 }));
  });
});
