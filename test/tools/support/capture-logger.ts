import type { Logger } from '../../../src/logger.js';

/** A Logger that keeps every line, so tests can check what was logged. */
export function captureLogger(): Logger & { lines: { level: string; details: object; message: string }[] } {
  const lines: { level: string; details: object; message: string }[] = [];
  return {
    lines,
    debug: (details, message) => void lines.push({ level: 'debug', details, message }),
    info: (details, message) => void lines.push({ level: 'info', details, message }),
    warn: (details, message) => void lines.push({ level: 'warn', details, message }),
    error: (details, message) => void lines.push({ level: 'error', details, message }),
  };
}
