/** Tool results go into a model's context window: bodies past this many bytes are cut. */
export const MAX_RESPONSE_BYTES = 32_768;

/** Reads at most `maxBytes` of a response body as text and cancels the rest, so a huge body is never downloaded. */
export async function readLimitedText(
  response: Response,
  maxBytes = MAX_RESPONSE_BYTES,
): Promise<{ text: string; truncated: boolean }> {
  if (!response.body) return { text: '', truncated: false };
  const reader: ReadableStreamDefaultReader<Uint8Array> = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let received = 0;
  let truncated = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const room = maxBytes - received;
    if (value.byteLength > room) {
      text += decoder.decode(value.subarray(0, room), { stream: true });
      truncated = true;
      await reader.cancel();
      break;
    }
    received += value.byteLength;
    text += decoder.decode(value, { stream: true });
  }
  // A multi-byte character cut at the limit is dropped rather than shown as a replacement character.
  if (!truncated) text += decoder.decode();
  return { text, truncated };
}
