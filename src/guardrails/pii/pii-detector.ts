import type { PiiType } from '../../config/index.js';

/** Finds one kind of personal data in a text, validated as far as the kind allows (Luhn, mod-97, ...). */
export interface PiiDetector {
  readonly type: PiiType;
  /** [start, end) offsets of each hit, in order. */
  find(text: string): Array<[number, number]>;
}

/** Spans of the regex's matches that `accept` confirms; the regex must have the `g` flag. */
export function findMatches(
  text: string,
  regex: RegExp,
  accept: (match: RegExpExecArray) => boolean = () => true,
): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  for (const match of text.matchAll(regex)) {
    if (accept(match)) spans.push([match.index, match.index + match[0].length]);
  }
  return spans;
}

/** True when one of `words` ends within `window` characters before `index` (e.g. "phone: 4155552671"). */
export function hasContextBefore(text: string, index: number, words: RegExp, window = 32): boolean {
  return words.test(text.slice(Math.max(0, index - window), index));
}
