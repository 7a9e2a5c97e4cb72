import type {
  AgentRegistry,
  ChatMessage,
  ResponseFormat,
  RunHandle,
  RunResult,
  RunService,
  SessionService,
} from '../../../agents/index.js';
import type { Principal } from '../../../auth/index.js';
import { ownerOf } from '../../../auth/index.js';
import { createError } from '../../../errors.js';
import { createId, isoNow } from '../../../ids.js';
import type { TraceSpan } from '../../../telemetry/index.js';
import { modelNotFound } from '../openai-errors.js';
import { mapCallOptions } from '../options/map-call-options.js';
import { convertResponseInput } from './convert-response-input.js';
import { createEndedResponse, createResponseId, type ResponseRequestFields } from './response-object.js';
import type { ResponseStore } from './response.store.js';
import type { CreateResponseBody, ResponseObject, TextFormat } from './responses.schema.js';

export interface CreateResponseRequest {
  body: CreateResponseBody;
  principal?: Principal;
  parentSpan?: TraceSpan;
}

/** A response whose run started: what its answer (plain or streamed) is made of. */
export interface StartedResponse {
  run: RunHandle;
  fields: ResponseRequestFields;
  sessionId: string;
  /** Whose response it is (auth ownerOf). */
  owner: string;
}

export interface ResponsesService {
  /**
   * Starts the response's run: in the conversation of `previous_response_id` (404 unless it is the caller's
   * stored response, 409 for another agent's), else in a new session. Throws what starting a run throws.
   */
  start(request: CreateResponseRequest): Promise<StartedResponse>;
  /** The Response object of the ended run, stored first (unless `store: false`) so it can be continued at once. */
  finish(started: StartedResponse, result: RunResult): Promise<ResponseObject>;
  /** The caller's stored response; another principal's reads as unknown. */
  find(responseId: string, principal?: Principal): Promise<ResponseObject | undefined>;
  delete(responseId: string, principal?: Principal): Promise<boolean>;
}

export interface ResponsesServiceOptions {
  agents: AgentRegistry;
  runs: RunService;
  sessions: SessionService;
  store: ResponseStore;
}

/** `text.format` → the runtime's response format; `text` (the default) is none. */
function mapTextFormat(format: TextFormat | undefined): ResponseFormat | undefined {
  if (!format || format.type === 'text') return undefined;
  if (format.type === 'json_object') return { type: 'json_object' };
  const { name, description, schema, strict } = format;
  return { type: 'json_schema', name, description, schema, strict: strict ?? undefined };
}

/** Routes without a principal (tests mounting them bare) share the runtime's `anonymous` owner. */
const ownerOfCaller = (principal?: Principal) => (principal ? ownerOf(principal) : 'anonymous');

export function createResponsesService({ agents, runs, sessions, store }: ResponsesServiceOptions): ResponsesService {
  /**
   * Where the new turn goes. A response is continued in its session while it is the session's latest turn;
   * from an earlier one (a branch), a new session starts with the history up to that response.
   */
  async function conversationOf(body: CreateResponseBody, owner: string, input: ChatMessage[]) {
    if (!body.previous_response_id) return { sessionId: createId('ses'), newSession: true, messages: input };
    const previous = await store.find(body.previous_response_id, owner);
    const responseId = body.previous_response_id;
    const details = { details: { param: 'previous_response_id' } };
    if (!previous) throw createError('previous_response_not_found', { response_id: responseId }, details);
    if (previous.agentName !== body.model)
      throw createError(
        'previous_response_agent_mismatch',
        { response_id: responseId, agent_name: previous.agentName },
        details,
      );
    const session = await sessions.find(previous.sessionId);
    if (session && session.message_count === previous.turnEnd)
      return { sessionId: previous.sessionId, newSession: false, messages: input };
    const history = (await sessions.messages(previous.sessionId)).slice(0, previous.turnEnd);
    return { sessionId: createId('ses'), newSession: true, messages: [...history, ...input] };
  }

  return {
    async start({ body, principal, parentSpan }) {
      const agent = agents.find(body.model);
      if (!agent) throw modelNotFound(body.model);
      const owner = ownerOfCaller(principal);
      const input = convertResponseInput(body.input);
      const conversation = await conversationOf(body, owner, input);
      const run = await runs.start({
        agentName: body.model,
        messages: conversation.messages,
        source: 'chat',
        sessionId: conversation.sessionId,
        newSession: conversation.newSession,
        // The caller never saw this session's id: it counts as active once they continue it (previous_response_id).
        sessionNamed: false,
        parentSpan,
        owner,
        instructions: body.instructions ?? undefined,
        temperature: body.temperature ?? undefined,
        maxTokens: body.max_output_tokens ?? undefined,
        callOptions: mapCallOptions(
          { top_p: body.top_p, verbosity: body.text?.verbosity },
          mapTextFormat(body.text?.format),
        ),
        tokenId: principal?.kind === 'access_token' ? principal.tokenId : undefined,
        tokenMaxCostUsd: principal?.kind === 'access_token' ? principal.maxCostUsd : undefined,
      });
      const fields: ResponseRequestFields = {
        id: createResponseId(run.runId),
        createdAt: Math.floor(Date.now() / 1000),
        model: body.model,
        instructions: body.instructions ?? null,
        maxOutputTokens: body.max_output_tokens ?? null,
        temperature: body.temperature ?? agent.temperature,
        topP: body.top_p ?? null,
        text: {
          format: body.text?.format ?? { type: 'text' },
          ...(body.text?.verbosity && { verbosity: body.text.verbosity }),
        },
        metadata: body.metadata ?? {},
        previousResponseId: body.previous_response_id ?? null,
        store: body.store !== false,
        user: body.user ?? null,
      };
      return { run, fields, sessionId: conversation.sessionId, owner };
    },

    async finish(started, result) {
      const response = createEndedResponse(started.fields, result);
      if (!started.fields.store) return response;
      // After the run's end is committed, its session holds this turn (when it completed).
      const session = await sessions.find(started.sessionId);
      await store.insert(
        {
          response,
          owner: started.owner,
          agentName: started.run.agentName,
          runId: started.run.runId,
          sessionId: started.sessionId,
          turnEnd: session?.message_count ?? 0,
        },
        isoNow(),
      );
      return response;
    },

    async find(responseId, principal) {
      return (await store.find(responseId, ownerOfCaller(principal)))?.response;
    },

    delete: (responseId, principal) => store.delete(responseId, ownerOfCaller(principal)),
  };
}
