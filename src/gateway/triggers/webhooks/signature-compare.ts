import { createHmac, timingSafeEqual } from 'node:crypto';

const SHA256_HEX = /^[0-9a-fA-F]{64}$/;

export function hmacSha256(secret: string, ...parts: (string | Buffer)[]): Buffer {
  const hmac = createHmac('sha256', secret);
  for (const part of parts) hmac.update(part);
  return hmac.digest();
}

/**
 * Compares a received hex signature with the expected digest in constant time. The shape check comes
 * first because timingSafeEqual needs equal lengths, and Buffer.from(hex) silently drops bad digits.
 */
export function matchesHexSignature(expected: Buffer, receivedHex: string): boolean {
  if (!SHA256_HEX.test(receivedHex)) return false;
  return timingSafeEqual(expected, Buffer.from(receivedHex, 'hex'));
}

/** True when any of the secrets signed the parts with any of the received signatures (secret rotation). */
export function anySecretMatches(secrets: readonly string[], receivedHex: readonly string[], ...parts: (string | Buffer)[]): boolean {
  let matched = false;
  // No early exit: the time taken does not reveal which secret or signature matched.
  for (const secret of secrets) {
    const expected = hmacSha256(secret, ...parts);
    for (const hex of receivedHex) if (matchesHexSignature(expected, hex)) matched = true;
  }
  return matched;
}
