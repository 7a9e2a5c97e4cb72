import { Command, Option } from 'commander';
import type { AutopilotStatus, CuratorOverview, MissionSummary, RoutingResult } from '../../autopilot/index.js';
import { blueprintsCommand } from './autopilot-blueprints.command.js';
import { call, verb, type Flags } from './autopilot-client.js';
import { printCurator } from './autopilot-curator-output.js';
import { addDraftVerbs } from './autopilot-drafts.command.js';
import { printRouting } from './autopilot-output.js';
import { addRunVerbs } from './autopilot-runs.command.js';
import { printObject, printRows } from '../output.js';

const MISSION_COLUMNS = ['mission_id', 'status', 'blueprint_id', 'title', 'next_run_at'];

const CURATOR_WAIT_MS = 600_000;
const CURATOR_POLL_MS = 250;
const isUnfinished = (job: CuratorOverview['jobs'][number]) => job.status === 'queued' || job.status === 'running';

const GOAL_EXAMPLE =
  '\nExample:\n  autopilot goal "Summarise the news every Monday at 9"\n  autopilot goal watch prices vendors=acme,globex schedule="0 9 * * 1"   (words are joined)';

/** `autopilot status|enable|disable|goal|missions` (spec 4.8) and the verbs that reach a running mission; also `agent-gateway autopilot …`. */
export function autopilotCommand(): Command {
  const autopilot = new Command('autopilot')
    .description('Turn plain-English goals into scheduled missions')
    .showHelpAfterError();

  verb(autopilot, 'status', 'show whether autopilot is enabled, its tier, instance id and quota').action(
    async (flags: Flags) => {
      const status = await call<AutopilotStatus>(flags, 'GET', '/status');
      printObject({ ...status, quota: status.quota && formatQuota(status.quota) }, flags.json ?? false);
    },
  );

  verb(autopilot, 'enable', 'enable autopilot (keeps the current tier unless --tier is given)')
    .addOption(
      new Option('--tier <tier>', 'hosted-service tier (default: the current one; anonymous the first time)').choices([
        'anonymous',
        'free',
        'skip',
      ]),
    )
    .action(async (flags: Flags & { tier?: string }) => {
      const before = await call<AutopilotStatus>(flags, 'GET', '/status');
      const tier = flags.tier ?? before.tier;
      const result = await call<Record<string, unknown>>(flags, 'POST', '/enable', { tier });
      if (flags.json) return printObject(result, true);
      console.log(describeEnable(before, tier, flags.tier !== undefined));
    });

  verb(autopilot, 'disable', 'disable autopilot (new goals are refused; missions carry on)').action(
    async (flags: Flags) => printObject(await call(flags, 'POST', '/disable'), flags.json ?? false),
  );

  verb(autopilot, 'goal', 'route a plain-English goal to a blueprint; key=value pairs fill slots')
    .argument('<goal...>', 'the goal, quoted or as several words')
    .addHelpText('after', GOAL_EXAMPLE)
    .action(async (words: string[], flags: Flags) => {
      const goal = words.join(' ');
      const result = await call<RoutingResult>(flags, 'POST', '/goal', { goal }, { goal });
      if (flags.json) console.log(JSON.stringify(result, null, 2));
      else printRouting(result, flags.project);
    });

  verb(autopilot, 'missions', "list the project's missions").action(async (flags: Flags) => {
    const missions = await call<MissionSummary[]>(flags, 'GET', '/missions');
    printRows(missions, MISSION_COLUMNS, flags.json ?? false);
  });

  verb(autopilot, 'curator', 'show curated datasets, fine-tune jobs and the active model per dataset')
    .option('--wait', 'first wait (up to 10 minutes) until no fine-tune job is queued or running')
    .action(async (flags: Flags & { wait?: boolean }) => {
      const deadline = Date.now() + CURATOR_WAIT_MS;
      let overview = await call<CuratorOverview>(flags, 'GET', '/curator');
      while (flags.wait && overview.jobs.some(isUnfinished) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, CURATOR_POLL_MS));
        overview = await call<CuratorOverview>(flags, 'GET', '/curator');
      }
      if (flags.json) console.log(JSON.stringify(overview, null, 2));
      else printCurator(overview);
    });

  verb(autopilot, 'rollback', "return a dataset's missions to the model active before its current one")
    .argument('<dataset>')
    .action(async (dataset: string, flags: Flags) =>
      printObject(await call(flags, 'POST', '/models/rollback', { dataset }), flags.json ?? false),
    );

  addDraftVerbs(autopilot);
  addRunVerbs(autopilot);
  autopilot.addCommand(blueprintsCommand(verb, call));
  autopilot.addHelpText(
    'after',
    `\nA first mission, offline:\n  autopilot enable --tier skip\n  autopilot goal "Summarise the news every Monday at 9"\n  autopilot synthesize "Summarise the news every Monday at 9"\n  autopilot approve <mission_id>\n  autopilot run <mission_id> --wait`,
  );
  return autopilot;
}

/** What `enable` changed, and the command to run next. */
export function describeEnable(before: AutopilotStatus, tier: string, tierGiven: boolean): string {
  const state = before.enabled ? 'autopilot was already enabled' : 'autopilot enabled';
  const tierNote =
    before.tier === tier
      ? `tier ${tier}${tierGiven ? '' : ' (kept; --tier anonymous|free|skip changes it)'}`
      : `tier ${before.tier} -> ${tier}`;
  const next =
    tier === 'skip'
      ? 'no hosted service: goals use the local blueprint library and synthesis'
      : 'goals go to the hosted blueprint service first';
  return `${state}, ${tierNote}\n${next}\nnext: autopilot goal "Summarise the news every Monday at 9"`;
}

function formatQuota(quota: Record<string, string | number>): string {
  const { used, limit, tier, endpoint, reset, ...rest } = quota;
  const parts = [
    used !== undefined || limit !== undefined ? `${used ?? '?'}/${limit ?? '?'} used` : '',
    tier ? `tier ${tier}` : '',
    endpoint ? `endpoint ${endpoint}` : '',
    reset ? `resets ${reset}` : '',
  ];
  return [...parts, ...Object.entries(rest).map(([key, value]) => `${key}=${value}`)].filter(Boolean).join(', ');
}
