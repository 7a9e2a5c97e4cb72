import { randomBytes } from 'node:crypto';
import { countTokens } from 'gpt-tokenizer';
import { describe, expect, it } from 'vitest';
import { countTextTokens } from '../../src/llm/count-tokens.js';

/** The tokenizer's own count of `text` cut into `size`-character pieces: independent of our cut points. */
function chunkedReference(text: string, size: number): number {
  let total = 0;
  for (let start = 0; start < text.length; start += size) total += countTokens(text.slice(start, start + size));
  return total;
}

const relativeError = (value: number, reference: number) => Math.abs(value - reference) / reference;

function prose(sentences: number): string {
  return Array.from(
    { length: sentences },
    (_, i) =>
      `Sentence ${i}: the gateway counts what a model said,  even when\tthe stream broke.${i % 7 ? ' ' : '\n\n'}`,
  ).join('');
}

describe('countTextTokens', () => {
  // Whole, gpt-tokenizer needs hours for this (quadratic in the length of a word): the call never returns.
  it('counts 2 MiB without a space, close to a chunked count', () => {
    const text = 'a'.repeat(2 * 1024 * 1024);
    expect(relativeError(countTextTokens(text), chunkedReference(text, 512))).toBeLessThan(0.1);
  });

  it('counts a long base64 text (one word to the tokenizer) close to a chunked count', () => {
    const text = randomBytes(96 * 1024).toString('base64');
    expect(relativeError(countTextTokens(text), chunkedReference(text, 512))).toBeLessThan(0.1);
  });

  it('estimates 10 MiB of base64 from samples, close to the count of a part of it scaled', () => {
    const text = randomBytes(7.5 * 1024 * 1024).toString('base64');
    const part = text.slice(0, 64 * 1024);
    const reference = (chunkedReference(part, 512) * text.length) / part.length;
    expect(relativeError(countTextTokens(text), reference)).toBeLessThan(0.1);
  });

  it('counts ordinary text up to 256 KiB exactly as the tokenizer does on the whole', () => {
    const text = prose(3000);
    expect(text.length).toBeGreaterThan(200_000);
    expect(countTextTokens(text)).toBe(countTokens(text));
  });

  it('estimates longer ordinary text within 2% of the whole count', () => {
    const text = prose(12_000);
    expect(text.length).toBeGreaterThan(900_000);
    expect(relativeError(countTextTokens(text), countTokens(text))).toBeLessThan(0.02);
  });

  it('never cuts a surrogate pair (a cut one counts as extra tokens)', () => {
    // The odd first character puts every hard cut between the two halves of an emoji.
    const text = `x${'😀'.repeat(3000)}`;
    expect(countTextTokens(text)).toBe(countTokens(text));
  });
});
