import type { GuardrailsConfig } from '../config/index.js';
import { createContentFilterGuardrail } from './content-filter-guardrail.js';
import { createHallucinationGuardrail } from './hallucination-guardrail.js';
import { createPiiGuardrail } from './pii-guardrail.js';
import { redactText } from './redact-text.js';
import { createStreamRedactor, type StreamRedactor } from './stream-redactor.js';
import type { Guardrail, GuardrailContext, GuardrailVerdict } from './types.js';

export interface GuardrailCheckResult {
  /** Every hit, in text order per check; each one is a risk event for the caller to record. */
  verdicts: GuardrailVerdict[];
  /** True when a hit's action is `block`: refuse the input, or withhold the answer. */
  blocked: boolean;
  /** The text with every `redact` hit replaced by `[REDACTED_<TYPE>]` (the same string when none). */
  text: string;
}

export interface Guardrails {
  /** Checks a user's message before the model sees it. */
  checkInput(text: string): GuardrailCheckResult;
  /** Checks an answer before the client sees it; `sources` (tool results, context) enable the hallucination check. */
  checkOutput(text: string, sources?: readonly string[]): GuardrailCheckResult;
  /** A redactor for one streamed answer; it passes text straight through when PII redaction is off. */
  createStreamRedactor(): StreamRedactor;
  /** Scores a finished answer against the run's sources (tool results, context): the hallucination check alone. */
  checkGrounding(answer: string, sources: readonly string[]): GuardrailVerdict[];
  /** True when an output hit can block: a streamed answer must then be held until it is checked whole. */
  readonly blocksOutput: boolean;
}

const PASS_THROUGH: StreamRedactor = { push: (delta) => delta, flush: () => '' };

/** Compiles the configured checks once (patterns, blocklist); create one per effective configuration. */
export function createGuardrails(config: GuardrailsConfig): Guardrails {
  const pii = config.pii?.enabled ? createPiiGuardrail(config.pii) : undefined;
  const checks: Guardrail[] = [];
  if (pii) checks.push(pii);
  if (config.content_filter?.enabled) checks.push(createContentFilterGuardrail(config.content_filter));
  const hallucination = config.hallucination?.enabled ? createHallucinationGuardrail(config.hallucination) : undefined;
  const all = hallucination ? [...checks, hallucination] : checks;

  function run(text: string, context: GuardrailContext): GuardrailCheckResult {
    const verdicts = all.flatMap((check) => check.check(text, context));
    return { verdicts, blocked: verdicts.some((v) => v.action === 'block'), text: redactText(text, verdicts) };
  }

  const redactsPii = pii !== undefined && config.pii?.action === 'redact';
  return {
    checkInput: (text) => run(text, { stage: 'input', sources: [] }),
    checkOutput: (text, sources = []) => run(text, { stage: 'output', sources }),
    createStreamRedactor: () =>
      redactsPii ? createStreamRedactor((text) => pii.check(text, { stage: 'output', sources: [] })) : PASS_THROUGH,
    checkGrounding: (answer, sources) => hallucination?.check(answer, { stage: 'output', sources }) ?? [],
    blocksOutput: checks.some((check) => config[check.type]?.action === 'block'),
  };
}
