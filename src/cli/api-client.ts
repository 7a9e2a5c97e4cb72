import type { ClientSettings } from '../config/index.js';

/** A failed API call, with the server's error message, shown to CLI users as one line. */
export class CliError extends Error {}

/** Calls the gateway's HTTP API and returns the parsed JSON body, or throws a CliError with the server's message. */
export async function callApi<T>(
  settings: ClientSettings,
  method: string,
  path: string,
  body?: unknown,
  extraHeaders: Record<string, string> = {},
): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json', ...extraHeaders };
  if (settings.token) headers.authorization = `Bearer ${settings.token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(`${settings.baseUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    // fetch only says "fetch failed"; the reason (ECONNREFUSED, ENOTFOUND, "bad port") is in its cause.
    const cause = (error as Error & { cause?: { code?: string; message?: string } }).cause;
    throw new CliError(
      `cannot reach ${settings.baseUrl}: ${cause?.code ?? cause?.message ?? (error as Error).message}`,
    );
  }
  const text = await response.text();
  const parsed = text ? (safeJson(text) as T & { error?: { message?: string; code?: string } }) : undefined;
  if (!response.ok) {
    const message = parsed?.error?.message ?? (text || response.statusText);
    throw new CliError(`${response.status} ${parsed?.error?.code ?? ''}: ${message}`.replace(' :', ':'));
  }
  return parsed as T;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return { error: { message: text } };
  }
}
