import { requestSpan } from '../../telemetry/index.js';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ownerOf, type Principal } from '../../auth/index.js';
import { createError, NotFoundError, ValidationError } from '../../errors.js';
import type { AguiRouteSettings } from './agui-routes-options.js';
import { wsQuery } from './agui.schema.js';
import { createAguiSseWriter, createSseSink } from './sse-sink.js';
import { streamRunEvents } from './stream-run-events.js';
import { createErrorFrame, serveWsSession, WS_POLICY_VIOLATION } from './ws-session.js';

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
  const admitRun = settings.admitRun;
  /** Open sockets per principal (connectionKey), on this replica. */
  const openSockets = new Map<string, number>();

  app.withTypeProvider<ZodTypeProvider>().route({
    method: 'GET',
    url: '/agui/ws',
    config: {
      auth: {
        scope: 'chat',
        agent: (request) => targetAgent.get(request),
        queryToken: true,
        // A socket's runs are admitted one by one: a use of a token and a request of the limits each.
        perRun: (request) => Boolean(request.ws),
      },
    },
    schema: {
      tags: ['agui'],
      summary: 'SSE: attach to a run (?run_id=, honours Last-Event-ID). WebSocket: talk to an agent (?agent_name=)',
      description:
        'WebSocket: each `{"type":"message"}` frame starts a run, admitted as a new request would be: the ' +
        'credential is checked again (revoked, deleted, expired or a spent single-use token: an error frame ' +
        '`{"type":"error","error":{type,code,message}}`, then close 1008 with the code as reason), an access ' +
        "token's use is taken, then the rate limits (a refused run gets an error frame `rate_limited` or " +
        '`token_rate_limited`; the socket stays open). One more socket than server.ws_max_connections_per_principal ' +
        'for a credential gets an error frame `too_many_connections` and close 1008; a socket idle for ' +
        'server.ws_idle_timeout_seconds (no run, no frame) is closed with 1000 `idle_timeout`. A socket whose ' +
        "credential lapses while it is open (a JWT's exp, an access token's expires_at, or revoked or deleted, seen " +
        'within auth.stream_recheck_seconds) gets the same error frame and close 1008 then; a run under way goes on to its end.',
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
      // An access token attaches only to the runs it started: another token's run, of its agent or any other, reads
      // as unknown (a 403 would confirm that the id exists). Operators attach to any.
      if (principal?.kind === 'access_token') {
        const record = (await runs.find(query.run_id))?.run;
        if (!record || record.token_id !== principal.tokenId) throw runNotFound(query.run_id);
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
      const framer = frames.open({ runId, format: request.query.format });
      const sse = createAguiSseWriter(reply, settings, framer);
      // The client gone, or its credential lapsed (the writer sent the error frame): the run goes on, unwatched.
      sse.signal.addEventListener('abort', () => detach.abort(), { once: true });
      sse.open();
      await streamRunEvents(source, framer, createSseSink(sse, reply.raw), { afterSeq: lastEventId(request) });
      sse.end();
      detach.abort();
      return reply;
    },
    wsHandler: (socket, request) => {
      const principal = request.principal;
      const key = principal && connectionKey(principal);
      const max = settings.maxConnectionsPerPrincipal;
      if (key !== undefined && max !== undefined) {
        const count = openSockets.get(key) ?? 0;
        // Refused after the upgrade, so a browser's WebSocket sees the reason (it cannot read a refused upgrade's body).
        if (count >= max) {
          const error = createError('too_many_connections', { limit: max });
          socket.send(JSON.stringify(createErrorFrame(error)));
          socket.close(WS_POLICY_VIOLATION, error.code);
          return;
        }
        openSockets.set(key, count + 1);
        socket.on('close', () => {
          const left = (openSockets.get(key) ?? 1) - 1;
          if (left > 0) openSockets.set(key, left);
          else openSockets.delete(key);
        });
      }
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
        admit: admitRun && (() => admitRun(request)),
        credential: request.watchCredential && ((onLapse) => request.watchCredential!(onLapse)),
        idleTimeoutMs: settings.idleTimeoutMs,
      });
    },
  });
};

/** Whose sockets count together: one access token, one JWT subject, one API key. */
function connectionKey(principal: Principal): string {
  return principal.kind === 'access_token' ? `token:${principal.tokenId}` : ownerOf(principal);
}

function runNotFound(runId: string): NotFoundError {
  return new NotFoundError(`No run "${runId}"`, 'run_not_found');
}

/** EventSource sends the id of the last event it saw when it reconnects. */
function lastEventId(request: FastifyRequest): number {
  const header = request.headers['last-event-id'];
  const value = Number(Array.isArray(header) ? header[0] : header);
  return Number.isInteger(value) && value > 0 ? value : 0;
}
