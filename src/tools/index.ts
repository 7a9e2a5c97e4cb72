export { ToolExecutionError, type ToolExecutionOptions, type ToolRegistry } from './types.js';
export { createToolRegistry, type ToolRegistryOptions } from './create-tool-registry.js';
export { toolsRoutes, type ToolsRoutesOptions } from './tools.routes.js';
export { mapToFunctionTool } from './map-function-tool.js';
export { functionTool, listToolsQuery, toolNameParams, type FunctionTool } from './tools.schema.js';
export {
  fetchAgentCard,
  resolveCardUrl,
  sendA2aTask,
  type RawAgentCard,
  type SendA2aTaskOptions,
} from './a2a/a2a-client.js';
export type { A2aTaskResult } from './a2a/collect-a2a-result.js';
export { createOutboundGuard, type OutboundGuard } from './http/outbound-guard.js';
