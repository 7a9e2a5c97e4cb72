import type { GuardrailsConfig } from '../config/index.js';
import { createContentFilterGuardrail } from './content-filter-guardrail.js';
import { createHallucinationGuardrail } from './hallucination-guardrail.js';
import { createPiiGuardrail } from './pii-guardrail.js';
import { redactText } from './redact-text.js';
import { createStreamBlocker, type StreamBlocker } from './stream-blocker.js';
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
  /** True when an output hit can block: a streamed answer then goes through `createStreamBlocker`. */
  readonly blocksOutput: boolean;
  /**
   * For one streamed answer when an output hit can block: releases text once it lies further back than the
   * longest hit the blocking checks can find (their look-behind window), and holds from a possible hit on.
   */
  createStreamBlocker(): StreamBlocker;
}

/**
 * How far back a blocking hit can reach, in characters. A regular expression has no bound in general, so a
 * configured pattern is assumed to match at most this much (docs/decisions/0055-guardrails-in-runs.md): a longer match may have
 * begun to stream before it completes (the answer is still cut off there and ends content_filter).
 */
const PATTERN_WINDOW_CHARS = 64;
/** PII in print (cards, IBANs, phone numbers, e-mail addresses) is shorter than this; as the stream redactor holds. */
const PII_WINDOW_CHARS = 128;

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
  const blocking = checks.filter((check) => config[check.type]?.action === 'block');
  const filter = config.content_filter;
  // One more character than the longest hit: a blocklist entry is only a hit once the next character is known.
  const windowChars =
    1 +
    Math.max(
      0,
      ...blocking.map((check) => {
        if (check.type === 'pii') return PII_WINDOW_CHARS;
        return Math.max(
          filter?.patterns.length ? PATTERN_WINDOW_CHARS : 0,
          ...(filter?.blocklist ?? []).map((entry) => entry.trim().length),
        );
      }),
    );
  const findBlocking = (text: string) =>
    blocking.flatMap((check) => check.check(text, { stage: 'output', sources: [] }));
  return {
    checkInput: (text) => run(text, { stage: 'input', sources: [] }),
    checkOutput: (text, sources = []) => run(text, { stage: 'output', sources }),
    createStreamRedactor: () =>
      redactsPii ? createStreamRedactor((text) => pii.check(text, { stage: 'output', sources: [] })) : PASS_THROUGH,
    checkGrounding: (answer, sources) => hallucination?.check(answer, { stage: 'output', sources }) ?? [],
    blocksOutput: blocking.length > 0,
    createStreamBlocker: () => createStreamBlocker(findBlocking, windowChars),
  };
}
