import { requestSpan } from '../../../telemetry/index.js';
import { A2A_VERSION_HEADER, HTTP_EXTENSION_HEADER } from '@a2a-js/sdk';
import { LEGACY_HTTP_EXTENSION_HEADER } from '@a2a-js/sdk/compat/v0_3';
import type { ServerCallContext } from '@a2a-js/sdk/server';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AuthenticationError, NotFoundError } from '../../../errors.js';
import { a2aVersionHeaders, agentNameParams } from '../a2a.schema.js';
import type { AgentHandlers } from '../agent-handlers.js';
import { createCallContext } from '../call-context.js';
import { checkJsonRpcEnvelope } from './check-json-rpc-envelope.js';
import { hideInternalErrorIn, INTERNAL_ERROR } from './hide-internal-error.js';
import {
  createJsonRpcDispatcher,
  isLegacyVersion,
  normalizeVersion,
  type JsonRpcDispatcher,
} from './json-rpc-dispatcher.js';
import { jsonRpcIdOf, mapToJsonRpcErrorReply } from './json-rpc-error-reply.js';
import { writeSseStream } from '../sse-stream.js';
import { resolvePublicBaseUrl, type PublicUrlSettings } from '../cards/resolve-public-base-url.js';
import { checkA2aRestrictions } from './check-a2a-restrictions.js';
import { answersErrorsAsStream, sendStreamError } from './stream-error-reply.js';

export interface JsonRpcRoutesOptions {
  handlers: AgentHandlers;
  /** Where the extended card says the agent is (as the public cards do). */
  publicUrl: PublicUrlSettings;
  /** A streaming client that reads nothing for this long is disconnected (its task goes on). */
  stalledTimeoutMs?: number;
}

const INVALID_REQUEST = -32600;

/**
 * POST /a2a/{name}: the SDK's JSON-RPC transport on our server. A2A 1.0 methods (SendMessage,
 * SendStreamingMessage, GetTask, ListTasks, CancelTask, SubscribeToTask) and, for v0.3 peers,
 * message/send, message/stream, tasks/get, tasks/cancel, tasks/resubscribe.
 */
export const jsonRpcRoutes: FastifyPluginAsync<JsonRpcRoutesOptions> = async (
  app,
  { handlers, publicUrl, stalledTimeoutMs },
) => {
  const dispatchers = new Map(handlers.names().map((name) => [name, createJsonRpcDispatcher(handlers.get(name)!)]));
  // JSON-RPC comes as application/json only, as the SDK's own server requires: text/plain is 415 (-32005).
  app.removeContentTypeParser('text/plain');

  // Encapsulated: failures before the SDK (401/403 from the auth hook, 404, bad JSON) answer as JSON-RPC.
  app.setErrorHandler((error, request, reply) => {
    const answer = mapToJsonRpcErrorReply(
      error,
      jsonRpcIdOf(request.body),
      isLegacyVersion(header(request, A2A_VERSION_HEADER)),
    );
    if (answer.status >= 500) request.log.error({ err: error }, 'A2A request failed');
    return reply.code(answer.status).headers(answer.headers).type('application/json').send(answer.body);
  });

  // The same endpoint with the trailing slash the index's `endpoint` carries (cards.routes.ts).
  app.addHook('onRoute', (route) => {
    if (route.url === '/a2a/:name')
      app.route({ ...route, url: '/a2a/:name/', schema: { ...route.schema, hide: true } });
  });

  app.withTypeProvider<ZodTypeProvider>().post(
    '/a2a/:name',
    {
      config: { auth: { scope: 'a2a', agent: (request) => (request.params as { name: string }).name } },
      schema: {
        tags: ['a2a'],
        summary:
          'A2A JSON-RPC endpoint of an agent (A2A 1.0, and v0.3 when no A2A-Version header is sent); streaming methods answer with SSE (v0.3 message/stream and tasks/resubscribe even an error before their first event: an `error` event carrying the JSON-RPC error)',
        params: agentNameParams,
        headers: a2aVersionHeaders,
        body: z.unknown().describe('A JSON-RPC 2.0 request'),
      },
    },
    async (request, reply) => {
      const dispatcher = dispatchers.get(request.params.name);
      if (!dispatcher)
        throw new NotFoundError(`No agent named "${request.params.name}" is published over A2A`, 'agent_not_found');
      const endpoint = `${resolvePublicBaseUrl(request, publicUrl)}/a2a/${encodeURIComponent(request.params.name)}`;
      const { context, legacy } = callContextOf(request, endpoint);
      const id = jsonRpcIdOf(request.body);
      // Answered as the SDK answers its own -32600: HTTP 200, the id echoed when there is a valid one.
      const problem = checkJsonRpcEnvelope(request.body);
      if (problem)
        return reply
          .code(200)
          .send({ jsonrpc: '2.0', id, error: { code: INVALID_REQUEST, message: `Invalid Request: ${problem}` } });
      // Refused like a token of another agent: 403 with a JSON-RPC error naming why (a2a_method_not_allowed, ...).
      checkA2aRestrictions(request.principal!, request.body as { method: string; params?: unknown });
      // Once the request is valid JSON-RPC every failure is a JSON-RPC error with HTTP 200, as the SDK answers
      // errors inside its responses and before a stream's first event: odd params must never make a 500.
      // A v0.3 streaming method's caller reads SSE: its errors before the first event come as an `error` event.
      const asStream = answersErrorsAsStream((request.body as { method: unknown }).method, legacy);
      const answer = (response: object) =>
        asStream && 'error' in response ? sendStreamError(reply, response) : reply.code(200).send(response);
      const fail = (error: unknown) => {
        const rpcError = dispatcher.mapError(error, legacy);
        if (rpcError.code === INTERNAL_ERROR) request.log.error({ err: error }, 'A2A request failed');
        return answer({ jsonrpc: '2.0', id, error: rpcError });
      };

      let outcome;
      try {
        outcome = await dispatcher.dispatch(request.body, context);
      } catch (error) {
        return fail(error);
      }
      if (outcome.kind === 'single') {
        const { response, hidden } = hideInternalErrorIn(outcome.response);
        if (hidden !== undefined) request.log.error({ a2a_error: hidden }, 'A2A request failed inside the SDK');
        return answer(response);
      }

      // An error before the first event is a JSON-RPC answer (an SSE error event for v0.3), after it an SSE error event.
      const iterator = outcome.responses;
      let first;
      try {
        first = await iterator.next();
      } catch (error) {
        return fail(error);
      }
      if (first.done) return reply.code(200).send();
      return streamRest(reply, first.value, iterator, dispatcher, { id, legacy, stalledTimeoutMs });
    },
  );
};

async function streamRest(
  reply: FastifyReply,
  first: object,
  rest: AsyncGenerator<object, void, undefined>,
  dispatcher: JsonRpcDispatcher,
  call: { id: string | number | null; legacy: boolean; stalledTimeoutMs?: number },
): Promise<FastifyReply> {
  reply.hijack();
  await writeSseStream(reply.raw, first, rest, {
    headers: reply.getHeaders(),
    stalledTimeoutMs: call.stalledTimeoutMs,
    errorEnvelope: (error) => ({ jsonrpc: '2.0', id: call.id, error: dispatcher.mapError(error, call.legacy) }),
    onError: (error) => reply.log.warn({ err: error }, 'A2A stream failed after it started'),
    // A lapsed credential: the JSON-RPC error the auth hook's 401 gets (-32000, the code in data), as an SSE event.
    credential: reply.request.watchCredential && ((onLapse) => reply.request.watchCredential!(onLapse)),
    lapseEnvelope: (error) => mapToJsonRpcErrorReply(error, call.id, call.legacy).body,
  });
  return reply;
}

/** The SDK's call context: who calls (our auth hook decided) and which protocol version they speak. */
function callContextOf(request: FastifyRequest, endpoint: string): { context: ServerCallContext; legacy: boolean } {
  if (!request.principal) throw new AuthenticationError();
  const version = normalizeVersion(header(request, A2A_VERSION_HEADER));
  const legacy = isLegacyVersion(version);
  // v0.3 peers name the extensions header X-A2A-Extensions.
  const extensions =
    (legacy ? header(request, LEGACY_HTTP_EXTENSION_HEADER) : undefined) ?? header(request, HTTP_EXTENSION_HEADER);
  return {
    context: createCallContext({
      principal: request.principal,
      requestedVersion: version,
      extensions,
      headers: request.headers,
      endpoint,
      trace: requestSpan(request),
    }),
    legacy,
  };
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(',') : value;
}
