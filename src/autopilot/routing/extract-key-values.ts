// key=value, key="quoted value" or key='quoted value', after a space or at the start; `a==b` is not a pair.
const KEY_VALUE = /(?:^|\s)([A-Za-z_][A-Za-z0-9_]*)=(?:"((?:[^"\\]|\\.)*)"|'([^']*)'|([^\s="'][^\s]*))/g;

/** Reads `key=value` pairs from goal text; a later pair for the same key wins. */
export function extractKeyValues(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const match of text.matchAll(KEY_VALUE)) {
    const [, key, doubleQuoted, singleQuoted, bare] = match;
    values[key] = doubleQuoted !== undefined ? doubleQuoted.replace(/\\(.)/g, '$1') : (singleQuoted ?? bare);
  }
  return values;
}
