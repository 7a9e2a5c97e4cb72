import type { MissionDetail } from '../../autopilot/index.js';

type Step = MissionDetail['steps'][number];
type Run = MissionDetail['runs'][number];

export interface WaitOptions {
  /** Reads the mission detail. */
  read(): Promise<MissionDetail>;
  /** Executions that existed before the one to wait for. */
  known: Set<string>;
  pollMs: number;
  timeoutMs: number;
  print(line: string): void;
}

/** Follows a mission's new execution, printing each step as it is recorded, until the execution ends. */
export async function waitForExecution(options: WaitOptions): Promise<Run | undefined> {
  const printed = new Set<number>();
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    const mission = await options.read();
    const run = mission.runs.find(
      (candidate) => !options.known.has(candidate.execution_id) && candidate.status !== 'skipped',
    );
    if (run) {
      // Steps in the detail belong to the latest execution, which is this one.
      for (const step of mission.steps) {
        if (printed.has(step.step_index)) continue;
        printed.add(step.step_index);
        options.print(formatStep(step));
      }
      if (run.status !== 'running') return run;
    } else if (mission.status !== 'running' && mission.status !== 'scheduled') {
      return undefined;
    }
    if (Date.now() > deadline) return run;
    await new Promise((resolve) => setTimeout(resolve, options.pollMs));
  }
}

export function formatStep(step: Step): string {
  const t = step.telemetry;
  const head = `  step ${step.step_index + 1}: ${step.node_id}  ${step.status}  ${t.model_used}  ${t.input_tokens}+${t.output_tokens} tokens  $${t.cost_usd}`;
  const body = step.error ? `${step.error.code}: ${step.error.message}` : step.output_preview.replace(/\s+/g, ' ');
  return `${head}\n    ${body}`;
}
