export { mcpRoutes, type McpRoutesOptions } from './mcp.routes.js';
