import { createHash, createHmac } from 'node:crypto';

export interface SignatureInput {
  method: string;
  /** The request path as sent, without the query. */
  path: string;
  /** ISO 8601 UTC, the value of X-Service-Timestamp. */
  timestamp: string;
  body: string;
  /** The instance secret from enrollment, hex. */
  secretHex: string;
}

/** hex(HMAC-SHA256(key = secret bytes, msg = METHOD \n path \n timestamp \n hex(SHA-256(body)))), the hosted service's scheme. */
export function signRequest(input: SignatureInput): string {
  const bodyHash = createHash('sha256').update(input.body, 'utf8').digest('hex');
  const message = `${input.method.toUpperCase()}\n${input.path}\n${input.timestamp}\n${bodyHash}`;
  return createHmac('sha256', Buffer.from(input.secretHex, 'hex')).update(message, 'utf8').digest('hex');
}

/** The three headers that authenticate an instance to the hosted service. */
export function signedHeaders(instanceId: string, input: SignatureInput): Record<string, string> {
  return {
    'x-service-instance': instanceId,
    'x-service-timestamp': input.timestamp,
    'x-service-signature': signRequest(input),
  };
}
