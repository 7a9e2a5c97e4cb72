import { anySecretMatches } from './signature-compare.js';
import { headerValue, type SignatureVerifier } from './verification.types.js';

/** `hmac-sha256`: hex HMAC-SHA256 of the body, with an optional `sha256=` prefix. */
export const verifyHmacSignature: SignatureVerifier = (request, options) => {
  const header = headerValue(request, options.signatureHeader);
  if (!header) return { ok: false, reason: `missing ${options.signatureHeader} header` };
  const hex = header.replace(/^sha256=/i, '');
  return anySecretMatches(options.secrets, [hex], request.body) ? { ok: true } : { ok: false, reason: 'signature mismatch' };
};

/** `github`: `X-Hub-Signature-256: sha256=<hex>` over the body; the prefix is required. */
export const verifyGithubSignature: SignatureVerifier = (request, options) => {
  const header = headerValue(request, options.signatureHeader);
  if (!header) return { ok: false, reason: `missing ${options.signatureHeader} header` };
  if (!header.startsWith('sha256=')) return { ok: false, reason: 'signature lacks the sha256= prefix' };
  return anySecretMatches(options.secrets, [header.slice('sha256='.length)], request.body) ? { ok: true } : { ok: false, reason: 'signature mismatch' };
};
