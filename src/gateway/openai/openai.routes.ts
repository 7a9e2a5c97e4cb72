import type { FastifyPluginAsync } from 'fastify';
import type { AgentRegistry, RunService } from '../../agents/index.js';
import { chatCompletionsRoutes } from './chat-completions.routes.js';
import { modelsRoutes } from './models.routes.js';
import { responsesRoutes, type ResponsesService } from './responses/index.js';

export interface OpenAiRoutesOptions {
  agents: AgentRegistry;
  runs: RunService;
  /** The Responses API over the same runs, with its stored responses. */
  responses: ResponsesService;
  /** A stream whose client stopped reading for this long is closed and its run cancelled. */
  stalledTimeoutMs?: number;
}

/** The OpenAI-compatible surface: any OpenAI client works by changing its base URL to `<gateway>/v1`. */
export const openaiRoutes: FastifyPluginAsync<OpenAiRoutesOptions> = async (app, options) => {
  await app.register(chatCompletionsRoutes, options);
  await app.register(responsesRoutes, { responses: options.responses, stalledTimeoutMs: options.stalledTimeoutMs });
  await app.register(modelsRoutes, { agents: options.agents });
};
