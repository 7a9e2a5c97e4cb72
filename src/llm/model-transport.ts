import type { FinishReason, ModelCallRequest, ReportedUsage, ToolCall } from './types.js';

export type { ReportedUsage } from './types.js';

/** What a transport yields for one streamed call; failures (including in-stream error chunks) are thrown by `read`. */
export type TransportPart =
  | { type: 'text-delta'; delta: string }
  | { type: 'tool-call'; toolCall: ToolCall }
  /** The provider's counts as soon as a chunk carries them, so a stream that breaks later is still billed by them. */
  | { type: 'usage'; usage: ReportedUsage }
  | { type: 'finish'; finishReason: FinishReason; usage?: ReportedUsage; responseModel?: string };

/** A pull reader over one call's parts, shaped like a web stream reader. */
export interface PartReader {
  read(): Promise<{ done: true; value?: undefined } | { done: false; value: TransportPart }>;
  /** Stops reading and closes the upstream request. */
  cancel(): Promise<void>;
}

/** How a provider opens a streamed model call: through an AI SDK model or the lean Chat Completions client. */
export interface ModelTransport {
  /** Resolves once the upstream accepted the call (HTTP 2xx); the signal aborts the request at any point. */
  openStream(modelId: string, request: ModelCallRequest, signal: AbortSignal): Promise<PartReader>;
}
