#!/usr/bin/env node
import { createProgram, runProgram } from './program.js';

await runProgram(createProgram(), process.argv);
