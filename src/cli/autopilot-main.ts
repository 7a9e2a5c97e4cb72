#!/usr/bin/env node
import { autopilotCommand } from './autopilot/autopilot.command.js';
import { runProgram } from './program.js';
import { VERSION } from './version.js';

// The `autopilot` bin: the same verbs as `agent-gateway autopilot …`. No top-level await: dist/ is CommonJS,
// and runProgram reports every failure itself.
void runProgram(autopilotCommand().version(VERSION), process.argv);
