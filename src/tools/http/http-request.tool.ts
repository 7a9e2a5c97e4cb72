import { fetch } from 'undici';
import { setTraceHeaders } from '../../telemetry/index.js';
import type { BuiltinToolConfig } from '../../config/index.js';
import { createAddressPolicy } from './address-policy.js';
import { createGuardedAgent, refusedAddressOf } from './create-guarded-agent.js';
import { isHostAllowed } from './host-allow-list.js';
import { readLimitedText } from './read-limited-text.js';
import type { RegisteredTool } from '../registered-tool.js';
import { ToolExecutionError } from '../types.js';

const DEFAULT_TIMEOUT_MS = 30_000;
const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/**
 * Built-in `http_request`: GET or POST to hosts in `allowed_hosts` only; redirects are followed only
 * within the list. Whatever the list says (even `*`), loopback, private and other non-public addresses
 * are refused after DNS resolution unless `allow_private` names them.
 */
export function createHttpRequestTool(settings?: BuiltinToolConfig): RegisteredTool {
  const allowedHosts = settings?.allowed_hosts ?? [];
  const dispatcher = createGuardedAgent(createAddressPolicy(settings?.allow_private ?? []));
  return {
    definition: {
      name: 'http_request',
      description: `Sends an HTTP GET or POST request and returns the status and the body text (cut at 32 KiB). ${
        allowedHosts.length > 0
          ? `Allowed hosts: ${allowedHosts.join(', ')}.`
          : 'No host is allowed in this deployment.'
      }`,
      parameters: {
        type: 'object',
        properties: {
          url: { type: 'string', description: 'Absolute http(s) URL' },
          method: { type: 'string', enum: ['GET', 'POST'], default: 'GET' },
          headers: { type: 'object', additionalProperties: { type: 'string' }, description: 'Request headers' },
          body: { type: ['string', 'object'], description: 'Request body for POST: text, or an object sent as JSON' },
        },
        required: ['url'],
        additionalProperties: false,
      },
    },
    timeoutMs: settings?.timeout_ms ?? DEFAULT_TIMEOUT_MS,
    idempotent: settings?.idempotent ?? false,
    async run(args, signal, call) {
      let url = parseUrl(String(args.url));
      if (!isHostAllowed(url, allowedHosts)) throw refused(url, allowedHosts, 'invalid_arguments');
      let method = args.method === 'POST' ? 'POST' : 'GET';
      const headers = new Headers(args.headers as Record<string, string> | undefined);
      // The allow-list is checked on the URL's host; a Host header must not point the request elsewhere.
      headers.delete('host');
      setTraceHeaders(headers, call?.trace);
      let body = method === 'POST' ? encodeBody(args.body, headers) : undefined;

      for (let hop = 0; ; hop++) {
        const response = await fetch(url, { method, headers, body, signal, redirect: 'manual', dispatcher }).catch(
          (error: unknown) => {
            const refused = refusedAddressOf(error);
            throw refused
              ? new ToolExecutionError(`http_request refused: ${refused.message}`, 'invalid_arguments')
              : error;
          },
        );
        const location = response.headers.get('location');
        if (REDIRECT_STATUSES.has(response.status) && location && hop < MAX_REDIRECTS) {
          await response.body?.cancel();
          url = new URL(location, url);
          if (!isHostAllowed(url, allowedHosts)) throw refused(url, allowedHosts, 'failed', 'redirected to ');
          if (response.status === 303 || (response.status !== 307 && response.status !== 308 && method === 'POST')) {
            method = 'GET';
            body = undefined;
            headers.delete('content-type');
          }
          continue;
        }
        const { text, truncated } = await readLimitedText(response);
        return JSON.stringify({
          status: response.status,
          url: url.toString(),
          content_type: response.headers.get('content-type'),
          body: text,
          ...(truncated ? { truncated: true } : {}),
        });
      }
    },
    close: () => dispatcher.close(),
  };
}

function parseUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ToolExecutionError(`url: "${raw}" is not an absolute URL`, 'invalid_arguments');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ToolExecutionError(`url: only http and https URLs are allowed, not ${url.protocol}`, 'invalid_arguments');
  return url;
}

function encodeBody(body: unknown, headers: Headers): string | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return body;
  if (!headers.has('content-type')) headers.set('content-type', 'application/json');
  return JSON.stringify(body);
}

function refused(
  url: URL,
  allowedHosts: string[],
  code: 'invalid_arguments' | 'failed',
  prefix = '',
): ToolExecutionError {
  const reason =
    allowedHosts.length === 0
      ? 'http_request has no allowed_hosts configured, so every host is refused'
      : `allowed hosts: ${allowedHosts.join(', ')}`;
  return new ToolExecutionError(`http_request refused: ${prefix}host "${url.host}" is not allowed (${reason})`, code);
}
