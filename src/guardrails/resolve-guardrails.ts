import { guardrailsSchema, type GuardrailsConfig, type GuardrailsOverrideConfig } from '../config/index.js';

/**
 * An agent's effective guardrails: each section of the agent's `guardrails` field is merged field by
 * field over the global section (lists replace, they do not add up). A section only the agent has gets
 * the usual defaults. `enabled: false` turns a global check off for that agent.
 */
export function resolveGuardrails(
  global: GuardrailsConfig,
  override: GuardrailsOverrideConfig | undefined,
): GuardrailsConfig {
  if (!override) return global;
  return guardrailsSchema.parse({
    pii: mergeSection(global.pii, override.pii),
    content_filter: mergeSection(global.content_filter, override.content_filter),
    hallucination: mergeSection(global.hallucination, override.hallucination),
  });
}

function mergeSection<T extends object>(base: T | undefined, patch: object | undefined): object | undefined {
  if (!patch) return base;
  const defined = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined));
  return { ...base, ...defined };
}
