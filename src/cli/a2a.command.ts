import { Command } from 'commander';
import { CliError } from './api-client.js';
import { parsePositiveInt } from './tokens.command.js';

/** `agent-gateway a2a`: talk to any A2A agent (ours or another system's) with the official SDK client. */
export function a2aCommand(): Command {
  const a2a = new Command('a2a').description('discover A2A agents and send them tasks');

  a2a
    .command('card')
    .description("print an agent's card (its A2A base URL, e.g. http://host:8000/a2a/helper, or the card URL)")
    .argument('<url>')
    .action(async (url: string) => {
      const { fetchAgentCard } = await loadA2aClient();
      const card = await fetchAgentCard(url).catch((error: unknown) => {
        throw new CliError(`cannot read the agent card: ${describe(error)}`);
      });
      console.log(JSON.stringify(card, null, 2));
    });

  a2a
    .command('send')
    .description("send a task and print the agent's answer as it streams")
    .argument('<task>', 'what the agent should do')
    .requiredOption('--url <url>', "the agent's A2A base URL (or its card URL)")
    .option('--token <token>', 'bearer credential: an access token (sat-…) with the a2a scope, an API key or a JWT')
    .option('--timeout <ms>', 'give up (and cancel the task) after this many milliseconds', parsePositiveInt, 120_000)
    .option('--json', 'print {task_id, state, text} as JSON instead of streaming the text')
    .action(async (task: string, flags: { url: string; token?: string; timeout: number; json?: boolean }) => {
      const signal = AbortSignal.timeout(flags.timeout);
      let streamed = false;
      const onText = (text: string) => {
        streamed = true;
        process.stdout.write(text);
      };
      const result = await (async () => {
        const { fetchAgentCard, sendA2aTask } = await loadA2aClient();
        const card = await fetchAgentCard(flags.url, signal);
        return sendA2aTask({ card, task, token: flags.token, signal, onText: flags.json ? undefined : onText });
      })().catch((error: unknown) => {
        throw new CliError(
          signal.aborted ? `no answer within ${flags.timeout} ms (the task was cancelled)` : describe(error),
        );
      });
      if (flags.json)
        console.log(
          JSON.stringify({ task_id: result.taskId ?? null, state: result.state, text: result.text }, null, 2),
        );
      // A remote that does not stream answers at the end.
      else if (result.state === 'completed') process.stdout.write(streamed ? '\n' : `${result.text}\n`);
      if (result.state !== 'completed')
        throw new CliError(`the task ended ${result.state}${result.text ? `: ${result.text}` : ''}`);
    });

  return a2a;
}

/**
 * The A2A SDK client, undici and the rest of tools/ load when an a2a verb runs: every other verb, `serve`
 * included, starts without them.
 */
function loadA2aClient() {
  return import('../tools/index.js');
}

function describe(error: unknown): string {
  const cause = error instanceof Error ? (error.cause as { code?: string } | undefined)?.code : undefined;
  const message = error instanceof Error ? error.message : String(error);
  return cause ? `${message} (${cause})` : message;
}
