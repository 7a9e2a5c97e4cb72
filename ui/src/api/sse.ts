import { EventSourceParserStream } from 'eventsource-parser/stream';

export interface SseEvent {
  event: string;
  data: Record<string, unknown>;
}

/** Reads a streamed SSE response body (POST streams cannot use EventSource); an event without a name is `message`. */
export async function readSse(response: Response, onEvent: (event: SseEvent) => void): Promise<void> {
  if (!response.body) return;
  const events = response.body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream());
  const reader = events.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) {
    const { event, data } = next.value;
    if (data) onEvent({ event: event ?? 'message', data: JSON.parse(data) as Record<string, unknown> });
  }
}
