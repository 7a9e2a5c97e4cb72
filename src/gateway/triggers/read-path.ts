/** Reads a dotted path (`data.items`, `items.0.id`) from parsed JSON; undefined when any step is missing. */
export function readPath(value: unknown, path: string): unknown {
  let current = value;
  for (const segment of path.split('.')) {
    if (typeof current !== 'object' || current === null) return undefined;
    // Own properties only: a path never reaches inherited members such as `constructor`.
    if (!Object.prototype.hasOwnProperty.call(current, segment)) return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

/** A usable id or event type: a non-empty string, or a finite number as text. */
export function readKey(value: unknown, path: string): string | undefined {
  const found = readPath(value, path);
  if (typeof found === 'string' && found !== '') return found;
  if (typeof found === 'number' && Number.isFinite(found)) return String(found);
  return undefined;
}
