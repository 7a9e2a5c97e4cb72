export { isTerminalEvent, type RunEvent, type RunEventBody, type RunEventType, type RunSource } from './events.js';
