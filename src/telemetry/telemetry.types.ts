/** The started (or skipped) OpenTelemetry SDK, as app.ts holds it. */
export interface Telemetry {
  readonly enabled: boolean;
  /** Exports every span and metric recorded so far (tests, shutdown). */
  flush(): Promise<void>;
  /** Flushes and unregisters the SDK; the API goes back to its no-op. */
  shutdown(): Promise<void>;
}
