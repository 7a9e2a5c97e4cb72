/** A fake OpenAI-compatible upstream on loopback that speaks the real chat completions wire format. */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: any; /* parsed JSON or undefined */
}
type TextUsage = { prompt_tokens: number; completion_tokens: number; cached_tokens?: number };
export type FakeResponse =
  | {
      kind: 'text';
      text: string;
      usage?: TextUsage | null /* null = send no usage at all */;
      chunks?: number /* stream: split text into N chunks, default 3 */;
      chunkDelayMs?: number;
      delayMs?: number; /* before headers */
      model?: string /* the `model` the answer names; the requested one by default */;
      /** stream: these exact chunks instead of `chunks` pieces of `text` (which must be their concatenation) */
      pieces?: string[];
      /** stream: the answer's end (finish chunk, usage, [DONE]) waits for this, after every piece is sent */
      holdEnd?: Promise<void>;
      /** stream: before piece `at` (0: the first) the stream waits for `open` (a test's step, not a pace) */
      gates?: { at: number; open: Promise<void> }[];
    }
  | {
      kind: 'tool_calls';
      calls: { name: string; arguments: Record<string, unknown> | string; id?: string }[];
      usage?: { prompt_tokens: number; completion_tokens: number };
    }
  | { kind: 'error'; status: number; body?: unknown; headers?: Record<string, string> }
  | { kind: 'hang' } // accepts the request and never answers
  /** Exactly this status, these headers and this body, whatever was asked (malformed answers). */
  | { kind: 'raw'; status: number; headers?: Record<string, string>; body: string }
  | {
      kind: 'firehose';
      /** Streams `chunks` text chunks of `chunkBytes` each, waiting for 'drain' whenever the socket buffer is full. */
      chunks: number;
      chunkBytes: number;
      /** What it managed to write so far, and whether it is waiting for the reader now. */
      stats: FirehoseStats;
      /** Headers go out at once; before chunk `at` (0: the first) the stream waits for `open`. */
      gates?: { at: number; open: Promise<void> }[];
    }
  /** Stream: sends that many text chunks (then, with `usage`, a usage chunk) and destroys the socket; non-stream: destroys at once. */
  | { kind: 'disconnect'; afterChunks: number; usage?: TextUsage }
  | { kind: 'handler'; fn: (request: RecordedRequest) => FakeResponse };
/** The state of a firehose stream, updated as it writes: what a test reads to see the gateway stop reading. */
export interface FirehoseStats {
  /** Chunks handed to the socket so far. */
  written: number;
  /** True while a write waits for 'drain' (the reader is not taking more). */
  waiting: boolean;
  /** True once the stream wrote its last chunk or its socket closed. */
  done: boolean;
}

export const createFirehoseStats = (): FirehoseStats => ({ written: 0, waiting: false, done: false });

export interface FakeUpstream {
  url: string;
  requests: RecordedRequest[];
  chatRequests(): RecordedRequest[];
  enqueue(...responses: FakeResponse[]): void;
  setDefault(response: FakeResponse | ((request: RecordedRequest) => FakeResponse)): void;
  /** The OpenAI fine-tuning API: uploaded files and jobs, which succeed after `succeedAfterPolls` GETs. */
  fineTuning: FakeFineTuning;
  /** Sockets currently open that carried at least one request (lets tests see an aborted upstream request). */
  openConnections(): number;
  close(): Promise<void>;
}

export interface FakeFineTuneJob {
  id: string;
  training_file: string;
  model: string;
  polls: number;
  status: string;
  fine_tuned_model: string | null;
}
export interface FakeFineTuning {
  files: Map<string, { purpose: string; filename: string; content: string }>;
  jobs: Map<string, FakeFineTuneJob>;
  /** GETs of a job before it reports succeeded (Infinity: never); read at each poll. */
  succeedAfterPolls: number;
  /** When set, jobs end `failed` instead. */
  failJobs: boolean;
}

async function answerFineTuning(
  fine: FakeFineTuning,
  exchange: Exchange,
  request: RecordedRequest,
  raw: string,
): Promise<boolean> {
  const { method, path } = request;
  if (method === 'POST' && path === '/v1/files') {
    const form = await new Request('http://fake/v1/files', {
      method: 'POST',
      headers: { 'content-type': String(request.headers['content-type'] ?? '') },
      body: raw,
    }).formData();
    const file = form.get('file');
    if (!(file instanceof Blob)) {
      exchange.json(400, { error: { message: 'file is required', type: 'invalid_request_error', code: null } });
      return true;
    }
    const id = `file-fake${fine.files.size + 1}`;
    const filename = (file as File).name ?? 'file';
    fine.files.set(id, { purpose: (form.get('purpose') as string | null) ?? '', filename, content: await file.text() });
    exchange.json(200, { id, object: 'file', bytes: file.size, created_at: 0, filename, purpose: form.get('purpose') });
    return true;
  }
  if (method === 'POST' && path === '/v1/fine_tuning/jobs') {
    if (!fine.files.has(request.body?.training_file)) {
      exchange.json(400, { error: { message: 'unknown training_file', type: 'invalid_request_error', code: null } });
      return true;
    }
    const job: FakeFineTuneJob = {
      id: `ftjob-fake${fine.jobs.size + 1}`,
      training_file: request.body.training_file,
      model: request.body.model,
      polls: 0,
      status: 'queued',
      fine_tuned_model: null,
    };
    fine.jobs.set(job.id, job);
    exchange.json(200, { object: 'fine_tuning.job', ...job });
    return true;
  }
  const match = /^\/v1\/fine_tuning\/jobs\/([^/]+)$/.exec(path);
  if (method === 'GET' && match) {
    const job = fine.jobs.get(decodeURIComponent(match[1]));
    if (!job) {
      exchange.json(404, { error: { message: 'no such job', type: 'invalid_request_error', code: null } });
      return true;
    }
    job.polls += 1;
    if (job.polls >= fine.succeedAfterPolls) {
      job.status = fine.failJobs ? 'failed' : 'succeeded';
      job.fine_tuned_model = fine.failJobs ? null : `ft:${job.model}:fake:${job.id}`;
    } else job.status = 'running';
    exchange.json(200, {
      object: 'fine_tuning.job',
      ...job,
      error: fine.failJobs && job.status === 'failed' ? { message: 'fake failure' } : null,
    });
    return true;
  }
  return false;
}

const DEFAULT_USAGE: TextUsage = { prompt_tokens: 10, completion_tokens: 5 };
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function lastUserText(body: any): string {
  const messages: any[] = Array.isArray(body?.messages) ? body.messages : [];
  const last = [...messages].reverse().find((message) => message?.role === 'user');
  if (!last) return '';
  if (typeof last.content === 'string') return last.content;
  return Array.isArray(last.content)
    ? last.content
        .filter((part: any) => part?.type === 'text')
        .map((part: any) => part.text)
        .join('')
    : '';
}

function echoDefault(request: RecordedRequest): FakeResponse {
  return {
    kind: 'text',
    text: `echo: ${lastUserText(request.body)}`,
    usage: { prompt_tokens: 10, completion_tokens: 5 },
  };
}

function wireUsage(usage: TextUsage) {
  const total_tokens = usage.prompt_tokens + usage.completion_tokens;
  return {
    prompt_tokens: usage.prompt_tokens,
    completion_tokens: usage.completion_tokens,
    total_tokens,
    prompt_tokens_details: { cached_tokens: usage.cached_tokens ?? 0 },
  };
}

/** Splits text into n nearly equal, non-empty pieces (fewer when the text is short). */
function split(text: string, n: number): string[] {
  const count = Math.max(1, Math.min(n, text.length));
  const size = Math.ceil(text.length / count);
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
  return pieces.length ? pieces : [''];
}

function toolCallsOf(response: Extract<FakeResponse, { kind: 'tool_calls' }>) {
  return response.calls.map((call, index) => ({
    id: call.id ?? `call_fake_${index}_${Math.random().toString(36).slice(2, 10)}`,
    name: call.name,
    arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
  }));
}

class Exchange {
  readonly id = `chatcmpl-fake${Math.random().toString(36).slice(2, 12)}`;
  readonly created = Math.floor(Date.now() / 1000);
  /** The model id the answer names (a provider may answer with a more specific one than was asked for). */
  answeredModel: string | undefined;
  constructor(
    private readonly res: ServerResponse,
    private readonly body: any,
  ) {}

  get stream(): boolean {
    return this.body?.stream === true;
  }
  get includeUsage(): boolean {
    return this.body?.stream_options?.include_usage === true;
  }
  get gone(): boolean {
    return this.res.destroyed || this.res.writableEnded;
  }

  json(status: number, payload: unknown, headers: Record<string, string> = {}): void {
    if (this.gone) return;
    this.res.writeHead(status, { 'content-type': 'application/json', ...headers });
    this.res.end(typeof payload === 'string' ? payload : JSON.stringify(payload));
  }

  raw(status: number, headers: Record<string, string>, body: string): void {
    if (this.gone) return;
    this.res.writeHead(status, headers);
    this.res.end(body);
  }

  completion(message: object, finishReason: string, usage: TextUsage | null): void {
    this.json(200, {
      id: this.id,
      object: 'chat.completion',
      created: this.created,
      model: this.answeredModel ?? this.body?.model ?? 'fake',
      system_fingerprint: 'fp_fake',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', refusal: null, ...message },
          logprobs: null,
          finish_reason: finishReason,
        },
      ],
      ...(usage ? { usage: wireUsage(usage) } : {}),
    });
  }

  startStream(): void {
    if (this.gone) return;
    this.res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    this.chunk({ role: 'assistant', content: '', refusal: null });
  }

  chunk(delta: object, finishReason: string | null = null): void {
    this.send({
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
      ...(this.includeUsage ? { usage: null } : {}),
    });
  }

  /** The final usage chunk OpenAI sends when asked (`stream_options.include_usage`). */
  usageChunk(usage: TextUsage): void {
    if (this.includeUsage) this.send({ choices: [], usage: wireUsage(usage) });
  }

  endStream(usage: TextUsage | null): void {
    if (usage) this.usageChunk(usage);
    if (this.gone) return;
    this.res.end('data: [DONE]\n\n');
  }

  /** Like chunk(); false when the socket buffer is full (wait for drained() before the next). */
  chunkFits(delta: object): boolean {
    return this.send({ choices: [{ index: 0, delta, logprobs: null, finish_reason: null }] });
  }

  /** Resolves on 'drain' or 'close', removing both listeners (a long stream waits thousands of times). */
  drained(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        this.res.off('drain', done);
        this.res.off('close', done);
        resolve();
      };
      this.res.on('drain', done);
      this.res.on('close', done);
    });
  }

  private send(fields: object): boolean {
    if (this.gone) return true;
    const chunk = {
      id: this.id,
      object: 'chat.completion.chunk',
      created: this.created,
      model: this.answeredModel ?? this.body?.model ?? 'fake',
      system_fingerprint: 'fp_fake',
      ...fields,
    };
    return this.res.write(`data: ${JSON.stringify(chunk)}\n\n`);
  }
}

async function firehose(exchange: Exchange, response: Extract<FakeResponse, { kind: 'firehose' }>): Promise<void> {
  const { stats } = response;
  // Words, as a model writes: one endless word would make the gateway's token counting quadratic.
  const text = 'lorem ipsum '.repeat(Math.ceil(response.chunkBytes / 12)).slice(0, response.chunkBytes);
  exchange.startStream();
  for (let index = 0; index < response.chunks && !exchange.gone; index += 1) {
    const gate = response.gates?.find((candidate) => candidate.at === index);
    if (gate) await gate.open;
    const fits = exchange.chunkFits({ content: text });
    stats.written += 1;
    if (fits) continue;
    stats.waiting = true;
    await exchange.drained();
    stats.waiting = false;
  }
  stats.done = true;
  if (exchange.gone) return;
  exchange.chunk({}, 'stop');
  exchange.endStream(DEFAULT_USAGE);
}

async function answer(
  exchange: Exchange,
  response: FakeResponse,
  request: RecordedRequest,
  req: IncomingMessage,
): Promise<void> {
  switch (response.kind) {
    case 'handler':
      return answer(exchange, response.fn(request), request, req);
    case 'hang':
      return;
    case 'raw':
      return exchange.raw(response.status, response.headers ?? {}, response.body);
    case 'firehose':
      return firehose(exchange, response);
    case 'error': {
      const body = response.body ?? {
        error: {
          message: `fake upstream error ${response.status}`,
          type: response.status === 429 ? 'rate_limit_error' : 'server_error',
          code: null,
        },
      };
      return exchange.json(response.status, body, response.headers);
    }
    case 'disconnect': {
      if (exchange.stream) {
        exchange.startStream();
        for (let i = 0; i < response.afterChunks; i += 1) exchange.chunk({ content: `part${i} ` });
        if (response.usage) exchange.usageChunk(response.usage);
        await sleep(20); // let the written chunks leave before the socket dies
      }
      req.socket.destroy();
      return;
    }
    case 'text': {
      exchange.answeredModel = response.model;
      const usage = response.usage === undefined ? DEFAULT_USAGE : response.usage;
      if (response.delayMs) await sleep(response.delayMs);
      if (!exchange.stream) return exchange.completion({ content: response.text }, 'stop', usage);
      exchange.startStream();
      const pieces = response.pieces ?? split(response.text, response.chunks ?? 3);
      for (const [index, piece] of pieces.entries()) {
        const gate = response.gates?.find((candidate) => candidate.at === index);
        if (gate) await gate.open;
        if (response.chunkDelayMs) await sleep(response.chunkDelayMs);
        if (piece) exchange.chunk({ content: piece });
      }
      if (response.holdEnd) await response.holdEnd;
      exchange.chunk({}, 'stop');
      return exchange.endStream(usage);
    }
    case 'tool_calls': {
      const calls = toolCallsOf(response);
      const usage = response.usage ?? DEFAULT_USAGE;
      if (!exchange.stream) {
        const toolCalls = calls.map((call) => ({
          id: call.id,
          type: 'function',
          function: { name: call.name, arguments: call.arguments },
        }));
        return exchange.completion({ content: null, tool_calls: toolCalls }, 'tool_calls', usage);
      }
      exchange.startStream();
      calls.forEach((call, index) => {
        exchange.chunk({
          tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }],
        });
        for (const piece of split(call.arguments, 3))
          exchange.chunk({ tool_calls: [{ index, function: { arguments: piece } }] });
      });
      exchange.chunk({}, 'tool_calls');
      return exchange.endStream(usage);
    }
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function parseJson(text: string): any {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export async function startFakeUpstream(): Promise<FakeUpstream> {
  const requests: RecordedRequest[] = [];
  const queue: FakeResponse[] = [];
  let fallback: (request: RecordedRequest) => FakeResponse = echoDefault;
  const sockets = new Set<Socket>();
  const fineTuning: FakeFineTuning = { files: new Map(), jobs: new Map(), succeedAfterPolls: 2, failJobs: false };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0];
    const raw = await readBody(req);
    const request: RecordedRequest = {
      method: req.method ?? 'GET',
      path,
      headers: { ...req.headers },
      body: parseJson(raw),
    };
    requests.push(request);
    const exchange = new Exchange(res, request.body);
    if (await answerFineTuning(fineTuning, exchange, request, raw)) return;
    if (request.method === 'GET' && path === '/v1/models') {
      return exchange.json(200, {
        object: 'list',
        data: [{ id: 'fake-model', object: 'model', created: 0, owned_by: 'fake-upstream' }],
      });
    }
    if (request.method !== 'POST' || path !== '/v1/chat/completions') {
      return exchange.json(404, {
        error: { message: `no route ${request.method} ${path}`, type: 'invalid_request_error', code: 'not_found' },
      });
    }
    try {
      await answer(exchange, queue.shift() ?? fallback(request), request, req);
    } catch (error) {
      exchange.json(500, {
        error: { message: `fake upstream failed: ${String(error)}`, type: 'server_error', code: null },
      });
    }
  };
  // A failure in a fake surfaces as an unhandled rejection, which vitest reports.
  const server = createServer((req, res) => void handle(req, res));
  // Only sockets that carried a request count: undici may pre-open a spare idle socket after an abort.
  server.on('request', (req: IncomingMessage) => {
    const socket = req.socket;
    if (sockets.has(socket)) return;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    chatRequests: () =>
      requests.filter((request) => request.method === 'POST' && request.path === '/v1/chat/completions'),
    enqueue: (...responses) => {
      queue.push(...responses);
    },
    setDefault: (response) => {
      fallback = typeof response === 'function' ? response : () => response;
    },
    fineTuning,
    openConnections: () => sockets.size,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
