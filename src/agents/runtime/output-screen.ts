import type { GuardrailVerdict, Guardrails } from '../../guardrails/index.js';

/** What a model step shows of its text: deltas as they may be released, then the rest when the call ends. */
export interface OutputScreen {
  /** A delta from the model → the text the client may see now (possibly ''). */
  push(delta: string): string;
  /** The call ended with `text`: what is still to release, and whether the answer is withheld. */
  finish(text: string): { text: string; blocked: boolean };
}

const PASS_THROUGH: OutputScreen = { push: (delta) => delta, finish: () => ({ text: '', blocked: false }) };

/**
 * The output side of one model call. PII redaction runs on the stream itself (an address split across
 * deltas is still caught). When a hit could block, text is released through the guardrails' hold-back
 * window (the longest hit they can find) and held from a possible hit on, since text already sent cannot be
 * withdrawn; the whole text is checked when the call ends. Every hit is flagged once, from the whole text.
 */
export function createOutputScreen(
  guardrails: Guardrails | undefined,
  flag: (verdicts: readonly GuardrailVerdict[]) => void,
): OutputScreen {
  if (!guardrails) return PASS_THROUGH;
  const redactor = guardrails.createStreamRedactor();
  if (guardrails.blocksOutput) {
    const blocker = guardrails.createStreamBlocker();
    let streamed = false;
    return {
      push(delta) {
        const released = blocker.push(delta);
        if (!released) return '';
        streamed = true;
        return redactor.push(released);
      },
      finish(text) {
        const result = guardrails.checkOutput(text);
        flag(result.verdicts);
        if (result.blocked) return { text: '', blocked: true };
        // Nothing left yet (an answer shorter than the window): the whole text, redacted at once.
        if (!streamed) return { text: result.text, blocked: false };
        return { text: redactor.push(blocker.flush()) + redactor.flush(), blocked: false };
      },
    };
  }
  return {
    push: (delta) => redactor.push(delta),
    finish(text) {
      const rest = redactor.flush();
      flag(guardrails.checkOutput(text).verdicts);
      return { text: rest, blocked: false };
    },
  };
}
