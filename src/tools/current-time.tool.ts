import type { BuiltinToolConfig } from '../config/index.js';
import type { RegisteredTool } from './registered-tool.js';
import { ToolExecutionError } from './types.js';

const DEFAULT_TIMEOUT_MS = 5_000;

/** Built-in `get_current_time`: the instant in UTC and as wall-clock time in an IANA time zone. */
export function createCurrentTimeTool(
  settings?: BuiltinToolConfig,
  now: () => Date = () => new Date(),
): RegisteredTool {
  return {
    definition: {
      name: 'get_current_time',
      description:
        'Returns the current date and time: the ISO 8601 UTC instant and the local time in an IANA time zone.',
      parameters: {
        type: 'object',
        properties: {
          timezone: {
            type: 'string',
            minLength: 1,
            description: 'IANA time zone name such as "Europe/Paris" or "America/New_York"; default "UTC"',
          },
        },
        required: [],
        additionalProperties: false,
      },
    },
    timeoutMs: settings?.timeout_ms ?? DEFAULT_TIMEOUT_MS,
    idempotent: settings?.idempotent ?? true,
    async run(args) {
      const timezone = typeof args.timezone === 'string' ? args.timezone : 'UTC';
      return JSON.stringify(describeInstant(now(), timezone));
    },
  };
}

function describeInstant(instant: Date, timezone: string) {
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: timezone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      weekday: 'long',
      timeZoneName: 'longOffset',
    });
  } catch {
    throw new ToolExecutionError(
      `timezone: "${timezone}" is not a known IANA time zone name (for example "Europe/Paris")`,
      'invalid_arguments',
    );
  }
  const parts = Object.fromEntries(format.formatToParts(instant).map((part) => [part.type, part.value]));
  // longOffset renders "GMT+05:30", or plain "GMT" for a zero offset.
  const offset = parts.timeZoneName === 'GMT' ? '+00:00' : parts.timeZoneName.replace('GMT', '');
  return {
    // The name as asked: ICU would canonicalise some to legacy aliases (Asia/Kolkata -> Asia/Calcutta).
    timezone,
    utc: instant.toISOString(),
    local: `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}${offset}`,
    utc_offset: offset,
    weekday: parts.weekday,
  };
}
