import { Command, Option } from 'commander';
import type { AutopilotStatus, CuratorOverview, HealingRecommendation, MissionDetail, MissionSummary, RoutingResult } from '../autopilot/index.js';
import { callApi } from './api-client.js';
import { blueprintsCommand } from './autopilot-blueprints.command.js';
import { parseSlotFlags, readBlueprintArgument } from './autopilot-files.js';
import { withHint, type HintContext } from './autopilot-hints.js';
import { printHealing, printMission, printRouting } from './autopilot-output.js';
import { printCurator } from './autopilot-curator-output.js';
import { waitForExecution } from './autopilot-wait.js';
import { clientSettings, withClientOptions, type ClientFlags } from './client-options.js';
import { printObject, printRows } from './output.js';

type Flags = ClientFlags & { project?: string };

const BASE = '/api/v1/autopilot';
const MISSION_COLUMNS = ['mission_id', 'status', 'blueprint_id', 'title', 'next_run_at'];

/** Every autopilot verb shares the client options and --project (sent as X-Project-ID). */
function verb(parent: Command, name: string, description: string): Command {
  return withClientOptions(parent.command(name)).description(description).option('--project <project_id>', 'project to act in (X-Project-ID; default "default")');
}

// Every failure names the next CLI command to try (autopilot-hints.ts).
async function call<T>(flags: Flags, method: string, path: string, body?: unknown, context: HintContext = {}): Promise<T> {
  try {
    return await callApi<T>(clientSettings(flags), method, `${BASE}${path}`, body, flags.project ? { 'x-project-id': flags.project } : {});
  } catch (error) {
    throw withHint(error, { ...context, project: flags.project });
  }
}

const collect = (value: string, previous: string[]) => [...previous, value];
const GOAL_EXAMPLE = '\nExample:\n  autopilot goal "Summarise the news every Monday at 9"\n  autopilot goal watch prices vendors=acme,globex schedule="0 9 * * 1"   (words are joined)';

const missionPath = (id: string) => `/missions/${encodeURIComponent(id)}`;

/** `autopilot status|enable|disable|goal|missions` (spec 4.8) and the verbs that reach a running mission; also `agent-gateway autopilot …`. */
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
    .argument('<goal...>', 'the goal, quoted or as several words')
    .addHelpText('after', GOAL_EXAMPLE)
    .action(async (words: string[], flags: Flags) => {
      const goal = words.join(' ');
      const result = await call<RoutingResult>(flags, 'POST', '/goal', { goal }, { goal });
      if (flags.json) console.log(JSON.stringify(result, null, 2));
      else printRouting(result, flags.project);
    });

  verb(autopilot, 'synthesize', 'write a blueprint for a goal (hosted service, local library or autopilot.model) and create a draft')
    .argument('<goal...>', 'the goal, quoted or as several words')
    .addHelpText('after', '\nExample:\n  autopilot synthesize "Summarise the news every Monday at 9"')
    .action(async (words: string[], flags: Flags) => {
      const goal = words.join(' ');
      const mission = await call<MissionDetail & { source: string; confidence: number | null }>(flags, 'POST', '/synthesize', { goal }, { goal });
      if (flags.json) return void console.log(JSON.stringify(mission, null, 2));
      console.log(`blueprint written by: ${mission.source}${mission.confidence === null ? '' : ` (score ${mission.confidence})`}`);
      printMission(mission);
      printNext(mission, flags);
    });

  verb(autopilot, 'pick', "create a draft from the n-th candidate of the project's last picker")
    .argument('<n>', '1-based position in the picker')
    .option('--goal <goal>', 'route this goal first and pick from its picker')
    .action(async (n: string, flags: Flags & { goal?: string }) => {
      if (!/^[1-9]\d*$/.test(n)) throw new Error(`pick: <n> must be 1, 2, 3…, not "${n}"`);
      const mission = await call<MissionDetail>(flags, 'POST', '/pick', { n: Number(n), goal: flags.goal }, { goal: flags.goal });
      printDetail(mission, flags);
      if (!flags.json) printNext(mission, flags);
    });

  verb(autopilot, 'create', 'create a draft mission from a blueprint file (JSON or YAML)')
    .requiredOption('--blueprint <file>', 'the blueprint file')
    .option('--slot <name=value>', 'a slot value (repeatable); lists as a,b or JSON', collect, [])
    .option('--goal <goal>', 'the goal the mission serves')
    .action(async (flags: Flags & { blueprint: string; slot: string[]; goal?: string }) => {
      const body = { blueprint_json: readBlueprintArgument(flags.blueprint), slots: parseSlotFlags(flags.slot), goal: flags.goal };
      const mission = await call<MissionDetail>(flags, 'POST', '/missions', body);
      printDetail(mission, flags);
      if (!flags.json) printNext(mission, flags);
    });

  verb(autopilot, 'set', "change a draft's slots (re-validated, preview rebuilt) or a mission's schedule policy")
    .argument('<mission_id>')
    .option('--slot <name=value>', 'a slot value (repeatable); name= removes it', collect, [])
    .option('--timezone <zone>', 'IANA zone the cron is read in, e.g. Europe/Paris')
    .addOption(new Option('--overlap <policy>', 'a tick while the previous run still runs').choices(['skip', 'buffer_one']))
    .option('--catchup <seconds>', 'after downtime, run the newest missed tick only if at most this old')
    .option('--pause-after <failures>', 'pause a recurring mission after this many failed runs in a row')
    .option('--jitter <seconds>', 'delay each tick by a stable 0..N seconds')
    .action(async (id: string, flags: Flags & { slot: string[]; timezone?: string; overlap?: string; catchup?: string; pauseAfter?: string; jitter?: string }) => {
      const policy = Object.fromEntries(Object.entries({
        timezone: flags.timezone,
        overlap: flags.overlap,
        catchup_window_seconds: flags.catchup === undefined ? undefined : Number(flags.catchup),
        pause_after_failures: flags.pauseAfter === undefined ? undefined : Number(flags.pauseAfter),
        jitter_seconds: flags.jitter === undefined ? undefined : Number(flags.jitter),
      }).filter(([, value]) => value !== undefined));
      if (flags.slot.length === 0 && Object.keys(policy).length === 0) throw new Error('set: give --slot <name>=<value> or a schedule policy option (see --help)');
      const body = { ...(flags.slot.length > 0 ? { slots: parseSlotFlags(flags.slot) } : {}), ...(Object.keys(policy).length > 0 ? { schedule_policy: policy } : {}) };
      const mission = await call<MissionDetail>(flags, 'PATCH', missionPath(id), body, { missionId: id });
      printDetail(mission, flags);
      if (!flags.json) printNext(mission, flags);
    });

  verb(autopilot, 'missions', "list the project's missions").action(async (flags: Flags) => {
    const missions = await call<MissionSummary[]>(flags, 'GET', '/missions');
    printRows(missions as unknown as Record<string, unknown>[], MISSION_COLUMNS, flags.json ?? false);
  });

  verb(autopilot, 'show', 'show a mission: preview, runs, latest steps and healing recommendations')
    .argument('<mission_id>')
    .action(async (id: string, flags: Flags) => printDetail(await call<MissionDetail>(flags, 'GET', missionPath(id), undefined, { missionId: id }), flags));

  verb(autopilot, 'approve', 'approve a draft mission: it becomes scheduled (a one-off runs at once)')
    .argument('<mission_id>')
    .option('--wait', 'for a one-off mission: follow its run step by step until it ends')
    .action(async (id: string, flags: Flags & { wait?: boolean }) => {
      const known = flags.wait ? await knownRuns(flags, id) : new Set<string>();
      const mission = await call<MissionDetail>(flags, 'POST', `${missionPath(id)}/approve`, undefined, { missionId: id });
      if (flags.wait && !mission.schedule) return follow(flags, id, known);
      printDetail(mission, flags);
      if (!flags.json) printNext(mission, flags);
    });

  verb(autopilot, 'run', 'run a scheduled mission now')
    .argument('<mission_id>')
    .option('--wait', 'follow the run step by step until it ends (exit code 1 when it fails)')
    .option('--timeout <seconds>', 'stop following after this long', '600')
    .action(async (id: string, flags: Flags & { wait?: boolean; timeout: string }) => {
      const known = flags.wait ? await knownRuns(flags, id) : new Set<string>();
      const mission = await call<MissionDetail>(flags, 'POST', `${missionPath(id)}/run`, undefined, { missionId: id });
      if (flags.wait) return follow(flags, id, known, Number(flags.timeout) * 1000);
      printDetail(mission, flags);
      if (!flags.json) console.log(`Follow it with: autopilot run ${id} --wait, or see it with: autopilot show ${id}`);
    });

  verb(autopilot, 'pause', 'pause a scheduled mission: no tick fires until it is resumed')
    .argument('<mission_id>')
    .action(async (id: string, flags: Flags) => printDetail(await call<MissionDetail>(flags, 'POST', `${missionPath(id)}/pause`, undefined, { missionId: id }), flags));

  verb(autopilot, 'resume', 'resume a paused mission at its next tick')
    .argument('<mission_id>')
    .action(async (id: string, flags: Flags) => printDetail(await call<MissionDetail>(flags, 'POST', `${missionPath(id)}/resume`, undefined, { missionId: id }), flags));

  verb(autopilot, 'cancel', 'cancel a mission (no effect once completed or failed)')
    .argument('<mission_id>')
    .action(async (id: string, flags: Flags) => printObject(await call(flags, 'DELETE', missionPath(id), undefined, { missionId: id }), flags.json ?? false));

  verb(autopilot, 'healing', "show a mission's recommended actions")
    .argument('<mission_id>')
    .action(async (id: string, flags: Flags) => {
      const healing = await call<HealingRecommendation[]>(flags, 'GET', `${missionPath(id)}/healing`, undefined, { missionId: id });
      if (flags.json) console.log(JSON.stringify(healing, null, 2));
      else if (healing.length === 0) console.log('No recommendations.');
      else printHealing(healing, id);
    });

  verb(autopilot, 'heal', 'apply a healing recommendation and re-run the mission from its failed step')
    .argument('<mission_id>')
    .argument('<recommendation_id>', 'as `autopilot healing <mission_id>` lists it, e.g. upstream.retry_with_backoff')
    .option('--param <name=value>', 'a value the action needs (repeatable), e.g. --param model=openai/gpt-4o-mini', collect, [])
    .option('--wait', 'follow the re-run step by step until it ends')
    .action(async (id: string, recommendation: string, flags: Flags & { param: string[]; wait?: boolean }) => {
      const known = flags.wait ? await knownRuns(flags, id) : new Set<string>();
      const params = Object.fromEntries(Object.entries(parseSlotFlags(flags.param)).map(([name, value]) => [name, typeof value === 'string' && /^\d+(\.\d+)?$/.test(value) ? Number(value) : value]));
      const mission = await call<MissionDetail>(flags, 'POST', `${missionPath(id)}/healing/${encodeURIComponent(recommendation)}/apply`, { params }, { missionId: id });
      if (flags.wait) return follow(flags, id, known);
      printDetail(mission, flags);
      if (!flags.json) console.log(`Follow it with: autopilot show ${id}`);
    });

  verb(autopilot, 'curator', 'show curated datasets, fine-tune jobs and the active model per dataset').action(async (flags: Flags) => {
    const overview = await call<CuratorOverview>(flags, 'GET', '/curator');
    if (flags.json) console.log(JSON.stringify(overview, null, 2));
    else printCurator(overview);
  });

  verb(autopilot, 'rollback', "return a dataset's missions to the model active before its current one")
    .argument('<dataset>')
    .action(async (dataset: string, flags: Flags) => printObject(await call(flags, 'POST', '/models/rollback', { dataset }), flags.json ?? false));

  autopilot.addCommand(blueprintsCommand(verb, call as Parameters<typeof blueprintsCommand>[1]));
  autopilot.addHelpText('after', `\nA first mission, offline:\n  autopilot enable --tier skip\n  autopilot goal "Summarise the news every Monday at 9"\n  autopilot synthesize "Summarise the news every Monday at 9"\n  autopilot approve <mission_id>\n  autopilot run <mission_id> --wait`);
  return autopilot;
}

async function knownRuns(flags: Flags, id: string): Promise<Set<string>> {
  const mission = await call<MissionDetail>(flags, 'GET', missionPath(id), undefined, { missionId: id });
  return new Set(mission.runs.map((run) => run.execution_id));
}

async function follow(flags: Flags, id: string, known: Set<string>, timeoutMs = 600_000): Promise<void> {
  console.log(`mission ${id}: running`);
  const run = await waitForExecution({ read: () => call<MissionDetail>(flags, 'GET', missionPath(id), undefined, { missionId: id }), known, pollMs: 300, timeoutMs, print: (line) => console.log(line) });
  if (!run) throw new Error(`mission ${id} did not start a run; see it with: autopilot show ${id}`);
  console.log(`run ${run.execution_id}: ${run.status}${run.error ? ` (${run.error.code}: ${run.error.message})` : ''}  $${run.cost_usd}`);
  if (run.status === 'running') throw new Error(`still running after the timeout; follow it with: autopilot show ${id}`);
  if (run.status !== 'completed') throw new Error(`the run ${run.status}; see what to do with: autopilot healing ${id}`);
}

/** The command that moves this mission on. */
function printNext(mission: MissionDetail, flags: Flags): void {
  const project = flags.project ? ` --project ${flags.project}` : '';
  const id = mission.mission_id;
  if (mission.status === 'draft' && mission.missing_slots.length > 0) console.log(`\nSet the missing slots with: autopilot set ${id} ${mission.missing_slots.map((name) => `--slot ${name}=<value>`).join(' ')}${project}`);
  else if (mission.status === 'draft') console.log(`\nApprove it with: autopilot approve ${id}${project}${mission.schedule ? '' : ' --wait'}`);
  else if (mission.status === 'scheduled') console.log(`\nRun it now with: autopilot run ${id} --wait${project}`);
  else if (mission.status === 'paused') console.log(`\nResume it with: autopilot resume ${id}${project}`);
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
