export type { ChatMessage, FinishReason, JsonSchemaObject, ModelCallRequest, ModelCallResult, ModelClient, ModelInfo, ModelStreamPart, ToolCall, ToolDefinition, Usage } from './types.js';
