import { createHmac, timingSafeEqual } from 'node:crypto';

/** How a received signature spells the 32 digest bytes. */
export type SignatureEncoding = 'hex' | 'base64';

const SHA256_SHAPE: Record<SignatureEncoding, RegExp> = {
  hex: /^[0-9a-fA-F]{64}$/,
  base64: /^[A-Za-z0-9+/]{43}=$/,
};

/** A string key is used as its UTF-8 bytes; a Buffer as is (Standard Webhooks' decoded `whsec_` keys). */
export function hmacSha256(key: string | Buffer, ...parts: (string | Buffer)[]): Buffer {
  const hmac = createHmac('sha256', key);
  for (const part of parts) hmac.update(part);
  return hmac.digest();
}

/**
 * Compares a received signature with the expected digest in constant time. The shape check comes first
 * because timingSafeEqual needs equal lengths, and Buffer.from(text, encoding) silently drops bad digits.
 */
export function matchesSignature(expected: Buffer, received: string, encoding: SignatureEncoding): boolean {
  if (!SHA256_SHAPE[encoding].test(received)) return false;
  return timingSafeEqual(expected, Buffer.from(received, encoding));
}

/** True when any of the keys signed the parts with any of the received signatures (secret rotation). */
export function anyKeyMatches(
  keys: readonly (string | Buffer)[],
  received: readonly string[],
  encoding: SignatureEncoding,
  ...parts: (string | Buffer)[]
): boolean {
  let matched = false;
  // No early exit: the time taken does not reveal which secret or signature matched.
  for (const key of keys) {
    const expected = hmacSha256(key, ...parts);
    for (const signature of received) if (matchesSignature(expected, signature, encoding)) matched = true;
  }
  return matched;
}

/** anyKeyMatches for hex signatures, which every mode but standard-webhooks sends. */
export function anySecretMatches(
  secrets: readonly string[],
  receivedHex: readonly string[],
  ...parts: (string | Buffer)[]
): boolean {
  return anyKeyMatches(secrets, receivedHex, 'hex', ...parts);
}
