import { STANDARD_WEBHOOKS_SECRET_PREFIX } from '../../../config/index.js';
import { anyKeyMatches } from './signature-compare.js';
import { headerValue, isUnixSeconds, isWithinTolerance, type SignatureVerifier } from './verification.types.js';

export const STANDARD_WEBHOOK_ID_HEADER = 'webhook-id';
const TIMESTAMP_HEADER = 'webhook-timestamp';

/**
 * The HMAC key of a configured secret: `whsec_<base64>` is the base64-decoded key, as every Standard
 * Webhooks sender issues it; anything else is used as its raw UTF-8 bytes (the reference library's
 * `format: "raw"`), so a shared secret that is not base64 is never silently mis-decoded.
 */
export function standardWebhookKey(secret: string): Buffer {
  return secret.startsWith(STANDARD_WEBHOOKS_SECRET_PREFIX)
    ? Buffer.from(secret.slice(STANDARD_WEBHOOKS_SECRET_PREFIX.length), 'base64')
    : Buffer.from(secret, 'utf8');
}

/**
 * `standard-webhooks`: `webhook-signature: v1,<base64> [v1,<base64>…]` signs `<webhook-id>.<webhook-timestamp>.<body>`;
 * any v1 entry may match (senders send several while rotating), other versions (`v1a` asymmetric) are skipped.
 * https://github.com/standard-webhooks/standard-webhooks/blob/main/spec/standard-webhooks.md
 */
export const verifyStandardWebhookSignature: SignatureVerifier = (request, options) => {
  const header = headerValue(request, options.signatureHeader);
  if (!header) return { ok: false, reason: `missing ${options.signatureHeader} header` };
  const id = headerValue(request, STANDARD_WEBHOOK_ID_HEADER);
  if (!id) return { ok: false, reason: `missing ${STANDARD_WEBHOOK_ID_HEADER} header` };
  const timestamp = headerValue(request, TIMESTAMP_HEADER);
  if (!isUnixSeconds(timestamp)) return { ok: false, reason: `missing or invalid ${TIMESTAMP_HEADER} header` };
  const signatures: string[] = [];
  for (const entry of header.split(' ')) {
    const comma = entry.indexOf(',');
    if (comma > 0 && entry.slice(0, comma) === 'v1') signatures.push(entry.slice(comma + 1));
  }
  if (signatures.length === 0) return { ok: false, reason: 'signature header has no v1 signature' };
  if (
    !anyKeyMatches(options.secrets.map(standardWebhookKey), signatures, 'base64', `${id}.${timestamp}.`, request.body)
  )
    return { ok: false, reason: 'signature mismatch' };
  if (!isWithinTolerance(Number(timestamp), options)) return { ok: false, reason: 'timestamp outside the tolerance' };
  return { ok: true };
};
