import { findMatches, type PiiDetector } from './pii-detector.js';

// Local part up to 64 characters (RFC 5321), dot-separated domain labels, an alphabetic TLD. The
// lookarounds keep a match from starting or ending inside a longer address-like word.
const EMAIL =
  /(?<![\w.%+-])[A-Za-z0-9][A-Za-z0-9._%+-]{0,63}@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,24}(?![\w-]|\.[A-Za-z0-9])/g;

export const emailDetector: PiiDetector = {
  type: 'email',
  find: (text) => findMatches(text, EMAIL),
};
