export { ToolExecutionError, type ToolExecutionOptions, type ToolRegistry } from './types.js';
