import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';

/** Tools per `tools/list` page. */
export const TOOLS_PAGE_SIZE = 100;

/**
 * One page of a list, from the opaque cursor of the page before (MCP pagination). The cursor is the next
 * item's position: the list is the configuration's agents, the same on every replica.
 */
export function pageOf<T>(items: T[], cursor: string | undefined): { items: T[]; nextCursor?: string } {
  const start = cursor === undefined ? 0 : positionOf(cursor);
  const end = start + TOOLS_PAGE_SIZE;
  return {
    items: items.slice(start, end),
    ...(end < items.length && { nextCursor: Buffer.from(String(end)).toString('base64url') }),
  };
}

function positionOf(cursor: string): number {
  const position = Number(Buffer.from(cursor, 'base64url').toString());
  if (!Number.isSafeInteger(position) || position < 0)
    throw new McpError(ErrorCode.InvalidParams, 'Invalid cursor: send back the nextCursor of the page before');
  return position;
}
