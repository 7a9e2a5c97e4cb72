export { ToolExecutionError, type ToolExecutionOptions, type ToolRegistry } from './types.js';
export { createToolRegistry, type ToolRegistryOptions } from './create-tool-registry.js';
export type { ToolsLogger } from './registered-tool.js';
export { toolsRoutes, type ToolsRoutesOptions } from './tools.routes.js';
export { mapToFunctionTool } from './map-function-tool.js';
export { functionTool, listToolsQuery, toolNameParams, type FunctionTool } from './tools.schema.js';
