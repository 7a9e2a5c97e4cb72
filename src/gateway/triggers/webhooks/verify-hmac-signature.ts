import { anySecretMatches } from './signature-compare.js';
import { headerValue, isUnixSeconds, isWithinTolerance, type SignatureVerifier } from './verification.types.js';

/**
 * `hmac-sha256`: hex HMAC-SHA256 of the body, with an optional `sha256=` prefix. With a timestamp header
 * configured the header is required, the signed message is `<timestamp>.<body>` and the timestamp must be
 * within the tolerance; without one a captured delivery verifies forever and only the body-hash dedupe
 * stops its replay.
 */
export const verifyHmacSignature: SignatureVerifier = (request, options) => {
  const header = headerValue(request, options.signatureHeader);
  if (!header) return { ok: false, reason: `missing ${options.signatureHeader} header` };
  const hex = header.replace(/^sha256=/i, '');
  if (options.timestampHeader === undefined) {
    return anySecretMatches(options.secrets, [hex], request.body)
      ? { ok: true }
      : { ok: false, reason: 'signature mismatch' };
  }
  const timestamp = headerValue(request, options.timestampHeader);
  if (!isUnixSeconds(timestamp)) return { ok: false, reason: `missing or invalid ${options.timestampHeader} header` };
  if (!anySecretMatches(options.secrets, [hex], `${timestamp}.`, request.body))
    return { ok: false, reason: 'signature mismatch' };
  if (!isWithinTolerance(Number(timestamp), options)) return { ok: false, reason: 'timestamp outside the tolerance' };
  return { ok: true };
};

/** `github`: `X-Hub-Signature-256: sha256=<hex>` over the body; the prefix is required. */
export const verifyGithubSignature: SignatureVerifier = (request, options) => {
  const header = headerValue(request, options.signatureHeader);
  if (!header) return { ok: false, reason: `missing ${options.signatureHeader} header` };
  if (!header.startsWith('sha256=')) return { ok: false, reason: 'signature lacks the sha256= prefix' };
  return anySecretMatches(options.secrets, [header.slice('sha256='.length)], request.body)
    ? { ok: true }
    : { ok: false, reason: 'signature mismatch' };
};
