import { anySecretMatches } from './signature-compare.js';
import { headerValue, isWithinTolerance, type SignatureVerifier } from './verification.types.js';

/**
 * `stripe`: `Stripe-Signature: t=<unix seconds>,v1=<hex>[,v1=<hex>…]` signs `<t>.<body>`; any v1 may
 * match (Stripe sends several while a secret is rolled). https://docs.stripe.com/webhooks#verify-manually
 */
export const verifyStripeSignature: SignatureVerifier = (request, options) => {
  const header = headerValue(request, options.signatureHeader);
  if (!header) return { ok: false, reason: `missing ${options.signatureHeader} header` };
  let timestamp: string | undefined;
  const signatures: string[] = [];
  for (const item of header.split(',')) {
    const index = item.indexOf('=');
    if (index < 0) continue;
    const key = item.slice(0, index).trim();
    const value = item.slice(index + 1).trim();
    if (key === 't') timestamp = value;
    if (key === 'v1') signatures.push(value);
  }
  if (!timestamp || !/^\d+$/.test(timestamp)) return { ok: false, reason: 'signature header has no timestamp' };
  if (signatures.length === 0) return { ok: false, reason: 'signature header has no v1 signature' };
  if (!anySecretMatches(options.secrets, signatures, `${timestamp}.`, request.body))
    return { ok: false, reason: 'signature mismatch' };
  if (!isWithinTolerance(Number(timestamp), options)) return { ok: false, reason: 'timestamp outside the tolerance' };
  return { ok: true };
};
