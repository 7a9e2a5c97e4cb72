import { requestSpan } from '../../telemetry/index.js';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AgentRegistry, RunService } from '../../agents/index.js';
import { ownerOf } from '../../auth/index.js';
import { CLIENT_BACKLOG_BYTES, createReplySseWriter } from '../../http/index.js';
import { createId } from '../../ids.js';
import { createChatCompletion, createCompletionIdentity, createErrorBody } from './chat-completion.js';
import { streamChatCompletion } from './chat-completion-stream.js';
import { chatCompletionBody, chatCompletionHeaders, chatCompletionResponse } from './chat-completions.schema.js';
import { convertFunctionTool, convertToolChoice } from './convert-caller-tools.js';
import { convertToChatMessages } from './convert-to-chat-messages.js';
import { modelNotFound } from './openai-errors.js';
import { mapCallOptions, mapResponseFormat } from './options/map-call-options.js';
import { setOverheadHeader, withRetryHint } from './reply-headers.js';

export interface ChatCompletionsRoutesOptions {
  agents: AgentRegistry;
  runs: RunService;
  /** A stream whose client stopped reading for this long is closed and its run cancelled (`client_stalled`). */
  stalledTimeoutMs?: number;
}

/** POST /v1/chat/completions (spec 4.1): `model` names an agent; each request is one run. */
export const chatCompletionsRoutes: FastifyPluginAsync<ChatCompletionsRoutesOptions> = async (
  app,
  { agents, runs, stalledTimeoutMs },
) => {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/v1/chat/completions',
    {
      config: { auth: { scope: 'chat', agent: (request) => (request.body as { model: string }).model } },
      schema: {
        tags: ['openai'],
        summary: 'Chat with an agent (OpenAI-compatible); stream: true answers with chat.completion.chunk events',
        headers: chatCompletionHeaders,
        body: chatCompletionBody,
        response: { 200: chatCompletionResponse },
      },
    },
    async (request, reply) => {
      const { body } = request;
      if (!agents.has(body.model)) throw modelNotFound(body.model);
      // Every conversation is a session its caller owns; without X-Session-Id a new one starts, and its id comes back.
      // That session counts as active (admin sessions, status, metrics) once the caller sends its id back.
      const clientSessionId = request.headers['x-session-id'];
      const sessionId = clientSessionId ?? createId('ses');
      const principal = request.principal;
      // No abort signal: a non-streamed run outlives its client; a streamed one is cancelled by the stream.
      const run = await runs.start({
        agentName: body.model,
        messages: convertToChatMessages(body.messages),
        // The caller's tools join the agent's for this run; a call to one ends it with finish_reason tool_calls.
        clientTools: body.tools?.map((tool) => convertFunctionTool(tool.function)),
        toolChoice: convertToolChoice(body.tool_choice),
        parallelToolCalls: body.parallel_tool_calls ?? undefined,
        source: 'chat',
        sessionId,
        newSession: clientSessionId === undefined,
        parentSpan: requestSpan(request),
        owner: principal && ownerOf(principal),
        temperature: body.temperature ?? undefined,
        maxTokens: body.max_completion_tokens ?? body.max_tokens ?? undefined,
        callOptions: mapCallOptions(body, mapResponseFormat(body.response_format)),
        endUser: body.user ?? body.safety_identifier ?? undefined,
        tokenId: principal?.kind === 'access_token' ? principal.tokenId : undefined,
        tokenMaxCostUsd: principal?.kind === 'access_token' ? principal.maxCostUsd : undefined,
      });
      void reply.header('x-run-id', run.runId);
      void reply.header('x-session-id', sessionId);
      const identity = createCompletionIdentity(run.runId, body.model);
      if (body.stream) {
        const headers = () => {
          setOverheadHeader(reply, run.timing.upstreamMsAtFirstText ?? run.timing.upstreamMs);
          return {};
        };
        // The client holds its run back: the run reads no further ahead of what the client acknowledged than its window.
        const sse = createReplySseWriter(reply, {
          headers,
          stalledTimeoutMs,
          backlogBytes: CLIENT_BACKLOG_BYTES,
          // A lapsed credential ends the answer with an error chunk and no [DONE]; the run goes on.
          lapseEvent: (error) => `data: ${JSON.stringify(createErrorBody(error))}\n\n`,
        });
        const failure = await streamChatCompletion(run, sse, {
          identity,
          includeUsage: body.stream_options?.include_usage === true,
        });
        if (failure) throw withRetryHint(reply, failure, run.timing.upstreamMs);
        return reply;
      }
      const result = await run.result;
      setOverheadHeader(reply, result.upstreamMs);
      if (result.status !== 'completed') throw withRetryHint(reply, result.error);
      return createChatCompletion(identity, result);
    },
  );
};
