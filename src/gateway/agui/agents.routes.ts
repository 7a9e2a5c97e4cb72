import { requestSpan } from '../../telemetry/index.js';
import { RunAgentInputSchema } from '@ag-ui/core/schemas';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { CLIENT_CLOSED, CLIENT_STALLED } from '../../agents/index.js';
import type { AguiRouteSettings } from './agui-routes-options.js';
import { agentParams, formatQuery } from './agui.schema.js';
import { convertRunAgentInput } from './convert-run-agent-input.js';
import { createAguiSseWriter, createSseSink } from './sse-sink.js';
import { streamRunEvents } from './stream-run-events.js';

/**
 * POST /agui/agents/{name}: the standard AG-UI endpoint, so an @ag-ui/client HttpAgent (or CopilotKit)
 * runs our agents. The client owns the thread: its messages are the whole conversation, nothing is
 * stored server-side, and the events echo its threadId and runId (ours is in the X-Run-Id header).
 */
export const agentsRoutes: FastifyPluginAsync<AguiRouteSettings> = async (app, settings) => {
  const { agents, runs, frames } = settings;
  app.withTypeProvider<ZodTypeProvider>().post(
    '/agui/agents/:name',
    {
      config: { auth: { scope: 'chat', agent: (request) => (request.params as { name: string }).name } },
      schema: {
        tags: ['agui'],
        summary: 'Run an agent from an AG-UI RunAgentInput and stream its AG-UI events over SSE',
        params: agentParams,
        querystring: formatQuery,
        body: RunAgentInputSchema,
      },
    },
    async (request, reply) => {
      const agent = agents.get(request.params.name);
      const input = request.body;
      const { messages, clientTools } = convertRunAgentInput(input);
      const principal = request.principal;
      const run = await runs.start({
        agentName: agent.name,
        messages,
        clientTools,
        source: 'agui',
        parentSpan: requestSpan(request),
        tokenId: principal?.kind === 'access_token' ? principal.tokenId : undefined,
        tokenMaxCostUsd: principal?.kind === 'access_token' ? principal.maxCostUsd : undefined,
        context: (input.context ?? []).map((item) => `${item.description}: ${item.value}`),
      });
      void reply.header('x-run-id', run.runId);
      const framer = frames.open({
        runId: run.runId,
        format: request.query.format,
        identity: { threadId: input.threadId, runId: input.runId },
      });
      const sse = createAguiSseWriter(reply, settings, framer, true);
      sse.onClientGone((reason) => run.control.cancel(reason === 'stalled' ? CLIENT_STALLED() : CLIENT_CLOSED()));
      sse.open();
      await streamRunEvents(run, framer, createSseSink(sse, reply.raw), { beforeTerminal: () => run.result });
      sse.end();
      return reply;
    },
  );
};
