#!/usr/bin/env node
import { Command } from 'commander';
import { runProgram } from './program.js';
import { VERSION } from './version.js';

// The `autopilot` bin: the same program's autopilot verbs (status, enable, disable, goal, missions) arrive with the autopilot feature.
const program = new Command('autopilot').description('Turn plain-English goals into scheduled missions').version(VERSION);
await runProgram(program, process.argv);
