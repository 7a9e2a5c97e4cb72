import type { WebhookConfig, WebhookVerification } from '../../../config/index.js';
import { verifyGithubSignature, verifyHmacSignature } from './verify-hmac-signature.js';
import { verifySlackSignature } from './verify-slack-signature.js';
import { verifyStandardWebhookSignature } from './verify-standard-webhook-signature.js';
import { verifyStripeSignature } from './verify-stripe-signature.js';
import type { SignatureVerifier, SignedRequest, VerificationResult } from './verification.types.js';

const VERIFIERS: Record<WebhookVerification, { verify: SignatureVerifier; header: string }> = {
  'hmac-sha256': { verify: verifyHmacSignature, header: 'x-signature' },
  stripe: { verify: verifyStripeSignature, header: 'stripe-signature' },
  slack: { verify: verifySlackSignature, header: 'x-slack-signature' },
  github: { verify: verifyGithubSignature, header: 'x-hub-signature-256' },
  'standard-webhooks': { verify: verifyStandardWebhookSignature, header: 'webhook-signature' },
};

/** Checks the raw request against the webhook's verification mode and secrets; runs before the body is parsed. */
export function verifyWebhookSignature(webhook: WebhookConfig, request: SignedRequest, now: Date): VerificationResult {
  const { verify, header } = VERIFIERS[webhook.verification];
  const secrets = webhook.secrets ?? (webhook.secret === undefined ? [] : [webhook.secret]);
  if (secrets.length === 0) return { ok: false, reason: 'no secret configured' };
  return verify(request, {
    secrets,
    signatureHeader: (webhook.signature_header ?? header).toLowerCase(),
    timestampHeader: webhook.timestamp_header?.toLowerCase(),
    toleranceSeconds: webhook.tolerance_seconds,
    now,
  });
}
