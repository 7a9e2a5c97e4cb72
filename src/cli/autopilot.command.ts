import { Command, Option } from 'commander';
import type { AutopilotStatus, CuratorOverview, HealingRecommendation, MissionDetail, MissionSummary, RoutingResult } from '../autopilot/index.js';
import { callApi } from './api-client.js';
import { printHealing, printMission, printRouting } from './autopilot-output.js';
import { printCurator } from './autopilot-curator-output.js';
import { clientSettings, withClientOptions, type ClientFlags } from './client-options.js';
import { printObject, printRows } from './output.js';

type Flags = ClientFlags & { project?: string };

const BASE = '/api/v1/autopilot';
const MISSION_COLUMNS = ['mission_id', 'status', 'blueprint_id', 'title', 'next_run_at'];

/** Every autopilot verb shares the client options and --project (sent as X-Project-ID). */
function verb(parent: Command, name: string, description: string): Command {
  return withClientOptions(parent.command(name)).description(description).option('--project <project_id>', 'project to act in (X-Project-ID; default "default")');
}

function call<T>(flags: Flags, method: string, path: string, body?: unknown): Promise<T> {
  return callApi<T>(clientSettings(flags), method, `${BASE}${path}`, body, flags.project ? { 'x-project-id': flags.project } : {});
}

const missionPath = (id: string) => `/missions/${encodeURIComponent(id)}`;

/** `autopilot status|enable|disable|goal|missions|show|approve|run|cancel` (spec 4.8); also `agent-gateway autopilot …`. */
export function autopilotCommand(): Command {
  const autopilot = new Command('autopilot').description('Turn plain-English goals into scheduled missions').showHelpAfterError();

  verb(autopilot, 'status', 'show whether autopilot is enabled, its tier, instance id and quota').action(async (flags: Flags) => {
    const status = await call<AutopilotStatus>(flags, 'GET', '/status');
    printObject({ ...status, quota: status.quota && formatQuota(status.quota) }, flags.json ?? false);
  });

  verb(autopilot, 'enable', 'enable autopilot')
    .addOption(new Option('--tier <tier>', 'hosted-service tier').choices(['anonymous', 'free', 'skip']).default('anonymous'))
    .action(async (flags: Flags & { tier: string }) => printObject(await call(flags, 'POST', '/enable', { tier: flags.tier }), flags.json ?? false));

  verb(autopilot, 'disable', 'disable autopilot (new goals are refused; missions carry on)').action(async (flags: Flags) =>
    printObject(await call(flags, 'POST', '/disable'), flags.json ?? false),
  );

  verb(autopilot, 'goal', 'route a plain-English goal to a blueprint; key=value pairs fill slots')
    .argument('<goal...>', 'the goal, e.g. watch prices vendors=acme,globex schedule="0 9 * * 1"')
    .action(async (words: string[], flags: Flags) => {
      const result = await call<RoutingResult>(flags, 'POST', '/goal', { goal: words.join(' ') });
      if (flags.json) console.log(JSON.stringify(result, null, 2));
      else printRouting(result);
    });

  verb(autopilot, 'missions', "list the project's missions").action(async (flags: Flags) => {
    const missions = await call<MissionSummary[]>(flags, 'GET', '/missions');
    printRows(missions as unknown as Record<string, unknown>[], MISSION_COLUMNS, flags.json ?? false);
  });

  verb(autopilot, 'show', 'show a mission: preview, runs, latest steps and healing recommendations')
    .argument('<mission_id>')
    .action(async (id: string, flags: Flags) => printDetail(await call<MissionDetail>(flags, 'GET', missionPath(id)), flags));

  verb(autopilot, 'approve', 'approve a draft mission: it becomes scheduled')
    .argument('<mission_id>')
    .action(async (id: string, flags: Flags) => printDetail(await call<MissionDetail>(flags, 'POST', `${missionPath(id)}/approve`), flags));

  verb(autopilot, 'run', 'run a scheduled mission now')
    .argument('<mission_id>')
    .action(async (id: string, flags: Flags) => printDetail(await call<MissionDetail>(flags, 'POST', `${missionPath(id)}/run`), flags));

  verb(autopilot, 'cancel', 'cancel a mission (no effect once completed or failed)')
    .argument('<mission_id>')
    .action(async (id: string, flags: Flags) => printObject(await call(flags, 'DELETE', missionPath(id)), flags.json ?? false));

  verb(autopilot, 'healing', "show a mission's recommended actions")
    .argument('<mission_id>')
    .action(async (id: string, flags: Flags) => {
      const healing = await call<HealingRecommendation[]>(flags, 'GET', `${missionPath(id)}/healing`);
      if (flags.json) console.log(JSON.stringify(healing, null, 2));
      else if (healing.length === 0) console.log('No recommendations.');
      else printHealing(healing);
    });

  verb(autopilot, 'curator', 'show curated datasets, fine-tune jobs and the active model per dataset').action(async (flags: Flags) => {
    const overview = await call<CuratorOverview>(flags, 'GET', '/curator');
    if (flags.json) console.log(JSON.stringify(overview, null, 2));
    else printCurator(overview);
  });

  verb(autopilot, 'rollback', "return a dataset's missions to the model active before its current one")
    .argument('<dataset>')
    .action(async (dataset: string, flags: Flags) => printObject(await call(flags, 'POST', '/models/rollback', { dataset }), flags.json ?? false));

  return autopilot;
}

function printDetail(mission: MissionDetail, flags: Flags): void {
  if (flags.json) console.log(JSON.stringify(mission, null, 2));
  else printMission(mission);
}

function formatQuota(quota: Record<string, string | number>): string {
  const { used, limit, tier, endpoint, reset, ...rest } = quota;
  const parts = [used !== undefined || limit !== undefined ? `${used ?? '?'}/${limit ?? '?'} used` : '', tier ? `tier ${tier}` : '', endpoint ? `endpoint ${endpoint}` : '', reset ? `resets ${reset}` : ''];
  return [...parts, ...Object.entries(rest).map(([key, value]) => `${key}=${value}`)].filter(Boolean).join(', ');
}
