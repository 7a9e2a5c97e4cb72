import { Option, type Command } from 'commander';
import type { MissionDetail } from '../../autopilot/index.js';
import { call, collect, missionPath, printDetail, printNext, verb, type Flags } from './autopilot-client.js';
import { parseSlotFlags, readBlueprintArgument } from './autopilot-files.js';
import { printMission } from './autopilot-output.js';

/** Verbs that make a draft mission: synthesize, pick, create, and set (slots and schedule policy). */
export function addDraftVerbs(autopilot: Command): void {
  verb(
    autopilot,
    'synthesize',
    'write a blueprint for a goal (hosted service, local library or autopilot.model) and create a draft',
  )
    .argument('<goal...>', 'the goal, quoted or as several words')
    .addHelpText('after', '\nExample:\n  autopilot synthesize "Summarise the news every Monday at 9"')
    .action(async (words: string[], flags: Flags) => {
      const goal = words.join(' ');
      const mission = await call<MissionDetail & { source: string; confidence: number | null }>(
        flags,
        'POST',
        '/synthesize',
        { goal },
        { goal },
      );
      if (flags.json) return void console.log(JSON.stringify(mission, null, 2));
      console.log(
        `blueprint written by: ${mission.source}${mission.confidence === null ? '' : ` (score ${mission.confidence})`}`,
      );
      printMission(mission);
      printNext(mission, flags);
    });

  verb(autopilot, 'pick', "create a draft from the n-th candidate of the project's last picker")
    .argument('<n>', '1-based position in the picker')
    .option('--goal <goal>', 'route this goal first and pick from its picker')
    .action(async (n: string, flags: Flags & { goal?: string }) => {
      if (!/^[1-9]\d*$/.test(n)) throw new Error(`pick: <n> must be 1, 2, 3…, not "${n}"`);
      const mission = await call<MissionDetail>(
        flags,
        'POST',
        '/pick',
        { n: Number(n), goal: flags.goal },
        { goal: flags.goal },
      );
      printDetail(mission, flags);
      if (!flags.json) printNext(mission, flags);
    });

  verb(autopilot, 'create', 'create a draft mission from a blueprint file (JSON or YAML)')
    .requiredOption('--blueprint <file>', 'the blueprint file')
    .option('--slot <name=value>', 'a slot value (repeatable); lists as a,b or JSON', collect, [])
    .option('--goal <goal>', 'the goal the mission serves')
    .action(async (flags: Flags & { blueprint: string; slot: string[]; goal?: string }) => {
      const body = {
        blueprint_json: readBlueprintArgument(flags.blueprint),
        slots: parseSlotFlags(flags.slot),
        goal: flags.goal,
      };
      const mission = await call<MissionDetail>(flags, 'POST', '/missions', body);
      printDetail(mission, flags);
      if (!flags.json) printNext(mission, flags);
    });

  verb(autopilot, 'set', "change a draft's slots (re-validated, preview rebuilt) or a mission's schedule policy")
    .argument('<mission_id>')
    .option('--slot <name=value>', 'a slot value (repeatable); name= removes it', collect, [])
    .option('--timezone <zone>', 'IANA zone the cron is read in, e.g. Europe/Paris')
    .addOption(
      new Option('--overlap <policy>', 'a tick while the previous run still runs').choices([
        'skip',
        'buffer_one',
        'allow',
      ]),
    )
    .option('--catchup <seconds>', 'after downtime, run the newest missed tick only if at most this old')
    .option('--pause-after <failures>', 'pause a recurring mission after this many failed runs in a row')
    .option('--jitter <seconds>', 'delay each tick by a stable 0..N seconds')
    .action(
      async (
        id: string,
        flags: Flags & {
          slot: string[];
          timezone?: string;
          overlap?: string;
          catchup?: string;
          pauseAfter?: string;
          jitter?: string;
        },
      ) => {
        const policy = Object.fromEntries(
          Object.entries({
            timezone: flags.timezone,
            overlap: flags.overlap,
            catchup_window_seconds: flags.catchup === undefined ? undefined : Number(flags.catchup),
            pause_after_failures: flags.pauseAfter === undefined ? undefined : Number(flags.pauseAfter),
            jitter_seconds: flags.jitter === undefined ? undefined : Number(flags.jitter),
          }).filter(([, value]) => value !== undefined),
        );
        if (flags.slot.length === 0 && Object.keys(policy).length === 0)
          throw new Error('set: give --slot <name>=<value> or a schedule policy option (see --help)');
        const body = {
          ...(flags.slot.length > 0 ? { slots: parseSlotFlags(flags.slot) } : {}),
          ...(Object.keys(policy).length > 0 ? { schedule_policy: policy } : {}),
        };
        const mission = await call<MissionDetail>(flags, 'PATCH', missionPath(id), body, { missionId: id });
        printDetail(mission, flags);
        if (!flags.json) printNext(mission, flags);
      },
    );
}
