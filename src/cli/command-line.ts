/**
 * The command line as the program parses it: lm-eval's spellings of flags and its command-less form
 * (`assay --model x --tasks y`) brought to assay's. Its own module, loaded before commander and the
 * option tables, so that a replayed listing (listing-replay.ts) needs neither.
 */
export const SUBCOMMANDS = new Set([
  'run',
  'merge',
  'ls',
  'validate',
  'compare',
  'gate',
  'power',
  'data',
  'view',
  'ppl',
  'serve',
  'kld',
  'export',
  'suite',
  'help',
]);

/**
 * lm-eval spells flags in snake_case; users also type kebab-case. Both reach commander as snake_case.
 * Values are left alone (only tokens starting with `--`, up to any `=`, before any `--`).
 */
export function normalizeFlags(argv: string[]): string[] {
  // After `--` every token is an argument (a folder may be called --a-b).
  const end = argv.indexOf('--');
  return argv.map((token, position) => {
    if (!token.startsWith('--') || token === '--' || (end >= 0 && position > end)) return token;
    const eq = token.indexOf('=');
    const name = eq >= 0 ? token.slice(0, eq) : token;
    const rest = eq >= 0 ? token.slice(eq) : '';
    return `--${name.slice(2).replaceAll('-', '_')}${rest}`;
  });
}

/** argv as the program parses it: flags normalized, `run` put first when no command is named. */
export function commandLine(argv: string[]): string[] {
  const args = normalizeFlags(argv);
  // lm-eval compatibility: `assay --model x --tasks y` means `assay run --model x --tasks y`.
  if (
    args.length > 1 &&
    !SUBCOMMANDS.has(args[0]) &&
    args[0].startsWith('-') &&
    args[0] !== '--help' &&
    args[0] !== '-h'
  )
    return ['run', ...args];
  return args;
}

/**
 * Whether a command line may be a listing (`ls`, `run --tasks list…`) kept by listing-replay.ts; any other
 * command skips the look-up and the modules it needs.
 */
export function mayList(args: readonly string[]): boolean {
  return args[0] === 'ls' || (args[0] === 'run' && args.some((arg) => arg.includes('list')));
}
