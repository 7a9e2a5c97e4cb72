import { isIPv6 } from 'node:net';
import { findMatches, type PiiDetector } from './pii-detector.js';

const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
// Not inside a longer dotted number (version strings like v1.2.3.4 or 1.2.3.4.5).
const IPV4 = new RegExp(`(?<![\\w.])(?:${OCTET}\\.){3}${OCTET}(?![\\w]|\\.\\d)`, 'g');
// A loose shape; node's parser decides. Colons delimit the groups, so the pattern cannot backtrack badly.
const IPV6_CANDIDATE = /(?<![\w:.])(?:[0-9A-Fa-f]{0,4}:){2,7}(?:[0-9A-Fa-f]{1,4}|(?:\d{1,3}\.){3}\d{1,3})?(?![\w:])/g;

/** At least two hex groups, so "::" and "::1" (code, loopback) are not reported as personal data. */
function isSpecificIPv6(candidate: string): boolean {
  return isIPv6(candidate) && (candidate.match(/[0-9A-Fa-f]+/g)?.length ?? 0) >= 2;
}

export const ipAddressDetector: PiiDetector = {
  type: 'ip_address',
  find(text) {
    const v4 = findMatches(text, IPV4);
    const v6 = findMatches(text, IPV6_CANDIDATE, (m) => isSpecificIPv6(m[0]));
    return [...v4, ...v6].sort((a, b) => a[0] - b[0]);
  },
};
