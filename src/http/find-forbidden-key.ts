/**
 * Where JSON text holds a key the body parser refuses (`__proto__`, or `prototype` inside `constructor`), as
 * a path such as `body.max_tokens.__proto__`; undefined when it holds none or is not JSON at all. The parser
 * refuses such bodies (prototype poisoning) with one message for every cause; this names the field. Call it
 * only on text already checked not to nest deeper than the depth limit: it recurses.
 */
export function findForbiddenKey(text: string): string | undefined {
  let value: unknown;
  try {
    // Plain JSON.parse makes `__proto__` an own property, never the prototype: safe to walk.
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return walk(value, 'body');
}

function walk(value: unknown, path: string): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) {
      const found = walk(value[index], `${path}.${index}`);
      if (found) return found;
    }
    return undefined;
  }
  for (const key of Object.keys(value)) {
    const child = (value as Record<string, unknown>)[key];
    if (key === '__proto__') return `${path}.__proto__`;
    if (key === 'constructor' && typeof child === 'object' && child !== null && Object.hasOwn(child, 'prototype'))
      return `${path}.constructor.prototype`;
    const found = walk(child, `${path}.${key}`);
    if (found) return found;
  }
  return undefined;
}
