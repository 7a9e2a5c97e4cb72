import { fetch } from 'undici';
import { setTraceHeaders } from '../../telemetry/index.js';
import type { HttpToolConfig } from '../../config/index.js';
import { createAddressPolicy } from './address-policy.js';
import { createGuardedAgent, refusedAddressOf } from './create-guarded-agent.js';
import { expandUrlTemplate } from './expand-url-template.js';
import { MAX_RESPONSE_BYTES, readLimitedText } from './read-limited-text.js';
import type { RegisteredTool } from '../registered-tool.js';
import { ToolExecutionError } from '../types.js';

const ERROR_BODY_CHARS = 500;

/**
 * A tool declared in config that calls one HTTP endpoint. GET sends the arguments the URL template
 * did not use as the query string, other methods as a JSON body. A non-2xx answer is a tool failure.
 * Loopback, private and other non-public addresses are refused unless `allow_private` names them.
 */
export function createHttpTool(config: HttpToolConfig): RegisteredTool {
  const dispatcher = createGuardedAgent(createAddressPolicy(config.allow_private));
  return {
    definition: { name: config.name, description: config.description, parameters: config.parameters },
    timeoutMs: config.timeout_ms,
    idempotent: config.idempotent,
    async run(args, signal, call) {
      const { url, rest } = expandUrlTemplate(config.url, args);
      let target: URL;
      try {
        target = new URL(url);
      } catch {
        throw new ToolExecutionError(
          `Tool "${config.name}" has a URL template that does not give an absolute URL`,
          'failed',
        );
      }
      const headers = new Headers({ accept: 'application/json, text/plain;q=0.9, */*;q=0.8' });
      for (const [key, value] of Object.entries(config.headers)) headers.set(key, value);
      let body: string | undefined;
      if (config.method === 'GET') {
        appendQuery(target.searchParams, rest);
      } else {
        body = JSON.stringify(rest);
        if (!headers.has('content-type')) headers.set('content-type', 'application/json');
      }

      setTraceHeaders(headers, call?.trace);
      const response = await fetch(target, { method: config.method, headers, body, signal, dispatcher }).catch(
        (error: unknown) => {
          const refused = refusedAddressOf(error);
          throw refused ? new ToolExecutionError(`Tool "${config.name}" refused: ${refused.message}`, 'failed') : error;
        },
      );
      const { text, truncated } = await readLimitedText(response);
      if (!response.ok) {
        throw new ToolExecutionError(
          `Tool "${config.name}" got HTTP ${response.status}: ${text.slice(0, ERROR_BODY_CHARS)}`,
          'failed',
        );
      }
      return truncated ? `${text}\n[response cut at ${MAX_RESPONSE_BYTES} bytes]` : text;
    },
    close: () => dispatcher.close(),
  };
}

function appendQuery(params: URLSearchParams, args: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(args)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item === undefined || item === null) continue;
      params.append(key, typeof item === 'object' ? JSON.stringify(item) : String(item));
    }
  }
}
