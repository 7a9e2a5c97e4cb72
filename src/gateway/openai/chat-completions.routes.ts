import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AgentRegistry, RunService } from '../../agents/index.js';
import type { AppError } from '../../errors.js';
import { createChatCompletion, createCompletionIdentity } from './chat-completion.js';
import { streamChatCompletion } from './chat-completion-stream.js';
import { chatCompletionBody, chatCompletionHeaders, chatCompletionResponse } from './chat-completions.schema.js';
import { convertToChatMessages } from './convert-to-chat-messages.js';
import { isRetryable, modelNotFound } from './openai-errors.js';
import { createSseResponse } from './sse-response.js';

export interface ChatCompletionsRoutesOptions {
  agents: AgentRegistry;
  runs: RunService;
}

/** POST /v1/chat/completions (spec 4.1): `model` names an agent; each request is one run. */
export const chatCompletionsRoutes: FastifyPluginAsync<ChatCompletionsRoutesOptions> = async (app, { agents, runs }) => {
  app.withTypeProvider<ZodTypeProvider>().post('/v1/chat/completions', {
    config: { auth: { scope: 'chat', agent: (request) => (request.body as { model: string }).model } },
    schema: {
      tags: ['openai'],
      summary: 'Chat with an agent (OpenAI-compatible); stream: true answers with chat.completion.chunk events',
      headers: chatCompletionHeaders,
      body: chatCompletionBody,
      response: { 200: chatCompletionResponse },
    },
  }, async (request, reply) => {
    const { body } = request;
    if (!agents.has(body.model)) throw modelNotFound(body.model);
    const sessionId = request.headers['x-session-id'];
    const principal = request.principal;
    // No abort signal: a non-streamed run outlives its client; a streamed one is cancelled by the stream.
    const run = await runs.start({
      agentName: body.model,
      messages: convertToChatMessages(body.messages),
      source: 'chat',
      sessionId,
      temperature: body.temperature ?? undefined,
      maxTokens: body.max_completion_tokens ?? body.max_tokens ?? undefined,
      tokenId: principal?.kind === 'access_token' ? principal.tokenId : undefined,
    });
    void reply.header('x-run-id', run.runId);
    if (sessionId) void reply.header('x-session-id', sessionId);
    const identity = createCompletionIdentity(run.runId, body.model);
    if (body.stream) {
      const sse = createSseResponse(reply.raw, { beforeOpen: () => reply.hijack(), headers: () => reply.getHeaders() });
      const failure = await streamChatCompletion(run, sse, { identity, includeUsage: body.stream_options?.include_usage === true });
      if (failure) throw withRetryHint(reply, failure);
      return reply;
    }
    const result = await run.result;
    if (result.status !== 'completed') throw withRetryHint(reply, result.error);
    return createChatCompletion(identity, result);
  });
};

function withRetryHint(reply: FastifyReply, error: AppError): AppError {
  void reply.header('x-should-retry', String(isRetryable(error)));
  return error;
}
