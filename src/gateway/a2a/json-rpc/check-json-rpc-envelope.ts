/**
 * What is wrong with a request body as a JSON-RPC 2.0 request, or undefined when it is one: an object
 * with `jsonrpc: "2.0"`, a non-empty string `method`, an `id` that is a string, a number or null when
 * present, and `params` that are an object or an array when present. Checked before the SDK's transports
 * touch the body: they read `body.id` of whatever they are given (a `null` body threw inside them).
 */
export function checkJsonRpcEnvelope(body: unknown): string | undefined {
  if (Array.isArray(body)) return 'batch requests are not supported; send one request object';
  if (typeof body !== 'object' || body === null) return 'the body must be a JSON-RPC request object';
  const request = body as Record<string, unknown>;
  if (request.jsonrpc !== '2.0') return 'jsonrpc must be "2.0"';
  if (typeof request.method !== 'string' || request.method === '') return 'method must be a non-empty string';
  if ('id' in request && !isJsonRpcId(request.id)) return 'id must be a string, a number or null';
  if ('params' in request && (typeof request.params !== 'object' || request.params === null))
    return 'params must be an object or an array';
  return undefined;
}

function isJsonRpcId(id: unknown): boolean {
  return id === null || typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id));
}
