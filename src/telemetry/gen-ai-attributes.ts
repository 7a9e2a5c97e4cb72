/**
 * Attribute names of the OpenTelemetry GenAI semantic conventions
 * (https://opentelemetry.io/docs/specs/semconv/gen-ai/) and ours, under `agent_gateway.`.
 * Kept as constants: the incubating names are not exported by @opentelemetry/semantic-conventions' stable entry.
 */
export const GEN_AI = {
  OPERATION_NAME: 'gen_ai.operation.name',
  PROVIDER_NAME: 'gen_ai.provider.name',
  REQUEST_MODEL: 'gen_ai.request.model',
  REQUEST_TEMPERATURE: 'gen_ai.request.temperature',
  REQUEST_MAX_TOKENS: 'gen_ai.request.max_tokens',
  RESPONSE_MODEL: 'gen_ai.response.model',
  RESPONSE_FINISH_REASONS: 'gen_ai.response.finish_reasons',
  USAGE_INPUT_TOKENS: 'gen_ai.usage.input_tokens',
  USAGE_OUTPUT_TOKENS: 'gen_ai.usage.output_tokens',
  AGENT_NAME: 'gen_ai.agent.name',
  CONVERSATION_ID: 'gen_ai.conversation.id',
  TOOL_NAME: 'gen_ai.tool.name',
  TOOL_CALL_ID: 'gen_ai.tool.call.id',
  TOOL_TYPE: 'gen_ai.tool.type',
  TOOL_CALL_ARGUMENTS: 'gen_ai.tool.call.arguments',
  TOOL_CALL_RESULT: 'gen_ai.tool.call.result',
  INPUT_MESSAGES: 'gen_ai.input.messages',
  OUTPUT_MESSAGES: 'gen_ai.output.messages',
  TOKEN_TYPE: 'gen_ai.token.type',
} as const;

/** Ours, for what the conventions have no name for. */
export const GATEWAY = {
  RUN_ID: 'agent_gateway.run.id',
  RUN_SOURCE: 'agent_gateway.run.source',
  RUN_STATUS: 'agent_gateway.run.status',
  STEP_ID: 'agent_gateway.step.id',
  COST_USD: 'agent_gateway.cost_usd',
  USAGE_ESTIMATED: 'agent_gateway.usage.estimated',
  TTFT_MS: 'agent_gateway.ttft_ms',
  BUDGET_DECISION: 'agent_gateway.budget.decision',
  GUARDRAIL_EVENT: 'agent_gateway.guardrail',
  INBOX_ITEM_ID: 'agent_gateway.inbox.item_id',
  MISSION_ID: 'agent_gateway.mission.id',
  TRIGGER_NAME: 'agent_gateway.trigger.name',
} as const;

export const ERROR_TYPE = 'error.type';
