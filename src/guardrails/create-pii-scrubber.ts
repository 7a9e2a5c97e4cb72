import { guardrailsSchema, PII_TYPES } from '../config/index.js';
import { createGuardrails } from './create-guardrails.js';

/** Redacts every PII type the guardrails detect, whatever the agents' own guardrail settings (for curated samples). */
export function createPiiScrubber(): (text: string) => string {
  const pii = createGuardrails(
    guardrailsSchema.parse({ pii: { enabled: true, action: 'redact', types: [...PII_TYPES] } }),
  );
  return (text) => pii.checkOutput(text).text;
}
