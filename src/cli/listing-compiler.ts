/**
 * V8's inlining budget for the listing commands (`assay ls`, `assay run --tasks list…`). Cold, they run the
 * task index's reader (tasks/yaml-keys.ts) once over thousands of files in a short process: with V8's
 * default budget (920 bytes of bytecode) the optimizing compiler spends 20–40 ms on each of the reader's
 * functions with every helper inlined, on a thread that competes with the scan for the machine's cores,
 * and the command ends before that code pays it back. A budget of 200 took a cold `assay ls tasks` over
 * lm-eval's tree from 0.64 to 0.57 s, and 0.16 s of CPU off (BENCHMARKS.md). Set for the whole command
 * (a listing does nothing else), unless node was given the flag (command line or NODE_OPTIONS).
 */
import { setFlagsFromString } from 'node:v8';

const FLAG = '--max-inlined-bytecode-size-cumulative';
const LISTING_BUDGET = 200;

export function tuneCompilerForListing(): void {
  const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
  if (given.some((argument) => argument.startsWith(FLAG))) return;
  setFlagsFromString(`${FLAG}=${LISTING_BUDGET}`);
}
