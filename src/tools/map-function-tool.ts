import type { ToolDefinition } from '../llm/index.js';
import type { FunctionTool } from './tools.schema.js';

/** The discovery shape: `properties` and `required` are always present so clients need no defaults. */
export function mapToFunctionTool(definition: ToolDefinition): FunctionTool {
  const { parameters } = definition;
  return {
    type: 'function',
    function: {
      name: definition.name,
      description: definition.description,
      parameters: {
        ...parameters,
        type: 'object',
        properties: parameters.properties ?? {},
        required: parameters.required ?? [],
      },
    },
  };
}
