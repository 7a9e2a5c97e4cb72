import { Command, CommanderError } from 'commander';
import { ConfigError } from '../errors.js';
import { a2aCommand } from './a2a.command.js';
import { agentsCommand } from './agents.command.js';
import { CliError } from './api-client.js';
import { autopilotCommand } from './autopilot/autopilot.command.js';
import { runsCommand } from './runs.command.js';
import { serveCommand } from './serve.command.js';
import { sessionsCommand } from './sessions.command.js';
import { statusCommand } from './status.command.js';
import { tokensCommand } from './tokens.command.js';
import { triggersCommand } from './triggers.command.js';
import { uiCommand } from './ui.command.js';
import { VERSION } from './version.js';

export function createProgram(): Command {
  return new Command('agent-gateway')
    .description('Serve, trigger and administer LLM agents')
    .version(VERSION)
    .showHelpAfterError()
    .addCommand(serveCommand())
    .addCommand(tokensCommand())
    .addCommand(agentsCommand())
    .addCommand(runsCommand())
    .addCommand(sessionsCommand())
    .addCommand(statusCommand())
    .addCommand(autopilotCommand())
    .addCommand(a2aCommand())
    .addCommand(triggersCommand())
    .addCommand(uiCommand());
}

/** Runs a program and turns every failure into one line on stderr and a non-zero exit code. */
export async function runProgram(program: Command, argv: string[]): Promise<void> {
  program.exitOverride();
  try {
    await program.parseAsync(argv);
  } catch (error) {
    if (error instanceof CommanderError) process.exit(error.exitCode);
    if (error instanceof ConfigError) {
      console.error(`config error:\n${error.message}`);
      process.exit(2);
    }
    console.error(`error: ${error instanceof CliError ? error.message : (error as Error).message}`);
    process.exit(1);
  }
}
