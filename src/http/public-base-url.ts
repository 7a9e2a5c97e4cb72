import type { FastifyRequest } from 'fastify';

export interface PublicUrlSettings {
  /** server.public_url (or its older name public_base_url). */
  publicUrl?: string;
  /** server.trust_proxy: only then may the request's Host and X-Forwarded-* headers name the public URL. */
  trustProxy: boolean;
}

/** The headers a response built from resolvePublicBaseUrl varies by: none unless the proxy is trusted. */
export function publicUrlVary(settings: PublicUrlSettings): string[] {
  return !settings.publicUrl && settings.trustProxy ? ['Host', 'X-Forwarded-Host', 'X-Forwarded-Proto'] : [];
}

/**
 * The base URL other systems reach this gateway at, without a trailing slash: the configured
 * public_url; else, behind a trusted proxy, the forwarded (or Host) scheme and host; else the address the
 * server listens on. A request's Host never names it otherwise, so an A2A card or a dashboard login link cannot be
 * pointed elsewhere.
 */
export function resolvePublicBaseUrl(request: FastifyRequest, settings: PublicUrlSettings): string {
  if (settings.publicUrl) return settings.publicUrl.replace(/\/+$/, '');
  if (settings.trustProxy) {
    const proto = firstValue(request.headers['x-forwarded-proto']) ?? 'http';
    const host = firstValue(request.headers['x-forwarded-host']) ?? request.headers.host;
    if (host && /^https?$/.test(proto)) return `${proto}://${host}`;
  }
  return `http://${listenAddress(request)}`;
}

function firstValue(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  return value?.split(',')[0]?.trim() || undefined;
}

/** host:port the server listens on; for a wildcard listener, the local address the connection came in on. */
function listenAddress(request: FastifyRequest): string {
  const bound = request.server.server.address();
  const socket = request.raw.socket;
  const port = typeof bound === 'object' && bound ? bound.port : socket.localPort;
  let address = typeof bound === 'object' && bound ? bound.address : (socket.localAddress ?? '127.0.0.1');
  if (address === '0.0.0.0' || address === '::') address = socket.localAddress ?? '127.0.0.1';
  address = address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');
  return `${address.includes(':') ? `[${address}]` : address}:${port}`;
}
