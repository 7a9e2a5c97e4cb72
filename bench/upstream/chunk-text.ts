/** Filler with no e-mail, phone or card numbers, so PII guardrails pass it through unchanged. */
const FILLER = 'The quick brown fox jumps over the lazy dog while the gateway relays every token it is given. ';

const STAMP_PATTERN = /\[t=(\d+\.\d+)\]/g;

/**
 * Wall-clock milliseconds with sub-millisecond resolution. `timeOrigin` is the process start on the
 * system clock, so values from the upstream process and a client process are comparable on one machine.
 */
export function nowMs(): number {
  return performance.timeOrigin + performance.now();
}

export function formatStamp(ms: number): string {
  return `[t=${ms.toFixed(3)}]`;
}

/** Every stamp in a piece of text, in order; a client's raw SSE frame works as well as parsed JSON. */
export function parseStamps(text: string): number[] {
  const stamps: number[] = [];
  for (const match of text.matchAll(STAMP_PATTERN)) stamps.push(Number(match[1]));
  return stamps;
}

/** `bytes` characters of content split into `chunks` nearly equal, non-empty pieces. */
export function createChunkText(bytes: number, chunks: number): string[] {
  const text = FILLER.repeat(Math.ceil(bytes / FILLER.length)).slice(0, Math.max(bytes, chunks));
  const size = Math.ceil(text.length / chunks);
  const pieces: string[] = [];
  for (let start = 0; start < text.length; start += size) pieces.push(text.slice(start, start + size));
  return pieces;
}
