import Mustache from 'mustache';

/**
 * Renders a handler's prompt template over the payload with mustache: logic-less, missing fields
 * render empty, no HTML escaping (prompts are not HTML), objects render as JSON. The payload is copied
 * into prototype-less objects so a template can only reach the payload's own fields, never inherited
 * functions such as `constructor` that mustache would call.
 */
export function renderPrompt(template: string, payload: unknown): string {
  return Mustache.render(template, withoutPrototypes(payload), undefined, { escape: formatValue });
}

function formatValue(value: unknown): string {
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
}

function withoutPrototypes(value: unknown): unknown {
  if (Array.isArray(value)) {
    // Still an array for mustache's section loops (Array.isArray holds), but with no methods to call.
    return Object.setPrototypeOf(value.map(withoutPrototypes), null) as unknown[];
  }
  if (typeof value !== 'object' || value === null) return value;
  const copy = Object.create(null) as Record<string, unknown>;
  for (const [key, item] of Object.entries(value)) copy[key] = withoutPrototypes(item);
  return copy;
}
