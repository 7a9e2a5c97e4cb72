import { requestSpan } from '../../telemetry/index.js';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { CLIENT_CLOSED, CLIENT_STALLED } from '../../agents/index.js';
import { ownerOf } from '../../auth/index.js';
import { createId } from '../../ids.js';
import type { AguiRouteSettings } from './agui-routes-options.js';
import { formatQuery, runsBody } from './agui.schema.js';
import { createAguiSseWriter, createSseSink } from './sse-sink.js';
import { streamRunEvents } from './stream-run-events.js';

/** POST /agui/runs (spec 4.2): starts a run and streams it. Leaving the stream cancels the run. */
export const runsRoutes: FastifyPluginAsync<AguiRouteSettings> = async (app, settings) => {
  const { agents, runs, frames } = settings;
  app.withTypeProvider<ZodTypeProvider>().post(
    '/agui/runs',
    {
      config: {
        auth: { scope: 'chat', agent: (request) => (request.body as { agent_name?: string } | undefined)?.agent_name },
      },
      schema: {
        tags: ['agui'],
        summary: 'Run an agent and stream its events over SSE (AG-UI; ?format=simple for the lower-case set)',
        querystring: formatQuery,
        body: runsBody,
      },
    },
    async (request, reply) => {
      const { body } = request;
      // Both fail as plain JSON errors, before any byte of the stream.
      agents.get(body.agent_name);
      const principal = request.principal;
      // A run without session_id starts a new session of its caller; the id comes back in X-Session-Id. That
      // session counts as active (admin sessions, status, metrics) once the caller continues it.
      const sessionId = body.session_id ?? createId('ses');
      const run = await runs.start({
        agentName: body.agent_name,
        messages: [{ role: 'user', content: body.message }],
        source: 'agui',
        sessionId,
        newSession: body.session_id === undefined,
        parentSpan: requestSpan(request),
        owner: principal && ownerOf(principal),
        tokenId: principal?.kind === 'access_token' ? principal.tokenId : undefined,
        tokenMaxCostUsd: principal?.kind === 'access_token' ? principal.maxCostUsd : undefined,
      });
      void reply.header('x-run-id', run.runId);
      void reply.header('x-session-id', sessionId);
      const framer = frames.open({ runId: run.runId, format: request.query.format });
      const sse = createAguiSseWriter(reply, settings, framer, true);
      sse.onClientGone((reason) => run.control.cancel(reason === 'stalled' ? CLIENT_STALLED() : CLIENT_CLOSED()));
      sse.open();
      await streamRunEvents(run, framer, createSseSink(sse, reply.raw), {
        beforeTerminal: () => run.result,
      });
      sse.end();
      return reply;
    },
  );
};
