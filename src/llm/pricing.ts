import { createRequire } from 'node:module';
import type { PriceOptions, Provider as CatalogProvider } from '@pydantic/genai-prices';

type CalcPrice = typeof import('@pydantic/genai-prices').calcPrice;
let loadedCalcPrice: CalcPrice | undefined;
/** The price catalogue (a few MB of data) loads with the first price looked up, not at start-up. */
function calcPrice(...args: Parameters<CalcPrice>): ReturnType<CalcPrice> {
  loadedCalcPrice ??= (
    createRequire(import.meta.url)('@pydantic/genai-prices') as typeof import('@pydantic/genai-prices')
  ).calcPrice;
  return loadedCalcPrice(...args);
}
import type { PricingConfig } from '../config/index.js';
import type { ModelInfo, Usage } from './types.js';

// The price catalogue is the data bundled with @pydantic/genai-prices. We never call its `updatePrices`,
// so no price data is fetched at run time: prices change when the package is upgraded.

export type ProviderType = ModelInfo['providerType'];

export interface PricingOptions {
  /** `pricing:` from the config file; wins over the catalogue. */
  overrides: PricingConfig;
  /** Configured provider name → its type. */
  providerTypes: Record<string, ProviderType>;
  /** Called once per model that has no price (the caller logs one warning per model). */
  onUnpriced?: (model: string) => void;
}

export interface Price {
  costUsd: number;
  /** False when no price was known and the cost is 0 for that reason. */
  priced: boolean;
}

export interface Pricing {
  /** `model` is `<provider>/<model id>`. Never throws: an unknown model costs 0 with `priced: false`. */
  price(model: string, usage: Usage): Price;
}

type Rate =
  | { kind: 'override'; inputPerMtok: number; outputPerMtok: number; cachedInputPerMtok: number }
  | { kind: 'catalog'; modelId: string; provider: CatalogProvider }
  | { kind: 'free' }
  | { kind: 'unpriced' };

const UNPRICED: Price = Object.freeze({ costUsd: 0, priced: false });
const PROBE_USAGE = { input_tokens: 1, output_tokens: 1 };

export function createPricing(options: PricingOptions): Pricing {
  // Resolving a model against the catalogue scans providers and models; do it once per model.
  const rates = new Map<string, Rate>();

  function rateOf(model: string): Rate {
    let rate = rates.get(model);
    if (rate === undefined) {
      rate = resolveRate(model, options);
      rates.set(model, rate);
      if (rate.kind === 'unpriced') options.onUnpriced?.(model);
    }
    return rate;
  }

  return {
    price(model, usage) {
      const rate = rateOf(model);
      const tokens = normalizeUsage(usage);
      switch (rate.kind) {
        case 'override':
          return { costUsd: overrideCost(rate, tokens), priced: true };
        case 'catalog':
          try {
            return { costUsd: catalogCost(rate, tokens), priced: true };
          } catch {
            // Malformed catalogue data must not fail a call: treat the model as unpriced from now on.
            rates.set(model, { kind: 'unpriced' });
            options.onUnpriced?.(model);
            return UNPRICED;
          }
        case 'free':
        case 'unpriced':
          return UNPRICED;
      }
    },
  };
}

function resolveRate(model: string, options: PricingOptions): Rate {
  const override = Object.hasOwn(options.overrides, model) ? options.overrides[model] : undefined;
  if (override) {
    return {
      kind: 'override',
      inputPerMtok: override.input_per_mtok,
      outputPerMtok: override.output_per_mtok,
      cachedInputPerMtok: override.cached_input_per_mtok ?? override.input_per_mtok,
    };
  }
  const slash = model.indexOf('/');
  const providerName = slash < 0 ? '' : model.slice(0, slash);
  const modelId = model.slice(slash + 1);
  const type = options.providerTypes[providerName];
  // The offline development model costs nothing and is not worth a warning.
  if (type === 'dev') return { kind: 'free' };
  for (const [id, lookup] of catalogLookups(type, providerName, modelId)) {
    const found = findInCatalog(id, lookup);
    if (found) return found;
  }
  return { kind: 'unpriced' };
}

/** Where to look a model up in the catalogue, most specific first. */
function catalogLookups(
  type: ProviderType | undefined,
  providerName: string,
  modelId: string,
): [string, PriceOptions][] {
  if (type === 'openai') return [[modelId, { providerId: 'openai' }]];
  if (type === 'anthropic') return [[modelId, { providerId: 'anthropic' }]];
  const lookups: [string, PriceOptions][] = [];
  // A compatible provider named after its vendor (groq, together, openrouter) gets that vendor's prices.
  if (providerName) lookups.push([modelId, { providerId: providerName }]);
  // The catalogue's own model-name matching across providers (gpt-* → openai, deepseek* → deepseek, ...).
  lookups.push([modelId, {}]);
  // Routers name models `<vendor>/<model>` (e.g. openai/gpt-4o through a proxy).
  const slash = modelId.indexOf('/');
  if (slash > 0) lookups.push([modelId.slice(slash + 1), { providerId: modelId.slice(0, slash) }]);
  return lookups;
}

function findInCatalog(modelId: string, lookup: PriceOptions): Rate | undefined {
  try {
    const result = calcPrice(PROBE_USAGE, modelId, lookup);
    if (!result) return undefined;
    // A one-model provider keeps later calls from scanning the catalogue again, while calcPrice still
    // applies the model's tiers and dated prices.
    const provider: CatalogProvider = {
      ...result.provider,
      models: [result.model],
      fallback_model_providers: undefined,
    };
    return { kind: 'catalog', modelId, provider };
  } catch {
    return undefined;
  }
}

interface Tokens {
  input: number;
  cached: number;
  output: number;
}

/** Input tokens include the cached ones (OpenAI's and the AI SDK's convention). */
function normalizeUsage(usage: Usage): Tokens {
  const count = (value: number) => (Number.isFinite(value) && value > 0 ? value : 0);
  const input = count(usage.inputTokens);
  return { input, cached: Math.min(count(usage.cachedInputTokens), input), output: count(usage.outputTokens) };
}

function overrideCost(rate: Extract<Rate, { kind: 'override' }>, tokens: Tokens): number {
  const usd =
    (tokens.input - tokens.cached) * rate.inputPerMtok +
    tokens.cached * rate.cachedInputPerMtok +
    tokens.output * rate.outputPerMtok;
  return usd / 1_000_000;
}

function catalogCost(rate: Extract<Rate, { kind: 'catalog' }>, tokens: Tokens): number {
  // calcPrice takes the total as input_tokens and charges cache_read_tokens at the cache-read rate
  // where the model has one (at the input rate otherwise).
  const usage = { input_tokens: tokens.input, cache_read_tokens: tokens.cached, output_tokens: tokens.output };
  const result = calcPrice(usage, rate.modelId, { provider: rate.provider });
  if (!result) throw new Error(`${rate.modelId} no longer matches its catalogue entry`);
  return result.total_price;
}
