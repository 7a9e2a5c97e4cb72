/**
 * True when `url`'s host matches an allow-list entry: `example.com` (any port), `example.com:8080`
 * (that port only), `*.example.com` (its subdomains) or `*` (every host, an explicit opt-in).
 * An empty list allows nothing.
 */
export function isHostAllowed(url: URL, allowedHosts: readonly string[]): boolean {
  const hostname = url.hostname.toLowerCase();
  const host = url.host.toLowerCase();
  return allowedHosts.some((entry) => {
    const pattern = entry.trim().toLowerCase();
    if (pattern === '*') return true;
    if (pattern.startsWith('*.')) return hostname.endsWith(pattern.slice(1));
    return pattern === hostname || pattern === host;
  });
}
