import type { FastifyInstance, InjectOptions } from 'fastify';

/**
 * fetch() through Fastify's inject() (light-my-request): the request runs every hook, route and error handler the
 * real server runs, with no socket and no port. The fast tier: for tests of HTTP behaviour only (status codes,
 * bodies, headers, validation errors). A test of connections, streaming, backpressure, disconnects or two
 * processes listens and uses fetch.
 */
export async function injectFetch(server: FastifyInstance, path: string, init: RequestInit = {}): Promise<Response> {
  const method = (init.method ?? 'GET').toUpperCase();
  const headers: Record<string, string> = { accept: '*/*', ...Object.fromEntries(new Headers(init.headers).entries()) };
  const body = init.body ?? undefined;
  if (body !== undefined && typeof body !== 'string') throw new TypeError('injectFetch sends string bodies only');
  // fetch labels a string body text/plain when the caller names no type; so does this, to reach the same code.
  if (body !== undefined && headers['content-type'] === undefined) headers['content-type'] = 'text/plain;charset=UTF-8';
  const reply = await server.inject({
    method: method as InjectOptions['method'],
    url: path,
    headers,
    ...(body === undefined ? {} : { payload: body }),
  });
  const responseHeaders = new Headers();
  for (const [name, value] of Object.entries(reply.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) responseHeaders.append(name, String(one));
  }
  const noBody = method === 'HEAD' || [204, 205, 304].includes(reply.statusCode);
  return new Response(noBody ? null : reply.rawPayload, { status: reply.statusCode, headers: responseHeaders });
}
