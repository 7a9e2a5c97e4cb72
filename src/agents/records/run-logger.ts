// TODO(#19): start-run.ts and run-execution.ts import Logger from logger.ts directly once the runtime rewrite lands.
export type { Logger as RunLogger } from '../../logger.js';
