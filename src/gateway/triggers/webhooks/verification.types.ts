/** A request as signature verification sees it: Node's lower-cased headers and the raw body bytes. */
export interface SignedRequest {
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export interface VerifySignatureOptions {
  secrets: readonly string[];
  /** Lower-cased header name that carries the signature. */
  signatureHeader: string;
  /** Lower-cased header with the signed unix-seconds timestamp (`hmac-sha256`'s `timestamp_header`); unset: none. */
  timestampHeader?: string;
  toleranceSeconds: number;
  now: Date;
}

/** `reason` is for the log only; clients get one generic 401. */
export type VerificationResult = { ok: true } | { ok: false; reason: string };

export type SignatureVerifier = (request: SignedRequest, options: VerifySignatureOptions) => VerificationResult;

/** One header value; a repeated header is ambiguous and treated as absent. */
export function headerValue(request: SignedRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** A unix-seconds timestamp as senders write it: digits only. */
export function isUnixSeconds(value: string | undefined): value is string {
  return value !== undefined && /^\d{1,12}$/.test(value);
}

export function isWithinTolerance(timestampSeconds: number, options: VerifySignatureOptions): boolean {
  return Math.abs(options.now.getTime() / 1000 - timestampSeconds) <= options.toleranceSeconds;
}
