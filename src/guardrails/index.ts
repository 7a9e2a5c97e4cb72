export { createGuardrails, type GuardrailCheckResult, type Guardrails } from './create-guardrails.js';
export { createPiiScrubber } from './create-pii-scrubber.js';
export { resolveGuardrails } from './resolve-guardrails.js';
export type { StreamBlocker } from './stream-blocker.js';
export type { StreamRedactor } from './stream-redactor.js';
export type { GuardrailAction, GuardrailType, GuardrailVerdict } from './types.js';
