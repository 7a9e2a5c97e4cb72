import { readFile } from 'node:fs/promises';

export interface OpenAiFineTuningSettings {
  /** The provider's base URL including `/v1` (as configured for chat completions). */
  baseUrl: string;
  apiKey?: string;
  headers?: Record<string, string>;
  fetch?: typeof fetch;
}

export interface RemoteJobState {
  status: 'running' | 'succeeded' | 'failed';
  fineTunedModel?: string;
  error?: string;
}

/** A fault the next poll may not have (5xx, 429, network): polling carries on. */
export class TransientFineTuneError extends Error {}

/**
 * The OpenAI fine-tuning API, which OpenAI-compatible servers copy: upload the JSONL (`POST /files`,
 * purpose fine-tune), create the job (`POST /fine_tuning/jobs`), read its state (`GET /fine_tuning/jobs/{id}`).
 * Plain fetch: the AI SDK has no fine-tuning calls.
 */
/** A JSON object of the OpenAI API, read field by field. */
type ApiObject = {
  id?: string;
  status?: string;
  fine_tuned_model?: string | null;
  error?: { message?: string } | null;
};

export function createOpenAiFineTuningClient(settings: OpenAiFineTuningSettings) {
  const base = settings.baseUrl.replace(/\/+$/, '');
  const doFetch = settings.fetch ?? fetch;
  const headers = { ...settings.headers, ...(settings.apiKey ? { authorization: `Bearer ${settings.apiKey}` } : {}) };

  async function call(method: string, path: string, body?: FormData | object): Promise<ApiObject> {
    let response: Response;
    try {
      const json = body !== undefined && !(body instanceof FormData);
      response = await doFetch(`${base}${path}`, {
        method,
        headers: json ? { ...headers, 'content-type': 'application/json' } : headers,
        body: body === undefined ? undefined : json ? JSON.stringify(body) : body,
      });
    } catch (error) {
      throw new TransientFineTuneError(`${method} ${path}: ${(error as Error).message}`);
    }
    const text = await response.text();
    if (!response.ok) {
      const message = `${method} ${path} answered ${response.status}: ${text.slice(0, 300)}`;
      throw response.status >= 500 || response.status === 429
        ? new TransientFineTuneError(message)
        : new Error(message);
    }
    return JSON.parse(text) as ApiObject;
  }

  return {
    async uploadFile(path: string): Promise<string> {
      const form = new FormData();
      form.append('purpose', 'fine-tune');
      form.append('file', new Blob([await readFile(path)], { type: 'application/jsonl' }), 'training.jsonl');
      return String((await call('POST', '/files', form)).id);
    },
    async createJob(trainingFile: string, model: string): Promise<string> {
      return String((await call('POST', '/fine_tuning/jobs', { training_file: trainingFile, model })).id);
    },
    async getJob(id: string): Promise<RemoteJobState> {
      const job = await call('GET', `/fine_tuning/jobs/${encodeURIComponent(id)}`);
      if (job.status === 'succeeded' && job.fine_tuned_model)
        return { status: 'succeeded', fineTunedModel: String(job.fine_tuned_model) };
      if (job.status === 'failed' || job.status === 'cancelled')
        return { status: 'failed', error: job.error?.message ?? `the job ended ${job.status}` };
      return { status: 'running' };
    },
  };
}

export type OpenAiFineTuningClient = ReturnType<typeof createOpenAiFineTuningClient>;
