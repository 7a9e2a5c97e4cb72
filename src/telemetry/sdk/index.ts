// The OpenTelemetry SDK side: loaded only by start-telemetry.ts's import() when telemetry is on.
export { startSdk } from './telemetry-sdk.js';
