export type { RunTiming } from './run-timer.js';
export type { RunResult, RunUsage } from './run-result.js';
