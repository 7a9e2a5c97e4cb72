import { spawn } from 'node:child_process';
import { splitCommand } from './split-command.js';

export interface TrainerRequest {
  dataset: string;
  baseModel: string;
  outputDir: string;
}

export interface TrainerResult {
  /** The id the trained model is served under. */
  model: string;
  base_url: string | null;
}

/**
 * Runs a local trainer without a shell, each `{dataset}`, `{base_model}` and `{output_dir}` substituted
 * inside the already split arguments (so a path with spaces stays one argument). The trainer prints
 * `{"model": "...", "base_url": "..."}` as its last stdout line.
 */
export function runTrainerCommand(
  command: string | string[],
  request: TrainerRequest,
  signal?: AbortSignal,
): Promise<TrainerResult> {
  const values: Record<string, string> = {
    dataset: request.dataset,
    base_model: request.baseModel,
    output_dir: request.outputDir,
  };
  const argv = (typeof command === 'string' ? splitCommand(command) : command).map((arg) =>
    arg.replace(/\{(dataset|base_model|output_dir)\}/g, (_, key: string) => values[key]),
  );
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0], argv.slice(1), { shell: false, stdio: ['ignore', 'pipe', 'pipe'], signal });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    // Only the tail matters for the error message; a chatty trainer must not fill memory.
    child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString('utf8')).slice(-2000)));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`trainer exited with ${code}: ${stderr.trim().slice(-500)}`));
      const last = stdout.trim().split('\n').pop() ?? '';
      try {
        const printed = JSON.parse(last) as { model?: unknown; base_url?: unknown };
        if (typeof printed.model !== 'string' || !printed.model) throw new Error('no "model"');
        resolve({ model: printed.model, base_url: typeof printed.base_url === 'string' ? printed.base_url : null });
      } catch (error) {
        reject(
          new Error(
            `the trainer's last stdout line is not {"model", "base_url"} JSON (${(error as Error).message}): ${last.slice(0, 200)}`,
          ),
        );
      }
    });
  });
}
