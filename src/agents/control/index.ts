export type { RunHandle, StartRunRequest } from './run-handle.js';
export type { AttachOptions } from './run-attach.js';
export type { RunControlResult } from './run-commands.js';
export {
  cancelledError,
  CLIENT_CLOSED,
  CLIENT_STALLED,
  createRunControl,
  type RunControl,
  type RunControlStatus,
  type RunController,
} from './run-control.js';
