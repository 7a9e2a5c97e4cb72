import { ToolExecutionError } from '../types.js';

const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_.-]+)\s*\}\}/g;

/**
 * Replaces each `{{arg}}` in a URL template by the URL-encoded argument and returns the arguments
 * the template did not use (they become the query string or the JSON body).
 */
export function expandUrlTemplate(
  template: string,
  args: Record<string, unknown>,
): { url: string; rest: Record<string, unknown> } {
  const rest = { ...args };
  const url = template.replace(PLACEHOLDER, (_match, name: string) => {
    const value = args[name];
    if (value === undefined || value === null)
      throw new ToolExecutionError(`${name}: is required (it is part of the URL)`, 'invalid_arguments');
    delete rest[name];
    return encodeURIComponent(typeof value === 'object' ? JSON.stringify(value) : String(value)); // eslint-disable-line @typescript-eslint/no-base-to-string -- objects, null and undefined were handled above
  });
  return { url, rest };
}
