import { Command, CommanderError, Option } from 'commander';
import { reportError } from './errors.js';

const SUBCOMMANDS = new Set([
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
  'help',
]);

/**
 * lm-eval spells flags in snake_case; users also type kebab-case. Both reach commander as snake_case.
 * Values are left alone (only tokens starting with `--`, up to any `=`).
 */
export function normalizeFlags(argv: string[]): string[] {
  return argv.map((token) => {
    if (!token.startsWith('--') || token === '--') return token;
    const eq = token.indexOf('=');
    const name = eq >= 0 ? token.slice(0, eq) : token;
    const rest = eq >= 0 ? token.slice(eq) : '';
    return `--${name.slice(2).replaceAll('-', '_')}${rest}`;
  });
}

export function buildProgram(): Command {
  const program = new Command('assay')
    .description('LLM evaluation harness, compatible with lm-evaluation-harness')
    .version(process.env.ASSAY_VERSION ?? '0.1.0', '--version')
    .exitOverride()
    .configureOutput({
      writeErr: (text) => process.stderr.write(text),
      writeOut: (text) => process.stdout.write(text),
    });

  const run = program
    .command('run')
    .description('evaluate a model on tasks (lm_eval run)')
    .option('-C, --config <file>', 'YAML file whose keys are the flags below (CLI values win)')
    .option(
      '-M, --model <name>',
      'model backend: dummy, demo, gguf, vllm, sglang (servers assay starts), local-completions, local-chat-completions, openai-completions, openai-chat-completions',
    )
    .option('-a, --model_args <args>', 'k=v,k2=v2 or a JSON object, passed to the backend')
    .option(
      '-t, --tasks <tasks...>',
      'task/group/tag names, globs, YAML/JSONL/TS files or directories (comma or space separated)',
    )
    .option('-f, --num_fewshot <n>', 'few-shot examples per doc (tasks that pin num_fewshot: 0 keep 0)')
    .option('-b, --batch_size <size>', 'batch size (recorded; backends batch themselves)', '1')
    .option(
      '-o, --output_path <path>',
      'directory (or .json path) for results, samples and leaderboard_<time>.json',
    )
    .option('-L, --limit <n>', 'first N docs per task, or a fraction below 1 (for testing only)')
    .option('-E, --samples <json>', 'per-task doc ids: JSON object or a JSON file')
    .option(
      '--shard <i/N|auto>',
      'evaluate the i-th of N slices of every task (docs at positions k mod N = i after --limit/--samples); auto (or auto/N) reads i and N from a Slurm array, a Kubernetes Indexed Job or torchrun; combine with assay merge',
    )
    .option(
      '--mc_mode <mode>',
      'multiple-choice tasks: loglikelihood (default) | generate (lettered options, the answer letter extracted; for chat endpoints)',
    )
    .option('-s, --log_samples', 'write samples_<task>_<time>.jsonl')
    .option('-x, --predict_only', 'generate and log samples without computing metrics')
    .option('--seed <seeds>', 'python,numpy,torch,fewshot seeds (one value sets all)', '0,1234,1234,1234')
    .option('--gen_kwargs <args>', 'merged into generate_until tasks’ generation_kwargs (k=v or JSON)')
    .option('--include_path <dirs...>', 'extra task directories (later ones override earlier)')
    .addOption(new Option('--apply_chat_template [name]', 'render prompts with the model’s chat template'))
    .option('--system_instruction <text>', 'system message prepended to every prompt')
    .addOption(
      new Option(
        '--fewshot_as_multiturn [bool]',
        'few-shot examples as user/assistant turns (default on with a chat template)',
      ),
    )
    .option(
      '-c, --use_cache <path>',
      'SQLite response cache for HTTP backends: answers are written as they arrive; a rerun re-sends nothing already answered',
    )
    .option('--show_config', 'print the whole results JSON, task configs included')
    .option('-w, --write_out', 'print the prompt and target of doc 0 of each task')
    .option(
      '--bootstrap_iters <n>',
      'bootstrap iterations for stderr of non-mean metrics (0 disables stderr)',
      '100000',
    )
    .option('--include_per_example', 'add per-example predictions to leaderboard_<time>.json')
    .option(
      '--max_latency_s <seconds>',
      'per-request latency cap: a request not answered in time is cancelled and counts as timed out (not wrong, not an error); metrics cover the docs answered in time',
    )
    .option(
      '--expect_sha256 <pins>',
      'task=SHA256,… or a JSON file {"task": "sha256"}: refuse the run (exit 2) when a task’s content (config and data files) differs, before any model request',
    )
    .option(
      '--hf_hub_log_args <args>',
      "push results and samples to a Hub dataset at the end (lm-eval's keys: hub_results_org, details_repo_name, results_repo_name, push_results_to_hub, push_samples_to_hub, public_repo; needs --output_path and HF_TOKEN)",
    )
    .option(
      '--wandb_args <args>',
      'refused: Weights & Biases export is not supported (use assay export --to mlflow)',
    )
    .option(
      '--confirm_run_unsafe_code',
      'allow tasks marked unsafe_code (they run model-written code in the sandbox)',
    )
    .option(
      '--unsafe_code_without_sandbox',
      'when bubblewrap cannot start, run model-written code with rlimits only (UNSAFE; recorded in the manifest)',
    )
    .option('--code_workers <n>', 'programs run in parallel by code metrics (default: one per core)')
    .option('--code_timeout <seconds>', 'wall-clock limit per program run by code metrics (default: 10)')
    .option(
      '--code_memory <size>',
      'memory bound per program run by code metrics, all its processes and its /tmp together (default: 2G; at least 1G)',
    )
    .option(
      '--python <path>',
      'Python interpreter for tasks whose !function lives in a utils.py (default: $ASSAY_PYTHON, else python3 on PATH); started only when a task needs it',
    )
    .option(
      '--ppl_mode <mode>',
      'perplexity of loglikelihood_rolling tasks: rolling (lm-eval, default) | strided (HF sliding windows) | chunked (llama-perplexity)',
    )
    .option('--ppl_stride <tokens>', 'strided: a window starts every S tokens (default: half the window)')
    .option(
      '--ppl_max_length <tokens>',
      'strided: window length; chunked: chunk size n_ctx (default: the model context)',
    )
    .action(async (flags: Record<string, unknown>, command: Command) => {
      const { runCommand } = await import('./run.js');
      // The flags declared here are the keys a --config file may set (run.ts does not import this file).
      process.exitCode = await runCommand(
        flags,
        command.options.map((option) => option.attributeName()),
      );
    });
  void run;

  program
    .command('merge')
    .description(
      'combine the outputs of assay run --shard i/N (every i, with --log_samples) into one run, as if unsharded',
    )
    .argument('<shards...>', 'each shard run: its results file, its directory, or the --output_path above it')
    .option(
      '-o, --output_path <path>',
      'directory (or .json path) for the merged results, samples and leaderboard_<time>.json',
    )
    .option('-t, --tasks <tasks...>', 'task specs to load (default: those the shards recorded)')
    .option('--include_path <dirs...>', 'task directories (default: those the shards recorded)')
    .option('--python <path>', 'Python interpreter for tasks with Python functions (as for run)')
    .action(async (shards: string[], flags: Record<string, unknown>) => {
      const { mergeCommand } = await import('./merge.js');
      process.exitCode = await mergeCommand(shards, flags);
    });

  program
    .command('ls')
    .description('list tasks, groups or tags')
    .argument('[what]', 'tasks | groups | tags', 'tasks')
    .option('--include_path <dirs...>', 'extra task directories')
    .action(async (what: string, flags: Record<string, unknown>) => {
      const { lsCommand } = await import('./ls.js');
      process.exitCode = await lsCommand(what, flags);
    });

  program
    .command('validate')
    .description(
      'load every task, group and tag and report each (exit 1 if any fails): config, includes, functions, templates, metric and filter names, and with data doc 0’s requests',
    )
    .option('-t, --tasks <tasks...>', 'tasks to check (default: every task of --include_path)')
    .option('--include_path <dirs...>', 'extra task directories')
    .option('--python <path>', 'Python interpreter for tasks with Python functions (as for run)')
    .option('--no_data', 'check configs only: read no dataset (offline)')
    .option('--format <format>', 'text | json (one record per task, group and tag)', 'text')
    .action(async (flags: Record<string, unknown>) => {
      const { validateCommand } = await import('./validate.js');
      process.exitCode = await validateCommand(flags);
    });

  program
    .command('data')
    .description('dataset cache commands')
    .command('fetch')
    .description('download the Hub data of tasks into the cache (HF_HUB_CACHE, else $HF_HOME/hub)')
    .requiredOption('-t, --tasks <tasks...>', 'tasks, groups or tags whose data to fetch')
    .option('--include_path <dirs...>', 'extra task directories')
    .action(async (flags: Record<string, unknown>) => {
      const { dataFetchCommand } = await import('./data.js');
      process.exitCode = await dataFetchCommand(flags);
    });

  program
    .command('compare')
    .description(
      'paired comparison of two runs (results dir or file, with --log_samples sample logs): B − A per task and group; without sample logs, or given two leaderboard_<time>.json, the leaderboards are diffed',
    )
    .argument('<run_a>', 'baseline run A (or its leaderboard)')
    .argument('<run_b>', 'candidate run B (or its leaderboard)')
    .option('-t, --tasks <tasks...>', 'tasks or groups to compare (default: every task in both runs)')
    .option('--metric <name>', 'metric to compare (default: the first metric of each task)')
    .option('--format <format>', 'table | json | markdown', 'table')
    .option('--adjust <method>', 'multiple-comparison adjustment across tasks: holm | bh', 'holm')
    .option('--alpha <level>', 'significance level of the verdicts', '0.05')
    .option('--seed <n>', 'seed of the bootstrap and permutation resampling', '0')
    .option(
      '--allow_errors',
      'compare runs with errored samples on the docs answered in both (refused otherwise)',
    )
    .action(async (runA: string, runB: string, flags: Record<string, unknown>) => {
      const { compareCommand } = await import('./compare.js');
      process.exitCode = await compareCommand(runA, runB, flags);
    });

  program
    .command('gate')
    .description(
      'CI regression gate: one-sided non-inferiority test per task; exit 0 pass, 1 worse than the margin, 3 undecided',
    )
    .option('--baseline <run>', 'baseline run (results dir or file with sample logs)')
    .option('--current <run>', 'current run')
    .option(
      '--max_drop <delta>',
      'largest tolerated drop, in metric units (0.005 = half a point of accuracy)',
    )
    .option('-t, --tasks <tasks...>', 'tasks or groups to gate on (default: every task in both runs)')
    .option('--metric <name>', 'metric to gate on (default: the first metric of each task)')
    .option('--alpha <level>', 'one-sided significance level', '0.05')
    .option(
      '--mode <mode>',
      'test (non-inferiority test) | threshold (fail if the point estimate drops by more than the margin)',
      'test',
    )
    .option('--json <file>', 'also write the JSON report to this file')
    .option('--format <format>', 'text | json (stdout)', 'text')
    .option(
      '--allow_errors',
      'gate runs with errored samples on the docs answered in both (refused otherwise)',
    )
    .action(async (flags: Record<string, unknown>) => {
      const { gateCommand } = await import('./gate.js');
      process.exitCode = await gateCommand(flags);
    });

  program
    .command('power')
    .description(
      'items needed to detect an accuracy difference (--delta), or the minimum detectable effect at --n items',
    )
    .option('--baseline <accuracy>', 'baseline accuracy, e.g. 0.72')
    .option('--delta <difference>', 'difference to detect, e.g. 0.01')
    .option('--n <items>', 'number of items (gives the minimum detectable effect)')
    .option('--correlation <rho>', 'correlation of per-item correctness between the two models', '0.5')
    .option('--alpha <level>', 'two-sided significance level', '0.05')
    .option('--power <power>', 'power', '0.8')
    .option('--json', 'print JSON')
    .action(async (flags: Record<string, unknown>) => {
      const { powerCommand } = await import('./power.js');
      process.exitCode = await powerCommand(flags);
    });
  program
    .command('ppl')
    .description('perplexity of a text file: rolling (lm-eval), strided (HF) or chunked (llama-perplexity)')
    .requiredOption(
      '-M, --model <name>',
      'model backend (strided and chunked need token-level scoring: gguf)',
    )
    .option('-a, --model_args <args>', 'k=v,k2=v2 or a JSON object, passed to the backend')
    .requiredOption('--text <file>', 'UTF-8 text file to score')
    .option('--ppl_mode <mode>', 'rolling | strided | chunked', 'rolling')
    .option('--ppl_stride <tokens>', 'strided: a window starts every S tokens (default: half the window)')
    .option(
      '--ppl_max_length <tokens>',
      'strided: window length; chunked: chunk size n_ctx (default: the model context)',
    )
    .option('--format <format>', 'text | json', 'text')
    .option('-o, --output_path <file>', 'also write the JSON report to this file')
    .action(async (flags: Record<string, unknown>) => {
      const { pplCommand } = await import('./ppl.js');
      process.exitCode = await pplCommand(flags);
    });
  program
    .command('serve')
    .description(
      'OpenAI-compatible server over a GGUF model (completions with echo + prompt logprobs, chat, tokenize)',
    )
    .option('-m, --model <file>', 'GGUF file (default: the built-in demo model)')
    .option(
      '-a, --model_args <args>',
      'gguf model args: n_ctx=…,threads=…,batch_size=…,scorer=auto|native|map',
    )
    .option('--host <host>', 'address to bind (anything but loopback exposes the model)', '127.0.0.1')
    .option('--port <n>', 'port to listen on (0 picks a free one)', '8000')
    .option('--concurrency <n>', 'requests using the engine at once', '4')
    .option('--queue <n>', 'requests waiting beyond that before 429', '256')
    .option('--served_model_name <name>', 'the model id clients send (default: the file name without .gguf)')
    .action(async (flags: Record<string, unknown>) => {
      const { serveCommand } = await import('./serve.js');
      process.exitCode = await serveCommand(flags);
    });
  program
    .command('kld')
    .description(
      'KL divergence of a (quantized) GGUF from a base GGUF, same-top rate and perplexity ratio (llama-perplexity --kl-divergence)',
    )
    .requiredOption('--base <file>', 'the reference GGUF (e.g. F16)')
    .requiredOption('-m, --model <file>', 'the GGUF to check (e.g. a quantization of the base)')
    .option('--text <file>', 'UTF-8 text file to score')
    .option('-t, --tasks <name>', 'a perplexity task whose documents form the text (e.g. wikitext)')
    .option('--include_path <dir>', 'extra task folder for --tasks')
    .option('--limit <n>', 'with --tasks: first N documents')
    .option('-c, --n_ctx <tokens>', 'chunk size in tokens (llama-perplexity -c)', '512')
    .option('--threads <n>', 'CPU threads (default: all cores; 1 for tiny models)')
    .option('--format <format>', 'text | json', 'text')
    .option('-o, --output_path <file>', 'also write the JSON report to this file')
    .action(async (flags: Record<string, unknown>) => {
      const { kldCommand } = await import('./kld.js');
      process.exitCode = await kldCommand(flags);
    });
  program
    .command('export')
    .description(
      'send a run to a tracking system: an MLflow server, or a Hugging Face Hub dataset (lm-eval layout)',
    )
    .argument('<run>', 'the run: its results file, its folder, or the --output_path above it')
    .requiredOption('--to <target>', 'mlflow | hub | wandb (wandb is refused: see the README)')
    .option(
      '--experiment_name <name>',
      'mlflow: experiment, got or created (default: MLFLOW_EXPERIMENT_NAME, else Default)',
    )
    .option('--run_name <name>', 'mlflow: run name (default: "<model> <time>")')
    .option('--no_artifacts', 'mlflow: log params, metrics and tags only, no files')
    .option(
      '--hf_hub_log_args <args>',
      "hub: lm-eval's keys, e.g. hub_results_org=ORG,details_repo_name=NAME,push_results_to_hub=True,push_samples_to_hub=True,public_repo=False",
    )
    .option('--wandb_args <args>', 'refused: Weights & Biases export is not supported')
    .action(async (runLocation: string, flags: Record<string, unknown>) => {
      const { exportCommand } = await import('./export.js');
      process.exitCode = await exportCommand(runLocation, flags);
    });
  program
    .command('view')
    .description(
      'browse, compare and plot runs in a web app over results directories (or write a static copy)',
    )
    .argument('[dirs...]', 'directories holding results_<time>.json files (searched recursively)', [])
    .option('--port <n>', 'port to listen on (0 picks a free one)', '8711')
    .option('--host <host>', 'address to bind (anything but loopback exposes the results)', '127.0.0.1')
    .option('--export <dir>', 'write a static copy of the viewer and its data to this directory, then exit')
    .action(async (dirs: string[], flags: Record<string, unknown>) => {
      const { viewCommand } = await import('./view.js');
      process.exitCode = await viewCommand(dirs, flags);
    });
  return program;
}

export async function main(argv: string[]): Promise<void> {
  let args = normalizeFlags(argv);
  // lm-eval compatibility: `assay --model x --tasks y` means `assay run --model x --tasks y`.
  if (
    args.length > 1 &&
    !SUBCOMMANDS.has(args[0]) &&
    args[0].startsWith('-') &&
    args[0] !== '--help' &&
    args[0] !== '-h'
  ) {
    args = ['run', ...args];
  }
  const program = buildProgram();
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
