import { redactText } from './redact-text.js';
import type { GuardrailVerdict } from './types.js';

export interface StreamRedactor {
  /** Takes the next text delta; returns the text that is safe to release now (possibly ''). */
  push(delta: string): string;
  /** Returns everything still held, redacted. Call once at the end of the stream. */
  flush(): string;
}

export interface StreamRedactorOptions {
  /** Never hold back more than this many characters, whatever they look like. */
  maxHeldChars?: number;
}

/** Longer than any card, IBAN, phone number or IP address in print, and than realistic e-mail addresses. */
const DEFAULT_MAX_HELD_CHARS = 128;
/** Released text kept as left context, for lookbehinds and cue words ("phone: ...") before a held match. */
const CONTEXT_CHARS = 64;
/** Characters of a card, phone, IBAN or IP group; the longest run of them ending a word may start a match. */
const GROUP_SUFFIX = /[\w+().\-/:]*$/;

/**
 * Redacts a streamed text so that the concatenated output equals redacting the whole text at once
 * (except inside a word longer than the cap, which is let out in pieces, any hit in it still redacted).
 * It holds back only what could still become (part of) a match: the trailing word, which may grow into
 * an e-mail address, plus any run of digit groups before it, which may be a card or phone number still
 * being written. Everything before that is final and released at once.
 */
export function createStreamRedactor(
  find: (text: string) => GuardrailVerdict[],
  options: StreamRedactorOptions = {},
): StreamRedactor {
  const maxHeld = options.maxHeldChars ?? DEFAULT_MAX_HELD_CHARS;
  let context = '';
  let pending = '';

  function release(cut: number, capped: boolean, final: boolean): string {
    if (cut <= 0 && !final) return '';
    const base = context.length;
    // Hits that began in released text were decided then; should one reach on into held text (a cap
    // cut it), the held part is still redacted rather than leaked.
    const verdicts = find(context + pending)
      .filter((v) => v.action === 'redact' && v.span && v.span[1] > base)
      .map((v) => ({ ...v, span: [Math.max(0, v.span![0] - base), v.span![1] - base] as [number, number] }));
    if (!final) {
      for (const { span } of verdicts) {
        // A hit across the cut may still grow: hold all of it, unless the cap forces it out (then redact it whole).
        if (span[0] < cut && span[1] > cut) cut = capped ? span[1] : span[0];
      }
    }
    const released = pending.slice(0, cut);
    const out = redactText(
      released,
      verdicts.filter(({ span }) => span[1] <= cut),
    );
    context = (context + released).slice(-CONTEXT_CHARS);
    pending = pending.slice(cut);
    return out;
  }

  return {
    push(delta) {
      pending += delta;
      const held = heldTailStart(pending);
      const capped = pending.length - held > maxHeld;
      return release(capped ? pending.length - maxHeld : held, capped, false);
    },
    flush() {
      return release(pending.length, false, true);
    },
  };
}

/** Where the part of `text` that could still become a match starts. */
function heldTailStart(text: string): number {
  const end = text.length;
  let tokenEnd = end;
  if (/\s$/.test(text)) {
    // Only a single space can sit inside a match (between digit groups); a newline or more ends it.
    if (!/(?:^|\S)[ \t]$/.test(text)) return end;
    tokenEnd = end - 1;
  }
  let start = tokenStart(text, tokenEnd);
  // An unfinished last word is always held (it may grow into an address); a finished one only from its group-like end.
  if (tokenEnd !== end) {
    const groupStart = groupSuffixStart(text, start, tokenEnd);
    if (groupStart === undefined) return end;
    if (groupStart > start) return groupStart;
  }
  // Walk back over whole groups separated by single spaces ("+44 20 7946 ...", "GB82 WEST 1234 ...").
  while (start >= 2 && /[ \t]/.test(text[start - 1]) && /\S/.test(text[start - 2])) {
    const previous = tokenStart(text, start - 1);
    const groupStart = groupSuffixStart(text, previous, start - 1);
    if (groupStart === undefined) break;
    start = groupStart;
    if (groupStart > previous) break;
  }
  return start;
}

/** Start of the group-like end of text[start, end): group characters with a digit, or 1-4 capitals (IBAN). */
function groupSuffixStart(text: string, start: number, end: number): number | undefined {
  const token = text.slice(start, end);
  const suffix = GROUP_SUFFIX.exec(token)![0];
  if (/\d/.test(suffix) || /^[A-Z]{1,4}$/.test(suffix)) return end - suffix.length;
  return undefined;
}

function tokenStart(text: string, end: number): number {
  let start = end;
  while (start > 0 && !/\s/.test(text[start - 1])) start--;
  return start;
}
