import type { PiiDetector } from './pii-detector.js';

// Country code, check digits, then the account part in print format (groups of four) or unbroken.
const IBAN_CANDIDATE = /(?<![\w])[A-Z]{2}\d{2}(?: ?[A-Z0-9]){11,30}(?!\w)/g;

/** ISO 13616 check: the rearranged number, letters as 10-35, is 1 modulo 97. */
export function isIbanChecksumValid(iban: string): boolean {
  const compact = iban.replace(/ /g, '').toUpperCase();
  if (compact.length < 15 || compact.length > 34) return false;
  const rearranged = compact.slice(4) + compact.slice(0, 4);
  let remainder = 0;
  for (const char of rearranged) {
    const value = char >= 'A' ? char.charCodeAt(0) - 55 : char.charCodeAt(0) - 48;
    remainder = (value > 9 ? remainder * 100 + value : remainder * 10 + value) % 97;
  }
  return remainder === 1;
}

export const ibanDetector: PiiDetector = {
  type: 'iban',
  find(text) {
    const spans: Array<[number, number]> = [];
    for (const match of text.matchAll(IBAN_CANDIDATE)) {
      // The run may have swallowed an upper-case word after the IBAN: drop trailing groups until it checks.
      let candidate = match[0];
      while (candidate.replace(/ /g, '').length >= 15) {
        if (isIbanChecksumValid(candidate)) {
          spans.push([match.index, match.index + candidate.length]);
          break;
        }
        const lastSpace = candidate.lastIndexOf(' ');
        if (lastSpace < 0) break;
        candidate = candidate.slice(0, lastSpace);
      }
    }
    return spans;
  },
};
