import type { GuardrailVerdict } from './types.js';

/** `[REDACTED_EMAIL]`, `[REDACTED_CREDIT_CARD]`, ... */
export function redactionFor(verdict: GuardrailVerdict): string {
  return `[REDACTED_${verdict.entity.toUpperCase()}]`;
}

/** Replaces the span of every `redact` verdict; overlapping spans after the first are skipped. */
export function redactText(text: string, verdicts: readonly GuardrailVerdict[]): string {
  const spans = verdicts.filter((v) => v.action === 'redact' && v.span).sort((a, b) => a.span![0] - b.span![0]);
  if (spans.length === 0) return text;
  let out = '';
  let at = 0;
  for (const verdict of spans) {
    const [start, end] = verdict.span!;
    if (start < at) continue;
    out += text.slice(at, start) + redactionFor(verdict);
    at = end;
  }
  return out + text.slice(at);
}
