/**
 * Sends a request over real HTTP exactly as given (node:http keeps `..`, `%` and odd escapes in the path,
 * where fetch would normalise them) and checks the answer against the HTTP conventions of DESIGN.md.
 */
import { Agent, request as httpRequest } from 'node:http';

export interface Answer {
  status: number;
  contentType: string;
  /** The body text; for an event stream only what arrived with the headers (the stream is cut). */
  text: string;
  streamed: boolean;
}

const agent = new Agent({ keepAlive: true, maxSockets: 8 });

export function send(
  base: string,
  request: {
    method: string;
    path: string;
    query?: string;
    headers?: Record<string, string>;
    body?: string | Uint8Array;
  },
  timeoutMs = 15_000,
): Promise<Answer> {
  const url = new URL(base);
  const path = request.query ? `${request.path}?${request.query}` : request.path;
  const body =
    request.body === undefined
      ? undefined
      : typeof request.body === 'string'
        ? Buffer.from(request.body, 'utf8')
        : Buffer.from(request.body);
  return new Promise<Answer>((resolve, reject) => {
    const outgoing = httpRequest(
      {
        agent,
        host: url.hostname,
        port: url.port,
        method: request.method,
        path,
        headers: { ...request.headers, ...(body ? { 'content-length': String(body.length) } : {}) },
      },
      (response) => {
        const contentType = String(response.headers['content-type'] ?? '');
        const status = response.statusCode ?? 0;
        if (contentType.includes('text/event-stream')) {
          // A stream's body is the agent run itself: take the headers, then hang up.
          response.destroy();
          outgoing.destroy();
          resolve({ status, contentType, text: '', streamed: true });
          return;
        }
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status, contentType, text: Buffer.concat(chunks).toString('utf8'), streamed: false }),
        );
        response.on('error', reject);
      },
    );
    outgoing.setTimeout(timeoutMs, () => {
      outgoing.destroy(new Error(`no answer within ${timeoutMs} ms`));
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** Text that only an unhandled error puts in a body: stack frames, JS error names, framework codes, source paths. */
const INTERNAL_TEXT: [string, RegExp][] = [
  ['a stack frame', /\n\s+at\s+\S+|\bat [\w.<>]+ \(.*:\d+:\d+\)/],
  [
    'a JavaScript error message',
    /Cannot read propert|is not a function|is not defined|is not iterable|Maximum call stack|Unexpected token .* in JSON/,
  ],
  ['a JavaScript error name', /\b(TypeError|ReferenceError|RangeError|SyntaxError|AggregateError)\b/],
  ['a Fastify error code', /\bFST_[A-Z_]+/],
  ['a source path', /\/(src|dist|node_modules)\/[\w./-]+\.(ts|js)|file:\/\/\//],
  ['a database error', /\bSQLITE_[A-Z]+|\bsyntax error at or near\b|\bduplicate key value\b/],
  ['an ajv or zod internal', /\$ZodError|instancePath/],
];

/** What is wrong with an answer, or undefined when it follows the conventions. */
export function problemWith(answer: Answer, options: { jsonRpc?: boolean } = {}): string | undefined {
  if (answer.status >= 500) return `answered ${answer.status}: ${answer.text.slice(0, 300)}`;
  if (answer.status < 100) return `no status`;
  for (const [what, pattern] of INTERNAL_TEXT) {
    const match = pattern.exec(answer.text);
    if (match) return `body holds ${what} (${JSON.stringify(match[0].slice(0, 120))}): ${answer.text.slice(0, 300)}`;
  }
  if (answer.status >= 400) return errorShapeProblem(answer, options.jsonRpc ?? false);
  return undefined;
}

function errorShapeProblem(answer: Answer, jsonRpc: boolean): string | undefined {
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    return `a ${answer.status} whose body is not JSON (${answer.contentType}): ${answer.text.slice(0, 200)}`;
  }
  const error = (body as { error?: Record<string, unknown> } | null)?.error;
  if (jsonRpc && typeof error?.code === 'number' && typeof error.message === 'string') return undefined;
  const shaped =
    error &&
    typeof error === 'object' &&
    typeof error.type === 'string' &&
    typeof error.code === 'string' &&
    typeof error.message === 'string' &&
    error.message.length > 0;
  if (!shaped) return `a ${answer.status} not in the error shape: ${answer.text.slice(0, 300)}`;
  if (!answer.contentType.includes('application/json'))
    return `a ${answer.status} error with content-type ${answer.contentType}`;
  return undefined;
}
