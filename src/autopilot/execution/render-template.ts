const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_-]*)\s*\}\}/g;

/** The names of the `{{name}}` placeholders in a node prompt. */
export function listPlaceholders(template: string): string[] {
  return [...template.matchAll(PLACEHOLDER)].map((match) => match[1]);
}

/** The placeholder an earlier node's output fills: `{{step_<id>_output}}`. */
export function stepOutputPlaceholder(nodeId: string): string {
  return `step_${nodeId}_output`;
}

/**
 * Fills `{{name}}` from the variables; lists join with ", ", objects render as JSON. Unknown names stay
 * as written, or render empty with `missing: 'empty'` (what a model gets: never a raw placeholder).
 */
export function renderTemplate(
  template: string,
  variables: Record<string, unknown>,
  options: { missing?: 'keep' | 'empty' } = {},
): string {
  return template.replace(PLACEHOLDER, (whole, name: string) => {
    if (!Object.hasOwn(variables, name)) return options.missing === 'empty' ? '' : whole;
    const value = variables[name];
    if (value === null || value === undefined) return '';
    if (Array.isArray(value)) return value.map(String).join(', ');
    if (typeof value === 'object' && value !== null) return JSON.stringify(value);
    return String(value); // eslint-disable-line @typescript-eslint/no-base-to-string -- objects, null and undefined were handled above
  });
}
