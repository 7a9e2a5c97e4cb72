import type { PiiConfig, PiiType } from '../config/index.js';
import { creditCardDetector } from './pii/credit-card-detector.js';
import { emailDetector } from './pii/email-detector.js';
import { ibanDetector } from './pii/iban-detector.js';
import { ipAddressDetector } from './pii/ip-address-detector.js';
import type { PiiDetector } from './pii/pii-detector.js';
import { phoneDetector } from './pii/phone-detector.js';
import { ssnDetector } from './pii/ssn-detector.js';
import type { Guardrail, GuardrailVerdict } from './types.js';

// On overlapping hits the longer one wins; on equal spans, the earlier (more specific) detector here.
const DETECTORS: Record<PiiType, PiiDetector> = {
  credit_card: creditCardDetector,
  iban: ibanDetector,
  ssn: ssnDetector,
  email: emailDetector,
  ip_address: ipAddressDetector,
  phone: phoneDetector,
};

/** Personal data (e-mail, phone, SSN, card, IBAN, IP address), one verdict per occurrence. */
export function createPiiGuardrail(config: PiiConfig): Guardrail {
  const detectors = (Object.keys(DETECTORS) as PiiType[])
    .filter((type) => config.types.includes(type))
    .map((type) => DETECTORS[type]);
  return {
    type: 'pii',
    check(text) {
      const hits = detectors.flatMap((detector) => detector.find(text).map((span) => ({ type: detector.type, span })));
      return dropOverlaps(hits).map(({ type, span }): GuardrailVerdict => ({
        type: 'pii',
        entity: type,
        action: config.action,
        span,
      }));
    },
  };
}

function dropOverlaps<T extends { span: [number, number] }>(hits: T[]): T[] {
  const longestFirst = hits
    .map((hit, order) => ({ hit, order }))
    .sort((a, b) => length(b.hit) - length(a.hit) || a.order - b.order);
  const kept: T[] = [];
  for (const { hit } of longestFirst) {
    if (!kept.some((other) => hit.span[0] < other.span[1] && other.span[0] < hit.span[1])) kept.push(hit);
  }
  return kept.sort((a, b) => a.span[0] - b.span[0]);
}

function length(hit: { span: [number, number] }): number {
  return hit.span[1] - hit.span[0];
}
