import type { HealingRecommendation, MissionDetail, RoutingResult } from '../../autopilot/index.js';

/** How a goal's routing reads on a terminal; --json prints the API's JSON instead. */
export function printRouting(result: RoutingResult, project?: string): void {
  const scope = project ? ` --project ${project}` : '';
  console.log(`kind: ${result.kind}`);
  if (result.kind === 'auto_routed') {
    console.log(`mission: ${result.mission_id} (draft)  blueprint: ${result.blueprint_id}  score: ${result.score}`);
    console.log('');
    console.log(result.preview);
    console.log('');
    if (result.missing_slots.length > 0) {
      console.log(`Missing required slots: ${result.missing_slots.join(', ')}`);
      console.log(
        `Set them with: autopilot set ${result.mission_id} ${result.missing_slots.map((name) => `--slot ${name}=<value>`).join(' ')}${scope}`,
      );
    } else {
      console.log(`Approve it with: autopilot approve ${result.mission_id}${scope}`);
    }
  } else if (result.kind === 'picker_needed') {
    result.candidates.forEach((candidate, index) => {
      const blueprint = safeParse(candidate.blueprint_json);
      console.log(
        `  ${index + 1}. ${blueprint.id ?? '?'}  ${blueprint.title ? `"${blueprint.title}"` : ''}  score ${candidate.score}${candidate.source === 'local' ? '  (local)' : ''}`,
      );
    });
    console.log(`Create a draft from one with: autopilot pick <n>${scope}   (e.g. autopilot pick 1${scope})`);
  } else {
    console.log(`No blueprint was routed for "${result.goal}" (${result.reason}).`);
    console.log(`Write one with: autopilot synthesize "${result.goal.replace(/(["\\$`])/g, '\\$1')}"${scope}`);
  }
  for (const skipped of result.skipped ?? [])
    console.log(`Skipped ${skipped.blueprint_id ?? 'a candidate'} (score ${skipped.score}): ${skipped.message}`);
}

export function printMission(mission: MissionDetail): void {
  console.log(
    `mission: ${mission.mission_id}  status: ${mission.status}  blueprint: ${mission.blueprint_id}  project: ${mission.project_id}`,
  );
  if (mission.schedule) {
    const policy = mission.schedule_policy;
    console.log(
      `schedule: ${mission.schedule} (${policy.timezone ?? 'UTC'})  next run: ${mission.next_run_at ?? '-'}  overlap: ${policy.overlap}${policy.catchup_window_seconds === null ? '' : `  catch-up window: ${policy.catchup_window_seconds}s`}${policy.pause_after_failures === null ? '' : `  pauses after ${policy.pause_after_failures} failures (${mission.consecutive_failures} so far)`}${policy.jitter_seconds ? `  jitter: ${policy.jitter_seconds}s` : ''}`,
    );
  }
  console.log('');
  console.log(mission.preview);
  if (mission.runs.length > 0) {
    console.log('\nRuns:');
    for (const run of mission.runs)
      console.log(
        `  ${run.execution_id}  ${run.status}  ${run.started_at}  $${run.cost_usd}${run.error ? `  ${run.error.code}: ${run.error.message}` : ''}`,
      );
  }
  if (mission.steps.length > 0) {
    console.log('\nSteps of the latest run:');
    for (const step of mission.steps) {
      const t = step.telemetry;
      console.log(
        `  ${step.node_id}  ${step.status}  ${t.model_used}  ${t.input_tokens}+${t.output_tokens} tokens  $${t.cost_usd}  ${t.latency_ms} ms`,
      );
      console.log(`    ${step.output_preview.replace(/\s+/g, ' ')}`);
    }
  }
  printHealing(mission.healing, mission.mission_id);
}

export function printHealing(healing: HealingRecommendation[], missionId?: string): void {
  if (healing.length === 0) return;
  console.log('\nRecommended actions:');
  for (const item of healing) {
    console.log(`  [${item.severity}] ${item.action} (${item.reason}): ${item.detail}`);
    if (!item.apply) continue;
    const missing = Object.entries(item.apply.params)
      .filter(([, value]) => value === null)
      .map(([name]) => ` --param ${name}=<value>`)
      .join('');
    console.log(
      `    apply: autopilot heal ${missionId ?? '<mission_id>'} ${item.id}${missing}   (${item.apply.action}${item.apply.safe ? ', safe' : ''})`,
    );
  }
}

function safeParse(text: string): { id?: string; title?: string } {
  try {
    return JSON.parse(text) as { id?: string; title?: string };
  } catch {
    return {};
  }
}
