#!/usr/bin/env node
import { autopilotCommand } from './autopilot/autopilot.command.js';
import { runProgram } from './program.js';
import { VERSION } from './version.js';

// The `autopilot` bin: the same verbs as `agent-gateway autopilot …`.
await runProgram(autopilotCommand().version(VERSION), process.argv);
