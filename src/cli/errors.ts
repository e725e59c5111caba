import { COMMAND_FLAGS } from './command-flags.js';
import { fieldFlags } from './option-table.js';
import { RUN_FLAGS } from './run-flags.js';

/** Library option field → the flag that sets it, from the option tables. */
const FLAGS = fieldFlags([RUN_FLAGS, ...Object.values(COMMAND_FLAGS)]);

/**
 * Library errors name option fields in backticks (`limit`, `perplexity.stride`, `shard.index`); on the
 * command line the user typed flags, so each field a flag sets is shown as that flag.
 */
export function withFlagNames(message: string): string {
  return message.replace(/`([A-Za-z][\w.]*(?:: (?:true|false))?)`/g, (whole, field: string) => {
    const flag = FLAGS.get(field) ?? FLAGS.get(field.split('.')[0]);
    return flag ?? whole;
  });
}

/** The one place that turns errors into messages and exit codes. */
export function reportError(error: unknown, options: { debug?: boolean } = {}): number {
  const debug = options.debug === true || Boolean(process.env.ASSAY_DEBUG);
  const candidate = error as {
    name?: string;
    format?: () => string;
    exitCode?: number;
    message?: string;
    stack?: string;
  };
  if (candidate && candidate.name === 'AssayError' && typeof candidate.format === 'function') {
    process.stderr.write(`assay: error: ${withFlagNames(candidate.format())}\n`);
    if (debug) process.stderr.write(`${candidate.stack ?? ''}\n`);
    return candidate.exitCode ?? 2;
  }
  if (candidate && (candidate as { code?: string }).code === 'commander.error') return 2;
  const message = candidate?.message ?? String(error);
  process.stderr.write(`assay: internal error: ${message}\n`);
  if (debug) process.stderr.write(`${candidate?.stack ?? ''}\n`);
  else process.stderr.write('assay: set ASSAY_DEBUG=1 (or --verbosity DEBUG) for the stack trace\n');
  return 1;
}
