import type { ToolsLogger } from '../../../src/tools/index.js';

/** A ToolsLogger that keeps every line, so tests can check what was logged. */
export function captureLogger(): ToolsLogger & { lines: { level: string; details: object; message: string }[] } {
  const lines: { level: string; details: object; message: string }[] = [];
  return {
    lines,
    info: (details, message) => void lines.push({ level: 'info', details, message }),
    warn: (details, message) => void lines.push({ level: 'warn', details, message }),
  };
}
