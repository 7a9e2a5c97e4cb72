import { hasContextBefore, type PiiDetector } from './pii-detector.js';

// Groups are always delimited by a required separator or parentheses, so the patterns are unambiguous
// (no catastrophic backtracking) and a digit count can be checked afterwards.
const EDGE_BEFORE = String.raw`(?<![\w+.\-/])`;
const EDGE_AFTER = String.raw`(?![\w]|[.\-/]\d)`;

/** +CC with optional (area) and separated groups: +1 (415) 555-2671, +44 20 7946 0958, +4915123456789. */
const INTERNATIONAL = new RegExp(
  String.raw`(?<![\w+])\+\d{1,15}(?:(?:[ .\-]?\(\d{1,4}\)[ .\-]?|[ .\-])\d{1,8}){0,6}${EDGE_AFTER}`,
  'g',
);
/** North American: (415) 555-2671, 415-555-2671, 415.555.2671, 1-800-555-0199. */
const NORTH_AMERICAN = new RegExp(
  String.raw`${EDGE_BEFORE}(?:1[ .\-])?(?:\(\d{3}\) ?|\d{3}[ .\-])\d{3}[ .\-]\d{4}${EDGE_AFTER}`,
  'g',
);
/**
 * National with a trunk 0 (never 00, the international prefix): 020 7946 0958, 07700 900123, (030) 1234567,
 * 01 23 45 67 89. Its loose groups must not be a slice of a longer digit sequence (an account number, an IBAN).
 */
const TRUNK_PREFIXED = new RegExp(
  String.raw`${EDGE_BEFORE}(?<!\d[ .\-/])(?:\(0[1-9]\d{0,3}\) ?|0[1-9]\d{0,3}[ .\-/])\d{2,8}(?:[ .\-]\d{2,8}){0,4}${EDGE_AFTER}(?![ .\-]\d)`,
  'g',
);
/** Bare digit strings count only after a word that says they are a phone number ("call me at 4155552671"). */
const BARE = new RegExp(String.raw`${EDGE_BEFORE}\d{7,15}${EDGE_AFTER}`, 'g');
const PHONE_CONTEXT = /\b(?:phone|tel|telephone|mobile|cell|call|fax|whatsapp|sms|text)\b\D{0,20}$/i;

// 01.02.2024 or 12/05/24 followed by more digits is a date, not a number to dial.
const DATE_PREFIX = /^\(?\d{1,2}[.\-/]\d{1,2}[.\-/]\d{2,4}\b/;

function digitCount(text: string): number {
  return text.replace(/\D/g, '').length;
}

const SHAPES: Array<{ regex: RegExp; accept: (match: string, index: number, text: string) => boolean }> = [
  { regex: INTERNATIONAL, accept: (match) => digitCount(match) >= 8 && digitCount(match) <= 15 },
  { regex: NORTH_AMERICAN, accept: () => true },
  {
    regex: TRUNK_PREFIXED,
    accept: (match) => digitCount(match) >= 9 && digitCount(match) <= 13 && !DATE_PREFIX.test(match),
  },
  { regex: BARE, accept: (_match, index, text) => hasContextBefore(text, index, PHONE_CONTEXT) },
];

export const phoneDetector: PiiDetector = {
  type: 'phone',
  // Shapes may overlap ("+1 (415) 555-2671" is international and North American); the PII guardrail keeps the longest.
  find(text) {
    const spans: Array<[number, number]> = [];
    for (const { regex, accept } of SHAPES) {
      for (const match of text.matchAll(regex)) {
        if (accept(match[0], match.index, text)) spans.push([match.index, match.index + match[0].length]);
      }
    }
    return spans.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  },
};
