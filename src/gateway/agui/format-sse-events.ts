import type { StreamEvent } from './agui-event.js';

/**
 * The SSE text of the events one RunEvent became: `event:` + `data:` blocks with LF framing. Only the
 * last carries `id:`, so a client that resumes with Last-Event-ID never gets half of a group. `json`
 * is each event's JSON text when the caller already has it.
 */
export function formatSseEvents(
  events: StreamEvent[],
  id?: number,
  json: string[] = events.map((event) => JSON.stringify(event)),
): string {
  let text = '';
  for (let index = 0; index < events.length; index += 1) {
    if (id !== undefined && index === events.length - 1) text += `id: ${id}\n`;
    text += `event: ${events[index].type}\ndata: ${json[index]}\n\n`;
  }
  return text;
}
