/**
 * The CLI's entry: the command line in assay's spellings, then a listing replayed from its cache while it
 * still holds (listing-replay.ts), else the program (program.ts: commander and every command's option
 * table, loaded only then).
 */
import { commandLine, mayList } from './command-line.js';

export { normalizeFlags } from './command-line.js';

export async function main(argv: string[]): Promise<void> {
  const args = commandLine(argv);
  if (mayList(args)) {
    const { replayListing } = await import('./listing-replay.js');
    if (replayListing(args)) return;
  }
  const { runProgram } = await import('./program.js');
  await runProgram(args);
}
