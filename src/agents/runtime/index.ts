export type { RunTiming } from './run-context.js';
export type { RunResult, RunUsage } from './run-result.js';
