import { Command, CommanderError } from 'commander';
import { backendNames } from '../models/registry.js';
import {
  COMPARE_FLAGS,
  DATA_FETCH_FLAGS,
  EXPORT_FLAGS,
  GATE_FLAGS,
  KLD_FLAGS,
  LS_FLAGS,
  MERGE_FLAGS,
  POWER_FLAGS,
  PPL_FLAGS,
  SERVE_FLAGS,
  SUITE_DIFF_FLAGS,
  SUITE_MERGE_FLAGS,
  SUITE_RUN_FLAGS,
  SUITE_SUMMARIZE_FLAGS,
  SUITE_VALIDATE_FLAGS,
  VALIDATE_FLAGS,
  VIEW_FLAGS,
} from './command-flags.js';
import { SUBCOMMANDS } from './command-line.js';
import { reportError } from './errors.js';
import { runHelpText } from './model-list.js';
import { addFlags, type FlagTable } from './option-table.js';
import { RUN_FLAGS } from './run-flags.js';

/** What to do next, per kind of commander error (its codes, commander/lib/command.js). */
function hint(code: string | undefined, command: string): string {
  const help = command === 'assay' ? 'assay --help' : `assay ${command} --help`;
  switch (code) {
    case 'commander.unknownCommand':
      return `${help} lists the commands`;
    case 'commander.unknownOption':
      return `${help} lists its flags (lm-eval's spellings, snake or kebab case, are accepted)`;
    case 'commander.excessArguments':
      // `assay run hellaswag`: lm-eval takes tasks only as a flag too.
      if (command === 'run') return 'tasks go in --tasks (assay run --model NAME --tasks hellaswag,arc_easy)';
      return `${help} shows the arguments it takes`;
    case 'commander.missingArgument':
      return `${help} shows the arguments it takes`;
    default:
      return `${help} shows the flags and their values`;
  }
}

/**
 * Commander's parse errors in assay's form: `assay: error: …` on one line (its "(Did you mean …?)" folded
 * in), then `assay: hint: …`, and exit 2 like every other bad input.
 */
class AssayCommand extends Command {
  override createCommand(name?: string): Command {
    return new AssayCommand(name);
  }

  override error(message: string, errorOptions?: { code?: string; exitCode?: number }): never {
    const line = message
      .replace(/^error: /, '')
      .replace(
        /\n\((Did you mean .*)\)$/s,
        (_whole, suggestion: string) => `; ${suggestion.replace(/^D/, 'd')}`,
      )
      .replaceAll('\n', ' ');
    const name = commandPath(this);
    return super.error(`assay: error: ${line}\nassay: hint: ${hint(errorOptions?.code, name)}`, {
      ...errorOptions,
      exitCode: 2,
    });
  }
}

function commandPath(command: Command): string {
  const names: string[] = [];
  for (let current: Command | null = command; current?.parent; current = current.parent)
    names.unshift(current.name());
  return names.length ? names.join(' ') : 'assay';
}

/** What `assay gate`'s exit codes mean to a CI job (docs/ci-gate.md has a workflow). */
const GATE_EXIT_CODES = `
Exit codes, and what a CI job should do with each:
  0  every task passes: its one-sided 95% lower bound is above -max_drop. Let the change through.
  1  some task is significantly worse than the margin (Holm-adjusted across tasks). Fail the job.
  2  bad input: a missing run, no sample logs, an unknown task or metric, errored or timed-out
     samples (see --allow_errors, --timeouts_as). Fail the job: nothing was gated.
  3  undecided: these samples cannot tell a drop of max_drop from none. It is not evidence of a
     regression, nor of its absence. Do not fail the build on it: report it (a warning, a PR comment
     with --json's report) and let a person decide, or decide it with more items (a task too small
     for the margin is named with the items it would need), a wider --max_drop, or --mode threshold
     (no test: fails when the observed drop exceeds the margin, never exits 3). In a shell step:
       npx assay gate ... ; code=$?; if [ "$code" = 3 ]; then echo "undecided"; exit 0; fi; exit $code
`;

/**
 * Which top-level commands get their flags: given the command line, the command it names (with every
 * subcommand of `data` or `suite`); given none, or a line that names no command (`assay --help`, `assay
 * help`), every command. Only a command that can print its help or parse its flags needs them, and building
 * the options of all of them is a few milliseconds that every start of the CLI would spend.
 */
function flagScope(argv: readonly string[] | undefined): (command: string) => boolean {
  const named = argv?.[0] === 'help' ? argv[1] : argv?.[0];
  if (named === undefined || named === 'help' || !SUBCOMMANDS.has(named)) return () => true;
  return (command) => command === named;
}

/**
 * The program: every command, with its flags from its option table, running its handler from its lazily
 * loaded module. `argv` (as `main` parses it) leaves out the flags of the commands it does not name.
 */
export function buildProgram(argv?: readonly string[]): Command {
  const withFlags = flagScope(argv);
  const program = new AssayCommand('assay')
    .description('LLM evaluation harness, compatible with lm-evaluation-harness')
    .version(process.env.ASSAY_VERSION ?? '0.1.0', '--version')
    .exitOverride()
    .configureOutput({
      writeErr: (text) => process.stderr.write(text),
      writeOut: (text) => process.stdout.write(text),
    });
  const subcommand = (parent: Command, name: string, description: string, table: FlagTable): Command => {
    const command = parent.command(name).description(description);
    return withFlags(parent === program ? name : parent.name()) ? addFlags(command, table) : command;
  };

  subcommand(program, 'run', 'evaluate a model on tasks (lm_eval run)', RUN_FLAGS)
    .addHelpText('after', () => runHelpText(backendNames()))
    .action(async (flags: Record<string, unknown>) => {
      // `--tasks list` needs the task index only, not the run's stages (run.ts).
      const { listingCommand } = await import('./run-listing.js');
      const listed = await listingCommand(flags, argv);
      if (listed !== undefined) {
        process.exitCode = listed;
        return;
      }
      const { runCommand } = await import('./run.js');
      process.exitCode = await runCommand(flags);
    });

  subcommand(
    program,
    'merge',
    'combine the outputs of assay run --shard i/N (every i, with --log_samples) into one run, as if unsharded',
    MERGE_FLAGS,
  )
    .argument('<shards...>', 'each shard run: its results file, its directory, or the --output_path above it')
    .action(async (shards: string[], flags: Record<string, unknown>) => {
      const { mergeCommand } = await import('./merge.js');
      process.exitCode = await mergeCommand(shards, flags);
    });

  subcommand(program, 'ls', 'list tasks, groups or tags', LS_FLAGS)
    .argument('[what]', 'tasks | groups | tags', 'tasks')
    .action(async (what: string, flags: Record<string, unknown>) => {
      const { lsCommand } = await import('./ls.js');
      process.exitCode = await lsCommand(what, flags, argv);
    });

  subcommand(
    program,
    'validate',
    'load every task, group and tag and report each (exit 1 if any fails): config, includes, functions, templates, metric and filter names, and with data doc 0’s requests',
    VALIDATE_FLAGS,
  ).action(async (flags: Record<string, unknown>) => {
    const { validateCommand } = await import('./validate.js');
    process.exitCode = await validateCommand(flags);
  });

  const data = program.command('data').description('dataset cache commands');
  subcommand(
    data,
    'fetch',
    'download the Hub data of tasks into the cache (HF_HUB_CACHE, else $HF_HOME/hub)',
    DATA_FETCH_FLAGS,
  ).action(async (flags: Record<string, unknown>) => {
    const { dataFetchCommand } = await import('./data.js');
    process.exitCode = await dataFetchCommand(flags);
  });

  subcommand(
    program,
    'compare',
    'paired comparison of two runs (results dir or file, with --log_samples sample logs): B − A per task and group; without sample logs, or given two leaderboard_<time>.json, the leaderboards are diffed',
    COMPARE_FLAGS,
  )
    .argument('<run_a>', 'baseline run A (or its leaderboard)')
    .argument('<run_b>', 'candidate run B (or its leaderboard)')
    .action(async (runA: string, runB: string, flags: Record<string, unknown>) => {
      const { compareCommand } = await import('./compare.js');
      process.exitCode = await compareCommand(runA, runB, flags);
    });

  subcommand(
    program,
    'gate',
    'CI regression gate: one-sided non-inferiority test per task; exit 0 pass, 1 worse than the margin, 3 undecided',
    GATE_FLAGS,
  )
    .addHelpText('after', GATE_EXIT_CODES)
    .action(async (flags: Record<string, unknown>) => {
      const { gateCommand } = await import('./gate.js');
      process.exitCode = await gateCommand(flags);
    });

  subcommand(
    program,
    'power',
    'items needed to detect an accuracy difference (--delta), or the minimum detectable effect at --n items; --baseline may be a run, whose samples give each task its accuracy and items (and with --current RUN, the per-item correlation)',
    POWER_FLAGS,
  ).action(async (flags: Record<string, unknown>) => {
    const { powerCommand } = await import('./power.js');
    process.exitCode = await powerCommand(flags);
  });

  subcommand(
    program,
    'ppl',
    'perplexity of a text file: rolling (lm-eval), strided (HF) or chunked (llama-perplexity)',
    PPL_FLAGS,
  ).action(async (flags: Record<string, unknown>) => {
    const { pplCommand } = await import('./ppl.js');
    process.exitCode = await pplCommand(flags);
  });

  subcommand(
    program,
    'serve',
    'OpenAI-compatible server over a GGUF model (completions with echo + prompt logprobs, chat, tokenize)',
    SERVE_FLAGS,
  ).action(async (flags: Record<string, unknown>) => {
    const { serveCommand } = await import('./serve.js');
    process.exitCode = await serveCommand(flags);
  });

  subcommand(
    program,
    'kld',
    'KL divergence of a (quantized) GGUF from a base GGUF, same-top rate and perplexity ratio (llama-perplexity --kl-divergence)',
    KLD_FLAGS,
  ).action(async (flags: Record<string, unknown>) => {
    const { kldCommand } = await import('./kld.js');
    process.exitCode = await kldCommand(flags);
  });

  subcommand(
    program,
    'export',
    'send a run to a tracking system: an MLflow server, or a Hugging Face Hub dataset (lm-eval layout)',
    EXPORT_FLAGS,
  )
    .argument('<run>', 'the run: its results file, its folder, or the --output_path above it')
    .action(async (runLocation: string, flags: Record<string, unknown>) => {
      const { exportCommand } = await import('./export.js');
      process.exitCode = await exportCommand(runLocation, flags);
    });

  subcommand(
    program,
    'view',
    'browse, compare and plot runs in a web app over results directories (or write a static copy)',
    VIEW_FLAGS,
  )
    .argument('[dirs...]', 'directories holding results_<time>.json files (searched recursively)', [])
    .action(async (dirs: string[], flags: Record<string, unknown>) => {
      const { viewCommand } = await import('./view.js');
      process.exitCode = await viewCommand(dirs, flags);
    });
  const suite = program
    .command('suite')
    .description('many models × many tasks as one versioned, resumable evaluation (docs/suites.md)');
  subcommand(
    suite,
    'validate',
    'check a suite file without running anything: models known and their model args checked, tasks resolved, groups named',
    SUITE_VALIDATE_FLAGS,
  )
    .argument('<suite_file>', 'the suite file (YAML)')
    .action(async (file: string, flags: Record<string, unknown>) => {
      const { suiteValidateCommand } = await import('./suite.js');
      process.exitCode = await suiteValidateCommand(file, flags);
    });
  subcommand(
    suite,
    'run',
    "run every (model, task set) cell of a suite into suites/NAME/<model>/<task set>/ as assay run writes; finished cells with identical settings and task content are skipped, a killed cell resumes from its model's response cache",
    SUITE_RUN_FLAGS,
  )
    .argument('<suite_file>', 'the suite file (YAML)')
    .action(async (file: string, flags: Record<string, unknown>) => {
      const { suiteRunCommand } = await import('./suite.js');
      process.exitCode = await suiteRunCommand(file, flags);
    });
  subcommand(
    suite,
    'summarize',
    'summarize a suite into suites/NAME/summary.json, summary.csv and summary.md: per model × task the metric with its interval and n, group macro averages, HELM mean win rates with intervals, rank intervals, the paired head-to-head matrix and the minimum detectable difference',
    SUITE_SUMMARIZE_FLAGS,
  )
    .argument('<name>', "the suite's name (its folder under --suites_dir)")
    .action(async (name: string, flags: Record<string, unknown>) => {
      const { suiteSummarizeCommand } = await import('./suite.js');
      process.exitCode = await suiteSummarizeCommand(name, flags);
    });
  subcommand(
    suite,
    'diff',
    'what changed between two versions of a suite: models and tasks added or removed, task content and settings changed, and scores moved beyond their intervals (paired on shared docs when both have sample logs, else by non-overlapping intervals)',
    SUITE_DIFF_FLAGS,
  )
    .argument('<before>', "the earlier suite's name (its folder under --suites_dir)")
    .argument('<after>', "the later suite's name")
    .action(async (before: string, after: string, flags: Record<string, unknown>) => {
      const { suiteDiffCommand } = await import('./suite.js');
      process.exitCode = await suiteDiffCommand(before, after, flags);
    });
  subcommand(
    suite,
    'merge',
    'assemble the shards of a suite run with --shard (suites/NAME/shards/i-of-N/) into suites/NAME/, after checking that every shard ran the same suite file',
    SUITE_MERGE_FLAGS,
  )
    .argument('<name>', "the suite's name (its folder under --suites_dir)")
    .action(async (name: string, flags: Record<string, unknown>) => {
      const { suiteMergeCommand } = await import('./suite.js');
      process.exitCode = await suiteMergeCommand(name, flags);
    });
  return program;
}

/** Parses the command line (as `commandLine` gives it) and runs the command it names. */
export async function runProgram(args: string[]): Promise<void> {
  const program = buildProgram(args);
  try {
    await program.parseAsync(args, { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      process.exitCode = error.exitCode === 0 ? 0 : 2;
      return;
    }
    process.exitCode = reportError(error);
  }
}
