import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { RunResult } from '../../../agents/index.js';
import { createError } from '../../../errors.js';
import { CLIENT_BACKLOG_BYTES, createReplySseWriter } from '../../../http/index.js';
import { requestSpan } from '../../../telemetry/index.js';
import { setOverheadHeader, withRetryHint } from '../reply-headers.js';
import { createResponseEvents } from './response-events.js';
import { streamResponse } from './response-stream.js';
import { createResponseBody, deletedResponse, responseObject, responseParams } from './responses.schema.js';
import type { ResponsesService } from './responses.service.js';

export interface ResponsesRoutesOptions {
  responses: ResponsesService;
  /** A stream whose client stopped reading for this long is closed and its run cancelled (`client_stalled`). */
  stalledTimeoutMs?: number;
}

/** The Responses API for agents: `model` names an agent, each response is one run, `previous_response_id` continues. */
export const responsesRoutes: FastifyPluginAsync<ResponsesRoutesOptions> = async (
  app,
  { responses, stalledTimeoutMs },
) => {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.post(
    '/v1/responses',
    {
      config: { auth: { scope: 'chat', agent: (request) => (request.body as { model: string }).model } },
      schema: {
        tags: ['openai'],
        summary: 'Create a response from an agent (OpenAI Responses API); stream: true answers with response.* events',
        body: createResponseBody,
        response: { 200: responseObject },
      },
    },
    async (request, reply) => {
      const { body } = request;
      const started = await responses.start({
        body,
        principal: request.principal,
        parentSpan: requestSpan(request),
      });
      const { run } = started;
      void reply.header('x-run-id', run.runId);
      const finish = (result: RunResult) =>
        responses.finish(started, result).catch((error: unknown) => {
          request.log.error({ err: error, run_id: run.runId }, 'could not store the response');
          throw error;
        });
      if (body.stream) {
        const events = createResponseEvents(started.fields, {
          obfuscate: body.stream_options?.include_obfuscation !== false,
        });
        const sse = createReplySseWriter(reply, {
          headers: () => {
            setOverheadHeader(reply, run.timing.upstreamMsAtFirstText ?? run.timing.upstreamMs);
            return {};
          },
          stalledTimeoutMs,
          backlogBytes: CLIENT_BACKLOG_BYTES,
          // A lapsed credential ends the answer failed; the run goes on.
          lapseEvent: (error) => events.failedWith(error),
        });
        const failure = await streamResponse(run, sse, events, finish);
        if (failure) throw withRetryHint(reply, failure, run.timing.upstreamMs);
        return reply;
      }
      const result = await run.result;
      const response = await finish(result);
      setOverheadHeader(reply, result.upstreamMs);
      if (result.status !== 'completed') throw withRetryHint(reply, result.error);
      return response;
    },
  );

  routes.get(
    '/v1/responses/:response_id',
    {
      config: { auth: { scope: 'chat' } },
      schema: {
        tags: ['openai'],
        summary: 'A stored response of yours (OpenAI Responses API); another caller’s reads as unknown (404)',
        params: responseParams,
        response: { 200: responseObject },
      },
    },
    async (request) => {
      const { response_id } = request.params;
      const response = await responses.find(response_id, request.principal);
      if (!response) throw createError('response_not_found', { response_id });
      return response;
    },
  );

  routes.delete(
    '/v1/responses/:response_id',
    {
      config: { auth: { scope: 'chat' } },
      schema: {
        tags: ['openai'],
        summary: 'Deletes a stored response of yours: it can no longer be retrieved or continued',
        params: responseParams,
        response: { 200: deletedResponse },
      },
    },
    async (request) => {
      const { response_id } = request.params;
      if (!(await responses.delete(response_id, request.principal)))
        throw createError('response_not_found', { response_id });
      return { id: response_id, object: 'response.deleted' as const, deleted: true as const };
    },
  );
};
