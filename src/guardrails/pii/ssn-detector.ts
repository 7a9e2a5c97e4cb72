import { findMatches, hasContextBefore, type PiiDetector } from './pii-detector.js';

// US SSN as written (123-45-6789, 123 45 6789), with the same separator twice.
const SSN = /(?<![\w-])(\d{3})([ -])(\d{2})\2(\d{4})(?![\w]|[.-]\d)/g;
// Nine bare digits are an SSN only right after a word that says so.
const BARE_SSN = /(?<![\w.-])(\d{3})(\d{2})(\d{4})(?![\w]|[.-]\d)/g;
const SSN_CONTEXT = /\b(?:ssn|social security(?: number| no\.?)?|ss#)\D{0,20}$/i;

/** Numbers the SSA never issues: area 000, 666 or 9xx, group 00, serial 0000. */
function isIssuable(area: string, group: string, serial: string): boolean {
  return area !== '000' && area !== '666' && area[0] !== '9' && group !== '00' && serial !== '0000';
}

export const ssnDetector: PiiDetector = {
  type: 'ssn',
  find(text) {
    const written = findMatches(text, SSN, (m) => isIssuable(m[1], m[3], m[4]));
    const bare = findMatches(
      text,
      BARE_SSN,
      (m) => isIssuable(m[1], m[2], m[3]) && hasContextBefore(text, m.index, SSN_CONTEXT),
    );
    return [...written, ...bare].sort((a, b) => a[0] - b[0]);
  },
};
