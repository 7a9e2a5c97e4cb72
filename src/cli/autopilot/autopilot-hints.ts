import { CliError } from '../api-client.js';

/** What the user was doing when a call failed: lets a hint name the exact next command. */
export interface HintContext {
  missionId?: string;
  goal?: string;
  project?: string;
}

const quote = (text: string) => `"${text.replace(/(["\\$`])/g, '\\$1')}"`;

/** The next CLI command for an API error code (never an HTTP route); undefined when there is none to suggest. */
export function nextCommandFor(status: number, code: string, context: HintContext, message = ''): string | undefined {
  const id = context.missionId ?? '<mission_id>';
  const project = context.project ? ` --project ${context.project}` : '';
  switch (code) {
    case 'autopilot_disabled':
      return 'autopilot enable --tier skip   (or --tier anonymous to use the hosted service)';
    case 'missing_slots':
    case 'invalid_slot':
      return context.missionId
        ? `autopilot set ${id} --slot <name>=<value>${project}`
        : 'add key=value pairs to the goal, or --slot <name>=<value>';
    case 'invalid_mission_state':
      // A draft runs once approved; any other state is best looked at first.
      return /\bin state draft\b/.test(message)
        ? `autopilot approve ${id}${project}`
        : `autopilot show ${id}${project}`;
    case 'mission_not_found':
      return `autopilot missions${project}`;
    case 'no_picker':
    case 'invalid_pick':
      return `autopilot goal ${quote(context.goal ?? '<goal text>')}${project}`;
    case 'synthesis_unavailable':
    case 'synthesis_failed':
      return 'autopilot blueprints list, then autopilot create --blueprint FILE';
    case 'invalid_blueprint':
      return 'autopilot blueprints validate FILE';
    case 'blueprint_not_found':
      return 'autopilot blueprints list';
    default:
      if (status === 401)
        return 'pass --token <api key> or set AGENT_GATEWAY_TOKEN (the key is in <data_dir>/admin-api-key)';
      return undefined;
  }
}

/** Adds `next: <command>` to a failed API call's message. */
export function withHint(error: unknown, context: HintContext): unknown {
  if (!(error instanceof CliError)) return error;
  const match = /^(\d{3}) ([a-z_]+)?:/.exec(error.message);
  const next = match
    ? nextCommandFor(Number(match[1]), match[2] ?? '', context, error.message)
    : /^cannot reach/.test(error.message)
      ? 'start the server: agent-gateway serve (or npm start)'
      : undefined;
  return next ? new CliError(`${error.message}\nnext: ${next}`) : error;
}
