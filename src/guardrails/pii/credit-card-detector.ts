import type { PiiDetector } from './pii-detector.js';

// Runs of digits with at most one space or dash between them; the card is then searched inside the run,
// so "4111 1111 1111 1111 12/25" still yields the card and not a 18-digit number that fails Luhn.
const DIGIT_RUN = /(?<![\w-])\d(?:[ -]?\d){12,30}(?!\w)/g;

/** The Luhn checksum every payment card number carries (ISO/IEC 7812). */
export function isLuhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** 13-19 digits, a major-network first digit (2-6: Mastercard, Amex/Diners/JCB, Visa, Discover/UnionPay), Luhn-valid. */
function isCardNumber(digits: string): boolean {
  return (
    digits.length >= 13 &&
    digits.length <= 19 &&
    /^[2-6]/.test(digits) &&
    !/^(\d)\1*$/.test(digits) &&
    isLuhnValid(digits)
  );
}

// How card numbers are printed: unbroken, 4-4-4-4(-3), or Amex/Diners 4-6-5 and 4-6-4. Other groupings
// are more likely account or reference numbers that happen to pass Luhn (one in ten does).
const PRINTED_GROUPINGS = new Set(['4-4-4-4', '4-4-4-4-3', '4-6-5', '4-6-4']);

function isPrintedLikeACard(groups: Array<{ digits: string }>): boolean {
  return groups.length === 1 || PRINTED_GROUPINGS.has(groups.map((g) => g.digits.length).join('-'));
}

/** The longest run of whole groups inside the candidate that is a card number. */
function findCardInRun(run: string, offset: number): [number, number] | undefined {
  const groups = [...run.matchAll(/\d+/g)].map((g) => ({ start: g.index, end: g.index + g[0].length, digits: g[0] }));
  let best: [number, number] | undefined;
  for (let first = 0; first < groups.length; first++) {
    let digits = '';
    for (let last = first; last < groups.length; last++) {
      digits += groups[last].digits;
      if (digits.length > 19) break;
      const span: [number, number] = [offset + groups[first].start, offset + groups[last].end];
      if (
        isCardNumber(digits) &&
        isPrintedLikeACard(groups.slice(first, last + 1)) &&
        (!best || span[1] - span[0] > best[1] - best[0])
      )
        best = span;
    }
  }
  return best;
}

export const creditCardDetector: PiiDetector = {
  type: 'credit_card',
  find(text) {
    const spans: Array<[number, number]> = [];
    for (const run of text.matchAll(DIGIT_RUN)) {
      const card = findCardInRun(run[0], run.index);
      if (card) spans.push(card);
    }
    return spans;
  },
};
