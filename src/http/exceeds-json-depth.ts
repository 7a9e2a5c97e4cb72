/**
 * True when JSON text nests arrays and objects more than `limit` deep (`[]` is depth 1). It scans the
 * text once without recursion, skipping string contents, so a body nested 10,000 deep is refused before
 * JSON.parse, schema validation or an SDK walks it recursively. Malformed text is left to JSON.parse.
 */
export function exceedsJsonDepth(text: string, limit: number): boolean {
  let depth = 0;
  for (let index = 0; index < text.length; index += 1) {
    const char = text.charCodeAt(index);
    if (char === QUOTE) {
      index = closingQuote(text, index);
      if (index === -1) return false;
    } else if (char === OPEN_BRACE || char === OPEN_BRACKET) {
      depth += 1;
      if (depth > limit) return true;
    } else if (char === CLOSE_BRACE || char === CLOSE_BRACKET) {
      depth -= 1;
    }
  }
  return false;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/** The index of the quote that ends the string opened at `open`, or -1 when it never ends. */
function closingQuote(text: string, open: number): number {
  let candidate = text.indexOf('"', open + 1);
  while (candidate !== -1 && isEscaped(text, candidate)) candidate = text.indexOf('"', candidate + 1);
  return candidate;
}

/** An odd run of backslashes before a quote escapes it. */
function isEscaped(text: string, quote: number): boolean {
  let backslashes = 0;
  for (let index = quote - 1; index >= 0 && text.charCodeAt(index) === BACKSLASH; index -= 1) backslashes += 1;
  return backslashes % 2 === 1;
}
