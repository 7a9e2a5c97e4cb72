/**
 * The hosted service's quota report, `X-Service-Quota: tier=…;endpoint=…;used=…;limit=…;reset=…`:
 * `used` and `limit` as numbers, every other field (reset too) as the text the service sent.
 */
export type ServiceQuota = Record<string, string | number>;

const NUMERIC = new Set(['used', 'limit']);

/** Parses the header; undefined when it is absent or has no `key=value` part. */
export function parseQuotaHeader(header: string | null | undefined): ServiceQuota | undefined {
  if (!header) return undefined;
  const quota: ServiceQuota = {};
  for (const part of header.split(';')) {
    const index = part.indexOf('=');
    if (index <= 0) continue;
    const key = part.slice(0, index).trim().toLowerCase();
    const value = part.slice(index + 1).trim();
    if (!/^[a-z0-9_-]+$/.test(key)) continue;
    const number = Number(value);
    quota[key] = NUMERIC.has(key) && value !== '' && Number.isFinite(number) ? number : value;
  }
  return Object.keys(quota).length > 0 ? quota : undefined;
}
