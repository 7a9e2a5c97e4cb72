import type { ModelClient } from '../../llm/index.js';
import type { BlueprintCheckOptions } from './validate-blueprint.js';

/** Tools and models as this installation has them: what a blueprint is validated against. */
export function createBlueprintChecks(options: {
  toolNames(): string[];
  models: ModelClient;
  defaultModel?: string;
}): BlueprintCheckOptions {
  return {
    defaultModel: options.defaultModel,
    toolExists(name) {
      const names = options.toolNames();
      if (names.includes(name)) return true;
      // `<prefix>__*` names every tool of one MCP server, as in an agent's tools list.
      return name.endsWith('__*') && names.some((tool) => tool.startsWith(name.slice(0, -1)));
    },
    modelExists(model) {
      try {
        options.models.describe(model);
        return true;
      } catch {
        return false;
      }
    },
  };
}
