import type { Readable } from 'node:stream';
import { createParser } from 'eventsource-parser';
import type { PartReader, TransportPart } from '../model-transport.js';
import { ChatChunkDecoder, invalidResponse } from './chat-chunk-decoder.js';

/** Bounds the text buffered for one SSE event, so a server that never ends an event cannot exhaust memory. */
const MAX_EVENT_CHARS = 16 * 1024 * 1024;

function parseChunk(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    throw invalidResponse(`a stream chunk is not valid JSON: ${data.slice(0, 200)}`, data);
  }
}

/** Reads a Chat Completions SSE body as transport parts, parsing only as far as the caller pulls. */
export function createChatPartReader(body: Readable): PartReader {
  const decoder = new ChatChunkDecoder();
  const queue: TransportPart[] = [];
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    decoder.finish(queue);
  };
  const parser = createParser({
    onEvent(event) {
      if (finished) return;
      if (event.data === '[DONE]') finish();
      else decoder.accept(parseChunk(event.data), queue);
    },
    onError(error) {
      if (error.type === 'max-buffer-size-exceeded')
        throw invalidResponse(`a stream event is longer than ${MAX_EVENT_CHARS} characters`);
    },
    maxBufferSize: MAX_EVENT_CHARS,
  });
  body.setEncoding('utf8');
  const chunks = body[Symbol.asyncIterator]() as AsyncIterator<string>;
  let ended = false;
  let failure: { error: unknown } | undefined;
  return {
    async read() {
      // After [DONE] the body is still read to its end, so the connection goes back to the pool.
      while (queue.length === 0) {
        if (failure) throw failure.error;
        if (ended) return { done: true };
        const next = await chunks.next();
        try {
          if (next.done) {
            ended = true;
            finish();
          } else {
            parser.feed(next.value);
          }
        } catch (error) {
          // One read can carry several events: the parts before the failing one still go out first.
          failure = { error };
        }
      }
      return { done: false, value: queue.shift()! };
    },
    async cancel() {
      body.destroy();
    },
  };
}
