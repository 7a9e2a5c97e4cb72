import type { Command } from 'commander';
import type { HealingRecommendation, MissionDetail } from '../../autopilot/index.js';
import {
  call,
  collect,
  follow,
  knownRuns,
  missionPath,
  printDetail,
  printNext,
  verb,
  type Flags,
} from './autopilot-client.js';
import { parseSlotFlags } from './autopilot-files.js';
import { printHealing } from './autopilot-output.js';
import { printObject } from '../output.js';

/** Verbs on an existing mission: show, approve, run (--wait), pause, resume, cancel, healing and heal. */
export function addRunVerbs(autopilot: Command): void {
  verb(autopilot, 'show', 'show a mission: preview, runs, latest steps and healing recommendations')
    .argument('<mission_id>')
    .action(async (id: string, flags: Flags) =>
      printDetail(await call<MissionDetail>(flags, 'GET', missionPath(id), undefined, { missionId: id }), flags),
    );

  verb(autopilot, 'approve', 'approve a draft mission: it becomes scheduled (a one-off runs at once)')
    .argument('<mission_id>')
    .option('--wait', 'for a one-off mission: follow its run step by step until it ends')
    .action(async (id: string, flags: Flags & { wait?: boolean }) => {
      const known = flags.wait ? await knownRuns(flags, id) : new Set<string>();
      const mission = await call<MissionDetail>(flags, 'POST', `${missionPath(id)}/approve`, undefined, {
        missionId: id,
      });
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
    .action(async (id: string, flags: Flags) =>
      printDetail(
        await call<MissionDetail>(flags, 'POST', `${missionPath(id)}/pause`, undefined, { missionId: id }),
        flags,
      ),
    );

  verb(autopilot, 'resume', 'resume a paused mission at its next tick')
    .argument('<mission_id>')
    .action(async (id: string, flags: Flags) =>
      printDetail(
        await call<MissionDetail>(flags, 'POST', `${missionPath(id)}/resume`, undefined, { missionId: id }),
        flags,
      ),
    );

  verb(autopilot, 'cancel', 'cancel a mission (no effect once completed or failed)')
    .argument('<mission_id>')
    .action(async (id: string, flags: Flags) =>
      printObject(await call(flags, 'DELETE', missionPath(id), undefined, { missionId: id }), flags.json ?? false),
    );

  verb(autopilot, 'healing', "show a mission's recommended actions")
    .argument('<mission_id>')
    .action(async (id: string, flags: Flags) => {
      const healing = await call<HealingRecommendation[]>(flags, 'GET', `${missionPath(id)}/healing`, undefined, {
        missionId: id,
      });
      if (flags.json) console.log(JSON.stringify(healing, null, 2));
      else if (healing.length === 0) console.log('No recommendations.');
      else printHealing(healing, id);
    });

  verb(autopilot, 'heal', 'apply a healing recommendation and re-run the mission from its failed step')
    .argument('<mission_id>')
    .argument('<recommendation_id>', 'as `autopilot healing <mission_id>` lists it, e.g. upstream.retry_with_backoff')
    .option(
      '--param <name=value>',
      'a value the action needs (repeatable), e.g. --param model=openai/gpt-4o-mini',
      collect,
      [],
    )
    .option('--wait', 'follow the re-run step by step until it ends')
    .action(async (id: string, recommendation: string, flags: Flags & { param: string[]; wait?: boolean }) => {
      const known = flags.wait ? await knownRuns(flags, id) : new Set<string>();
      const params = Object.fromEntries(
        Object.entries(parseSlotFlags(flags.param)).map(([name, value]) => [
          name,
          typeof value === 'string' && /^\d+(\.\d+)?$/.test(value) ? Number(value) : value,
        ]),
      );
      const mission = await call<MissionDetail>(
        flags,
        'POST',
        `${missionPath(id)}/healing/${encodeURIComponent(recommendation)}/apply`,
        { params },
        { missionId: id },
      );
      if (flags.wait) return follow(flags, id, known);
      printDetail(mission, flags);
      if (!flags.json) console.log(`Follow it with: autopilot show ${id}`);
    });
}
