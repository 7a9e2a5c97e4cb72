/** The slice of a pino logger the runtime writes to. */
export interface RunLogger {
  error(details: object, message: string): void;
  warn(details: object, message: string): void;
}
