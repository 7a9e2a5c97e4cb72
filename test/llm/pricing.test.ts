import { findProvider } from '@pydantic/genai-prices';
import { describe, expect, it, vi } from 'vitest';
import { createPricing, type PricingOptions } from '../../src/llm/pricing.js';
import type { Usage } from '../../src/llm/types.js';

const PROVIDER_TYPES: PricingOptions['providerTypes'] = {
  openai: 'openai',
  claude: 'anthropic',
  upstream: 'openai-compatible',
  local: 'dev',
};

function usage(inputTokens: number, outputTokens: number, cachedInputTokens = 0): Usage {
  return { inputTokens, outputTokens, cachedInputTokens, estimated: false };
}

/** Flat per-million prices of a catalogue model, read from the package's bundled data. */
function catalogRates(providerId: string, modelId: string): { input: number; output: number; cacheRead?: number } {
  const model = findProvider({ providerId })?.models.find((candidate) => candidate.id === modelId);
  if (!model || Array.isArray(model.prices))
    throw new Error(`${providerId}/${modelId} has no flat price in the catalogue`);
  const { input_mtok, output_mtok, cache_read_mtok } = model.prices;
  if (typeof input_mtok !== 'number' || typeof output_mtok !== 'number')
    throw new Error(`${modelId} has tiered prices`);
  return {
    input: input_mtok,
    output: output_mtok,
    cacheRead: typeof cache_read_mtok === 'number' ? cache_read_mtok : undefined,
  };
}

describe('createPricing', () => {
  it('prices a known OpenAI model from the catalogue', () => {
    const rates = catalogRates('openai', 'gpt-4o');
    const pricing = createPricing({ overrides: {}, providerTypes: PROVIDER_TYPES });
    const result = pricing.price('openai/gpt-4o', usage(12_000, 3_000));
    expect(result.priced).toBe(true);
    expect(result.costUsd).toBeCloseTo((12_000 * rates.input + 3_000 * rates.output) / 1e6, 12);
  });

  it('prices a known Anthropic model from the catalogue, also under its dated id', () => {
    const rates = catalogRates('anthropic', 'claude-sonnet-4-0');
    const pricing = createPricing({ overrides: {}, providerTypes: PROVIDER_TYPES });
    const expected = (2_000 * rates.input + 500 * rates.output) / 1e6;
    expect(pricing.price('claude/claude-sonnet-4-0', usage(2_000, 500))).toEqual({
      costUsd: expect.closeTo(expected, 12),
      priced: true,
    });
    expect(pricing.price('claude/claude-sonnet-4-20250514', usage(2_000, 500)).costUsd).toBeCloseTo(expected, 12);
  });

  it('charges cached input tokens at the cached rate and the rest at the input rate', () => {
    const rates = catalogRates('openai', 'gpt-4o');
    expect(rates.cacheRead).toBeDefined();
    const pricing = createPricing({ overrides: {}, providerTypes: PROVIDER_TYPES });
    const result = pricing.price('openai/gpt-4o', usage(10_000, 1_000, 4_000));
    expect(result.costUsd).toBeCloseTo(
      (6_000 * rates.input + 4_000 * rates.cacheRead! + 1_000 * rates.output) / 1e6,
      12,
    );
  });

  it('lets a config override win over the catalogue', () => {
    const pricing = createPricing({
      overrides: { 'openai/gpt-4o': { input_per_mtok: 1, output_per_mtok: 2, cached_input_per_mtok: 0.5 } },
      providerTypes: PROVIDER_TYPES,
    });
    expect(pricing.price('openai/gpt-4o', usage(1_000_000, 1_000_000, 400_000))).toEqual({
      costUsd: 0.6 + 0.2 + 2,
      priced: true,
    });
  });

  it('charges cached tokens at the input rate when an override has no cached rate', () => {
    const pricing = createPricing({
      overrides: { 'upstream/llama3.1': { input_per_mtok: 3, output_per_mtok: 0 } },
      providerTypes: PROVIDER_TYPES,
    });
    expect(pricing.price('upstream/llama3.1', usage(1_000_000, 10, 500_000))).toEqual({ costUsd: 3, priced: true });
  });

  it('treats a zero override as priced, which silences the warning for a free local model', () => {
    const onUnpriced = vi.fn();
    const pricing = createPricing({
      overrides: { 'upstream/llama3.1': { input_per_mtok: 0, output_per_mtok: 0 } },
      providerTypes: PROVIDER_TYPES,
      onUnpriced,
    });
    expect(pricing.price('upstream/llama3.1', usage(100, 100))).toEqual({ costUsd: 0, priced: true });
    expect(onUnpriced).not.toHaveBeenCalled();
  });

  it('costs an unknown model 0, unpriced, and reports it once per model', () => {
    const onUnpriced = vi.fn();
    const pricing = createPricing({ overrides: {}, providerTypes: PROVIDER_TYPES, onUnpriced });
    for (let i = 0; i < 3; i++) {
      expect(pricing.price('upstream/my-private-model', usage(100, 100))).toEqual({ costUsd: 0, priced: false });
      expect(pricing.price('openai/not-a-real-model', usage(100, 100))).toEqual({ costUsd: 0, priced: false });
    }
    expect(onUnpriced.mock.calls).toEqual([['upstream/my-private-model'], ['openai/not-a-real-model']]);
  });

  it('matches an openai-compatible model by its id across the catalogue', () => {
    const rates = catalogRates('openai', 'gpt-4o-mini');
    const pricing = createPricing({ overrides: {}, providerTypes: PROVIDER_TYPES });
    expect(pricing.price('upstream/gpt-4o-mini', usage(1_000, 1_000)).costUsd).toBeCloseTo(
      (1_000 * rates.input + 1_000 * rates.output) / 1e6,
      12,
    );
    expect(pricing.price('upstream/openai/gpt-4o-mini', usage(1_000, 1_000)).priced).toBe(true);
  });

  it('does not look up openai-typed providers outside OpenAI', () => {
    const pricing = createPricing({ overrides: {}, providerTypes: PROVIDER_TYPES });
    expect(pricing.price('openai/claude-sonnet-4-0', usage(1_000, 1_000)).priced).toBe(false);
  });

  it('never prices nor warns about the offline development model', () => {
    const onUnpriced = vi.fn();
    const pricing = createPricing({ overrides: {}, providerTypes: PROVIDER_TYPES, onUnpriced });
    expect(pricing.price('local/gpt-4o', usage(1_000, 1_000))).toEqual({ costUsd: 0, priced: false });
    expect(onUnpriced).not.toHaveBeenCalled();
  });

  it('never fails on odd usage numbers', () => {
    const pricing = createPricing({ overrides: {}, providerTypes: PROVIDER_TYPES });
    const odd = { inputTokens: Number.NaN, outputTokens: -5, cachedInputTokens: 50, estimated: true };
    expect(pricing.price('openai/gpt-4o', odd)).toEqual({ costUsd: 0, priced: true });
    expect(pricing.price('openai/gpt-4o', usage(10, 0, 50)).costUsd).toBeCloseTo(
      (10 * catalogRates('openai', 'gpt-4o').cacheRead!) / 1e6,
      12,
    );
  });
});
