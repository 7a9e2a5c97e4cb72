import type { FastifyRequest } from 'fastify';
import { PermissionError } from '../errors.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

export interface CookieRequestPolicy {
  /** Origins allowed besides the server's own (server.cors.origins), e.g. https://dashboard.example. */
  allowedOrigins: string[];
  /** server.public_url: its origin is the server's own too. */
  publicBaseUrl?: string;
}

/**
 * A browser attaches the `service_auth` cookie to requests any site makes, so a state change
 * authenticated by it must come from a page of ours: a JSON body (a cross-site form or a no-CORS fetch
 * cannot send one) and an Origin (or, without it, a Referer) that is the server's own or allowed.
 * WebSocket upgrades need the Origin as well. Throws 403 otherwise. Requests authenticated by a header
 * are not affected: a browser never adds those on its own.
 */
export function checkCookieRequest(request: FastifyRequest, policy: CookieRequestPolicy): void {
  // A WebSocket opens with a GET that any page may send, and then starts runs: its Origin is checked too.
  const upgrade = request.headers.upgrade !== undefined;
  if (SAFE_METHODS.has(request.method) && !upgrade) return;
  const contentType = request.headers['content-type'];
  if (!upgrade && hasBody(request) && !(contentType && JSON_TYPE.test(contentType))) {
    throw new PermissionError(
      'A request authenticated by the service_auth cookie that changes state must send its body as application/json',
      'cookie_request_not_json',
    );
  }
  const origin = originOf(request);
  if (!origin)
    throw new PermissionError(
      'A request authenticated by the service_auth cookie that changes state must send an Origin (or Referer) header',
      'cookie_request_without_origin',
    );
  if (!isAllowed(origin, request, policy)) {
    throw new PermissionError(
      `Origin ${origin} may not use the service_auth cookie to change state; use an Authorization header, or add it to server.cors.origins`,
      'cross_origin_request',
    );
  }
}

function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined;
}

/** The Origin header, or the origin of the Referer; undefined when neither is usable ("null" included). */
function originOf(request: FastifyRequest): string | undefined {
  const origin = request.headers.origin;
  if (origin) return origin === 'null' ? undefined : normalizeOrigin(origin);
  const referer = request.headers.referer;
  return referer ? normalizeOrigin(referer) : undefined;
}

function normalizeOrigin(value: string): string | undefined {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

function isAllowed(origin: string, request: FastifyRequest, policy: CookieRequestPolicy): boolean {
  if (policy.allowedOrigins.some((allowed) => normalizeOrigin(allowed) === origin)) return true;
  if (policy.publicBaseUrl && normalizeOrigin(policy.publicBaseUrl) === origin) return true;
  // Same origin as the request: a browser sends the Host it connects to, which a page elsewhere cannot change.
  return new URL(origin).host === request.headers.host;
}
