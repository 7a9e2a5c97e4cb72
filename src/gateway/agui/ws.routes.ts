import { requestSpan } from '../../telemetry/index.js';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ownerOf } from '../../auth/index.js';
import { NotFoundError, ValidationError } from '../../errors.js';
import type { AguiRouteSettings } from './agui-routes-options.js';
import { wsQuery } from './agui.schema.js';
import { createAguiSseWriter, createSseSink } from './sse-sink.js';
import { streamRunEvents } from './stream-run-events.js';
import { serveWsSession } from './ws-session.js';

type WsQuery = { run_id?: string; agent_name?: string };

/**
 * GET /agui/ws (spec 4.2), two protocols on one path: a plain GET with `run_id` attaches to a run over
 * SSE (its log, then live events; leaving only detaches), and a WebSocket upgrade opens a conversation
 * with `?agent_name=` (an extension), else an access token's own agent, else the default agent. Both
 * accept `?access_token=` for browsers.
 */
export const wsRoutes: FastifyPluginAsync<AguiRouteSettings> = async (app, settings) => {
  const { agents, runs, heartbeatMs, frames, defaultAgent } = settings;
  // The agent a request reaches, found before the auth preHandler binds an access token to it.
  const targetAgent = new WeakMap<FastifyRequest, string>();

  app.withTypeProvider<ZodTypeProvider>().route({
    method: 'GET',
    url: '/agui/ws',
    config: { auth: { scope: 'chat', agent: (request) => targetAgent.get(request), queryToken: true } },
    schema: {
      tags: ['agui'],
      summary: 'SSE: attach to a run (?run_id=, honours Last-Event-ID). WebSocket: talk to an agent (?agent_name=)',
      querystring: wsQuery,
    },
    // preValidation runs before the auth preHandler, so an unknown run or agent is a 404 and a token is never spent on it.
    preValidation: async (request) => {
      // A query the schema refuses is left to the validation that follows: 400 naming the parameter.
      if (!wsQuery.safeParse(request.query).success) return;
      const query = request.query as WsQuery;
      if (request.ws) {
        const principal = request.principal;
        const agentName = query.agent_name ?? (principal?.kind === 'access_token' ? principal.agentName : defaultAgent);
        if (!agentName)
          throw new ValidationError(
            'agent_name is required to open a WebSocket: no agent is configured',
            'missing_agent_name',
          );
        targetAgent.set(request, agents.get(agentName).name);
        return;
      }
      if (!query.run_id)
        throw new ValidationError('run_id is required (or open a WebSocket with agent_name)', 'missing_run_id');
      const principal = request.principal;
      // An access token attaches only to the runs it started (another token's run reads as unknown); operators to any.
      if (principal?.kind === 'access_token') {
        const record = (await runs.find(query.run_id))?.run;
        if (!record || (record.token_id !== principal.tokenId && record.agent_name === principal.agentName))
          throw runNotFound(query.run_id);
        targetAgent.set(request, record.agent_name);
        return;
      }
      const agentName = runs.live(query.run_id)?.agentName ?? (await runs.find(query.run_id))?.run.agent_name;
      if (!agentName) throw runNotFound(query.run_id);
      targetAgent.set(request, agentName);
    },
    handler: async (request, reply) => {
      const runId = request.query.run_id as string;
      const detach = new AbortController();
      // Replayed from the start: the events the client already has only rebuild the mapper's ids.
      const source = await runs.attach(runId, { afterSeq: 0, signal: detach.signal });
      if (!source) throw runNotFound(runId);
      void reply.header('x-run-id', runId);
      const sse = createAguiSseWriter(reply, settings);
      sse.onClientGone(() => detach.abort());
      sse.open();
      await streamRunEvents(
        source,
        frames.open({ runId, format: request.query.format }),
        createSseSink(sse, reply.raw),
        {
          afterSeq: lastEventId(request),
        },
      );
      sse.end();
      detach.abort();
      return reply;
    },
    wsHandler: (socket, request) => {
      const principal = request.principal;
      serveWsSession(socket, {
        agentName: targetAgent.get(request) as string,
        format: request.query.format,
        sessionId: request.query.session_id,
        owner: principal && ownerOf(principal),
        runs,
        tokenId: principal?.kind === 'access_token' ? principal.tokenId : undefined,
        tokenMaxCostUsd: principal?.kind === 'access_token' ? principal.maxCostUsd : undefined,
        heartbeatMs,
        stalledTimeoutMs: settings.stalledTimeoutMs,
        frames,
        log: request.log,
        trace: requestSpan(request),
        connection: request.raw.socket,
      });
    },
  });
};

function runNotFound(runId: string): NotFoundError {
  return new NotFoundError(`No run "${runId}"`, 'run_not_found');
}

/** EventSource sends the id of the last event it saw when it reconnects. */
function lastEventId(request: FastifyRequest): number {
  const header = request.headers['last-event-id'];
  const value = Number(Array.isArray(header) ? header[0] : header);
  return Number.isInteger(value) && value > 0 ? value : 0;
}
