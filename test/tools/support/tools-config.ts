import { configSchema, type ToolsConfig } from '../../../src/config/index.js';

/** Parses `tools:` entries through the real config schema, so defaults apply as they do for users. */
export function toolsConfig(entries: unknown[]): ToolsConfig {
  return configSchema.parse({ providers: {}, tools: entries }).tools;
}
