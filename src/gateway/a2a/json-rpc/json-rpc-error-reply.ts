import { ERROR_INFO_TYPE } from '@a2a-js/sdk/errors';
import { isAppError } from '../../../errors.js';

/** JSON-RPC's "server error" code: A2A defines none for authentication, so our HTTP-level errors use it. */
export const GATEWAY_ERROR_CODE = -32000;
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
const INTERNAL_ERROR = -32603;
const CONTENT_TYPE_NOT_SUPPORTED = -32005;
const ERROR_DOMAIN = 'agent-gateway';

/** Our error codes that have a JSON-RPC or A2A code of their own. */
const RPC_CODES: Partial<Record<string, number>> = {
  invalid_json: PARSE_ERROR,
  json_too_deep: INVALID_REQUEST,
  unsupported_media_type: CONTENT_TYPE_NOT_SUPPORTED,
};

export interface JsonRpcErrorReply {
  status: number;
  headers: Record<string, string>;
  body: { jsonrpc: '2.0'; id: string | number | null; error: { code: number; message: string; data?: unknown } };
}

/** The parts of a Fastify error this mapping reads. */
interface HttpError {
  statusCode?: number;
  code?: string;
  message: string;
}

/**
 * Errors raised before the SDK sees a request (authentication, scope, unknown agent, unreadable body)
 * as the JSON-RPC envelope the SDK's clients parse, keeping the HTTP status (401/403/404/...). The
 * `data` member follows the caller's version: google.rpc.ErrorInfo entries for 1.0, an object for 0.3.
 */
export function mapToJsonRpcErrorReply(error: unknown, id: string | number | null, legacy: boolean): JsonRpcErrorReply {
  const { status, type, code, message } = describe(error as HttpError);
  const rpcCode = RPC_CODES[code] ?? (status >= 500 ? INTERNAL_ERROR : GATEWAY_ERROR_CODE);
  const data = legacy
    ? { type, code }
    : [{ '@type': ERROR_INFO_TYPE, reason: code.toUpperCase(), domain: ERROR_DOMAIN, metadata: { type, code } }];
  const headers: Record<string, string> =
    status === 401 ? { 'www-authenticate': `Bearer realm="${ERROR_DOMAIN}"` } : {};
  return { status, headers, body: { jsonrpc: '2.0', id, error: { code: rpcCode, message, data } } };
}

function describe(error: HttpError): { status: number; type: string; code: string; message: string } {
  if (isAppError(error)) return { status: error.status, type: error.type, code: error.code, message: error.message };
  const status = error.statusCode ?? 500;
  if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError)
    return { status: 400, type: 'invalid_request_error', code: 'invalid_json', message: 'Invalid JSON payload' };
  if (status === 415)
    return {
      status,
      type: 'invalid_request_error',
      code: 'unsupported_media_type',
      message: 'Content-Type must be application/json',
    };
  if (status === 413)
    return { status, type: 'payload_too_large_error', code: 'payload_too_large', message: 'Request body is too large' };
  if (status >= 400 && status < 500)
    return { status, type: 'invalid_request_error', code: 'invalid_request', message: error.message };
  return { status: 500, type: 'server_error', code: 'internal_error', message: 'Internal server error' };
}

/** The request id to echo: only a string or number id is one. */
export function jsonRpcIdOf(body: unknown): string | number | null {
  const id = (body as { id?: unknown } | undefined)?.id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}
