import { anySecretMatches } from './signature-compare.js';
import { headerValue, isWithinTolerance, type SignatureVerifier } from './verification.types.js';

const TIMESTAMP_HEADER = 'x-slack-request-timestamp';

/**
 * `slack`: `X-Slack-Signature: v0=<hex>` signs `v0:<X-Slack-Request-Timestamp>:<body>`.
 * https://docs.slack.dev/authentication/verifying-requests-from-slack
 */
export const verifySlackSignature: SignatureVerifier = (request, options) => {
  const header = headerValue(request, options.signatureHeader);
  if (!header) return { ok: false, reason: `missing ${options.signatureHeader} header` };
  const timestamp = headerValue(request, TIMESTAMP_HEADER);
  if (!timestamp || !/^\d+$/.test(timestamp))
    return { ok: false, reason: `missing or invalid ${TIMESTAMP_HEADER} header` };
  if (!header.startsWith('v0=')) return { ok: false, reason: 'signature lacks the v0= prefix' };
  if (!anySecretMatches(options.secrets, [header.slice('v0='.length)], `v0:${timestamp}:`, request.body))
    return { ok: false, reason: 'signature mismatch' };
  if (!isWithinTolerance(Number(timestamp), options)) return { ok: false, reason: 'timestamp outside the tolerance' };
  return { ok: true };
};
