#!/usr/bin/env node
import { holdYoungGeneration } from './young-generation.js';

// Before anything else loads: the modules below are most of start-up's allocation.
holdYoungGeneration();
const { createProgram, runProgram } = await import('./program.js');
await runProgram(createProgram(), process.argv);
