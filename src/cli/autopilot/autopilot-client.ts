import type { Command } from 'commander';
import type { MissionDetail } from '../../autopilot/index.js';
import { callApi } from '../api-client.js';
import { withHint, type HintContext } from './autopilot-hints.js';
import { printMission } from './autopilot-output.js';
import { waitForExecution } from './autopilot-wait.js';
import { clientSettings, withClientOptions, type ClientFlags } from '../client-options.js';

export type Flags = ClientFlags & { project?: string };

const BASE = '/api/v1/autopilot';

/** Every autopilot verb shares the client options and --project (sent as X-Project-ID). */
export function verb(parent: Command, name: string, description: string): Command {
  return withClientOptions(parent.command(name))
    .description(description)
    .option('--project <project_id>', 'project to act in (X-Project-ID; default "default")');
}

// Every failure names the next CLI command to try (autopilot-hints.ts).
export async function call<T>(
  flags: Flags,
  method: string,
  path: string,
  body?: unknown,
  context: HintContext = {},
): Promise<T> {
  try {
    return await callApi<T>(
      clientSettings(flags),
      method,
      `${BASE}${path}`,
      body,
      flags.project ? { 'x-project-id': flags.project } : {},
    );
  } catch (error) {
    throw withHint(error, { ...context, project: flags.project });
  }
}

export const collect = (value: string, previous: string[]) => [...previous, value];
export const missionPath = (id: string) => `/missions/${encodeURIComponent(id)}`;

export async function knownRuns(flags: Flags, id: string): Promise<Set<string>> {
  const mission = await call<MissionDetail>(flags, 'GET', missionPath(id), undefined, { missionId: id });
  return new Set(mission.runs.map((run) => run.execution_id));
}

export async function follow(flags: Flags, id: string, known: Set<string>, timeoutMs = 600_000): Promise<void> {
  console.log(`mission ${id}: running`);
  const run = await waitForExecution({
    read: () => call<MissionDetail>(flags, 'GET', missionPath(id), undefined, { missionId: id }),
    known,
    pollMs: 300,
    timeoutMs,
    print: (line) => console.log(line),
  });
  if (!run) throw new Error(`mission ${id} did not start a run; see it with: autopilot show ${id}`);
  console.log(
    `run ${run.execution_id}: ${run.status}${run.error ? ` (${run.error.code}: ${run.error.message})` : ''}  $${run.cost_usd}`,
  );
  if (run.status === 'running')
    throw new Error(`still running after the timeout; follow it with: autopilot show ${id}`);
  if (run.status !== 'completed')
    throw new Error(`the run ${run.status}; see what to do with: autopilot healing ${id}`);
}

/** The command that moves this mission on. */
export function printNext(mission: MissionDetail, flags: Flags): void {
  const project = flags.project ? ` --project ${flags.project}` : '';
  const id = mission.mission_id;
  if (mission.status === 'draft' && mission.missing_slots.length > 0)
    console.log(
      `\nSet the missing slots with: autopilot set ${id} ${mission.missing_slots.map((name) => `--slot ${name}=<value>`).join(' ')}${project}`,
    );
  else if (mission.status === 'draft')
    console.log(`\nApprove it with: autopilot approve ${id}${project}${mission.schedule ? '' : ' --wait'}`);
  else if (mission.status === 'scheduled') console.log(`\nRun it now with: autopilot run ${id} --wait${project}`);
  else if (mission.status === 'paused') console.log(`\nResume it with: autopilot resume ${id}${project}`);
}

export function printDetail(mission: MissionDetail, flags: Flags): void {
  if (flags.json) console.log(JSON.stringify(mission, null, 2));
  else printMission(mission);
}
