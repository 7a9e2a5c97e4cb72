import type { GuardrailVerdict } from './types.js';

export interface StreamBlocker {
  /** Takes the next text delta; returns the text that no blocking hit can still reach (possibly ''). */
  push(delta: string): string;
  /** Everything still held. Only for an answer whose whole text was checked and not blocked. */
  flush(): string;
}

/** Released text kept as left context for the checks' look-behinds (word boundaries, cue words). */
const CONTEXT_CHARS = 64;

/**
 * Streams an answer under a guardrail that can block it. Text is released once it lies more than
 * `windowChars` (the longest hit the checks can find) behind the end of what the model has said, and no
 * blocking hit starts before it: a hit that ends inside the window was seen whole, with the character after
 * it, before any of it left. From the first character of a possible hit on, everything is held; the caller
 * checks the whole text when the call ends and either blocks the answer or flushes the rest. A hit may
 * vanish as text grows ("bad" becoming "badly"), so a held hit only stops the release, it does not decide.
 */
export function createStreamBlocker(find: (text: string) => GuardrailVerdict[], windowChars: number): StreamBlocker {
  let context = '';
  let pending = '';
  // Set when a blocking hit reaches back into released text (a match longer than the window): nothing more leaves.
  let stopped = false;

  return {
    push(delta) {
      pending += delta;
      if (stopped) return '';
      let cut = pending.length - windowChars;
      if (cut <= 0) return '';
      const base = context.length;
      for (const verdict of find(context + pending)) {
        if (verdict.action !== 'block' || !verdict.span || verdict.span[1] <= base) continue;
        if (verdict.span[0] < base) {
          stopped = true;
          return '';
        }
        cut = Math.min(cut, verdict.span[0] - base);
      }
      if (cut <= 0) return '';
      const released = pending.slice(0, cut);
      pending = pending.slice(cut);
      context = (context + released).slice(-CONTEXT_CHARS);
      return released;
    },
    flush() {
      const rest = pending;
      pending = '';
      return rest;
    },
  };
}
