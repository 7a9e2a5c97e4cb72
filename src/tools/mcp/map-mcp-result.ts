import type { CallToolResult, ContentBlock } from '@modelcontextprotocol/sdk/types.js';
import { ToolExecutionError } from '../types.js';

/**
 * Turns an MCP tools/call result into text for the model: text parts joined by newlines, other parts
 * named, structured content as JSON when there is no text. `isError` results become a tool failure.
 */
export function mapMcpResult(toolName: string, result: CallToolResult | { toolResult: unknown }): string {
  if ('toolResult' in result) return JSON.stringify(result.toolResult);
  const parts = (result.content ?? []).map(describeContent);
  let text = parts.join('\n');
  if (text === '' && result.structuredContent !== undefined) text = JSON.stringify(result.structuredContent);
  if (result.isError)
    throw new ToolExecutionError(`Tool "${toolName}" reported an error: ${text || 'no details'}`, 'failed');
  return text;
}

function describeContent(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
    case 'audio':
      return `[${block.type} ${block.mimeType}]`;
    case 'resource':
      return 'text' in block.resource ? block.resource.text : `[resource ${block.resource.uri}]`;
    case 'resource_link':
      return `[resource ${block.uri}]`;
    default:
      return '';
  }
}
