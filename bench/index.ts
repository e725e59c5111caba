/**
 * Issue 14's figures: the task index, cold (no cache) and warm (the cached scan of the folder), beside
 * lm-eval's own TaskManager index of the same tree, measured in the same run.
 *
 * - Synthetic (always): bench/gen-task-tree.ts's 10,000 task YAMLs with include chains.
 * - lm-eval's tree (when ASSAY_BENCH_LM_EVAL_TASKS names its `lm_eval/tasks` folder; skipped otherwise):
 *   assay cold and warm, and `TaskManager()` of lm-eval's own code from that checkout, run by python3.
 *
 * lm-eval's package imports modules at import time that its index does not use (datasets, tqdm, …); when
 * they are not installed they are replaced, for this measurement only, by stand-in modules in a temporary
 * folder on PYTHONPATH (found by trying: each ModuleNotFoundError adds one), and the report names them.
 * A stand-in distribution record gives `importlib.metadata.version("lm_eval")` its version.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateTaskTree } from './gen-task-tree.js';
import { median } from './median.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = path.join(root, 'bin', 'assay.js');

interface IndexTime {
  ms: number;
  cpuMs: number;
  entries: number;
  task: number;
  group: number;
  tag: number;
  skipped: number;
}

function indexTime(tree: string, cache: string | undefined): IndexTime {
  const output = execFileSync(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'bench', 'index-time.ts'), tree, cache ?? 'none'],
    { cwd: root, encoding: 'utf8' },
  );
  return JSON.parse(output.trim().split('\n').pop() ?? '{}') as IndexTime;
}

function commandMs(args: string[], env: Record<string, string>): number {
  const start = performance.now();
  const result = spawnSync(process.execPath, [bin, ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const ms = performance.now() - start;
  if (result.status !== 0) throw new Error(`assay ${args.join(' ')} failed: ${result.stderr}`);
  return ms;
}

/** Cold: a fresh cache folder each time. Warm: one cache folder, written by a first run not counted. */
async function assayFigures(tree: string, runs: number) {
  const work = await mkdtemp(path.join(os.tmpdir(), 'assay-bench-index-'));
  try {
    const cold: IndexTime[] = [];
    for (let i = 0; i < runs; i++) cold.push(indexTime(tree, path.join(work, `cold-${i}`)));
    const warmCache = path.join(work, 'warm');
    indexTime(tree, warmCache);
    if (!existsSync(warmCache))
      throw new Error(`no cache was written for ${tree} (files changed in the last 2 s?)`);
    const warm: IndexTime[] = [];
    for (let i = 0; i < runs; i++) warm.push(indexTime(tree, warmCache));
    const cacheEnv = (dir: string) => ({ ASSAY_CACHE_DIR: dir });
    const lsCold: number[] = [];
    for (let i = 0; i < runs; i++) {
      lsCold.push(
        commandMs(['ls', 'tasks', '--include_path', tree], cacheEnv(path.join(work, `ls-cold-${i}`))),
      );
    }
    const lsWarmDir = path.join(work, 'ls-warm');
    commandMs(['ls', 'tasks', '--include_path', tree], cacheEnv(lsWarmDir));
    const lsWarm: number[] = [];
    for (let i = 0; i < runs; i++)
      lsWarm.push(commandMs(['ls', 'tasks', '--include_path', tree], cacheEnv(lsWarmDir)));
    // `assay run` of one small local task, with the big tree on --include_path: what the index costs a run.
    const local = path.join(work, 'local');
    mkdirSync(local);
    writeFileSync(path.join(local, 'data.jsonl'), '{"q": "2+2=", "a": "4"}\n');
    writeFileSync(
      path.join(local, 'bench_local.yaml'),
      'task: bench_local\ndataset_path: json\ndataset_kwargs:\n  data_files:\n    test: data.jsonl\ntest_split: test\ndoc_to_text: q\ndoc_to_target: a\n',
    );
    const runArgs = [
      'run',
      '--model',
      'dummy',
      '--tasks',
      'bench_local',
      '--include_path',
      tree,
      '--include_path',
      local,
    ];
    const runBare = median(
      Array.from({ length: runs }, () =>
        commandMs(
          ['run', '--model', 'dummy', '--tasks', 'bench_local', '--include_path', local],
          cacheEnv(lsWarmDir),
        ),
      ),
    );
    const runWarm = median(Array.from({ length: runs }, () => commandMs(runArgs, cacheEnv(lsWarmDir))));
    const pick = (times: IndexTime[], key: 'ms' | 'cpuMs') => median(times.map((time) => time[key]));
    return {
      counts: cold[0],
      coldMs: pick(cold, 'ms'),
      coldCpuMs: pick(cold, 'cpuMs'),
      warmMs: pick(warm, 'ms'),
      warmCpuMs: pick(warm, 'cpuMs'),
      lsColdMs: median(lsCold),
      lsWarmMs: median(lsWarm),
      runBareMs: runBare,
      runWarmMs: runWarm,
    };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

const STANDIN = `
# Measurement only: stand-ins for packages lm-eval imports at import time and that are not installed.
import importlib.abc, importlib.machinery, os, sys, types
STUBBED = [name for name in os.environ.get('LM_EVAL_STUBS', '').split(',') if name]
class _StubModule(types.ModuleType):
    def __getattr__(self, name):
        if name.startswith('__'): raise AttributeError(name)
        value = type(name, (), {'__init__': lambda self, *a, **k: None, '__call__': lambda self, *a, **k: None})
        setattr(self, name, value)
        return value
class _Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, fullname, path, target=None):
        if fullname.split('.')[0] in STUBBED:
            return importlib.machinery.ModuleSpec(fullname, self, is_package=True)
        return None
    def create_module(self, spec):
        module = _StubModule(spec.name); module.__path__ = []; return module
    def exec_module(self, module): pass
sys.meta_path.insert(0, _Finder())
`;

const TASK_MANAGER = `
import json, sys, time
sys.path.insert(0, sys.argv[1])
from lm_eval.tasks import TaskManager
start = time.perf_counter()
manager = TaskManager()
seconds = time.perf_counter() - start
print(json.dumps({'ms': seconds * 1000, 'entries': len(manager.all_tasks), 'tasks': len(manager.all_subtasks), 'groups': len(manager.all_groups), 'tags': len(manager.all_tags)}))
`;

interface LmEvalTime {
  ms: number;
  entries: number;
  tasks: number;
  groups: number;
  tags: number;
}

/**
 * lm-eval's TaskManager index time (median, and each run's), and the modules that had to be stood in for.
 * `between`: run after each of lm-eval's runs, to measure assay in the same minutes (interleaved).
 */
async function lmEvalFigures(
  tree: string,
  runs: number,
  between?: () => void,
): Promise<{ ms: number; each: number[]; counts: LmEvalTime; stubbed: string[] } | { skipped: string }> {
  const repo = path.dirname(path.dirname(tree));
  if (path.basename(tree) !== 'tasks' || path.basename(path.dirname(tree)) !== 'lm_eval') {
    return { skipped: `${tree} is not the lm_eval/tasks folder of an lm-eval checkout` };
  }
  const stubs = await mkdtemp(path.join(os.tmpdir(), 'assay-bench-lm-eval-'));
  try {
    writeFileSync(path.join(stubs, 'sitecustomize.py'), STANDIN);
    const version = /^version\s*=\s*"([^"]+)"/m.exec(
      readFileSync(path.join(repo, 'pyproject.toml'), 'utf8'),
    )?.[1];
    const distInfo = path.join(stubs, `lm_eval-${version ?? '0'}.dist-info`);
    mkdirSync(distInfo);
    writeFileSync(
      path.join(distInfo, 'METADATA'),
      `Metadata-Version: 2.1\nName: lm_eval\nVersion: ${version ?? '0'}\n`,
    );
    const stubbed: string[] = [];
    const once = (): LmEvalTime => {
      for (let attempt = 0; attempt < 30; attempt++) {
        const result = spawnSync('python3', ['-c', TASK_MANAGER, repo], {
          encoding: 'utf8',
          env: { ...process.env, PYTHONPATH: stubs, LM_EVAL_STUBS: stubbed.join(',') },
        });
        if (result.status === 0)
          return JSON.parse(result.stdout.trim().split('\n').pop() ?? '{}') as LmEvalTime;
        const missing = /No module named '([^'.]+)/.exec(result.stderr)?.[1];
        if (!missing || stubbed.includes(missing))
          throw new Error(`lm-eval's TaskManager failed: ${result.stderr}`);
        stubbed.push(missing);
      }
      throw new Error('lm-eval needs too many stand-in modules');
    };
    const times: LmEvalTime[] = [];
    for (let i = 0; i < runs; i++) {
      times.push(once());
      between?.();
    }
    const each = times.map((time) => time.ms);
    return { ms: median(each), each, counts: times[0], stubbed };
  } finally {
    await rm(stubs, { recursive: true, force: true });
  }
}

const ms = (value: number) => `${Math.round(value).toLocaleString('en-US')} ms`;

export async function runIndexBench(report: (line: string) => void): Promise<void> {
  const runs = 5;
  const work = await mkdtemp(path.join(os.tmpdir(), 'assay-bench-tree-'));
  try {
    const tree = path.join(work, 'tree');
    const { files } = await generateTaskTree(tree, { tasks: 10000 });
    // Files changed in the last 2 s are not cached (their mtime could repeat); let them settle.
    await new Promise((resolve) => setTimeout(resolve, 2100));
    const synthetic = await assayFigures(tree, runs);
    report(
      `task index, synthetic tree (${files} files, ${synthetic.counts.task} tasks): cold ${ms(synthetic.coldMs)} (CPU ${ms(synthetic.coldCpuMs)}), warm ${ms(synthetic.warmMs)} (CPU ${ms(synthetic.warmCpuMs)}), ${(synthetic.coldMs / synthetic.warmMs).toFixed(1)}× faster warm; whole \`assay ls tasks\`: cold ${ms(synthetic.lsColdMs)}, warm ${ms(synthetic.lsWarmMs)}`,
    );
  } finally {
    await rm(work, { recursive: true, force: true });
  }

  const lmEvalTree = process.env.ASSAY_BENCH_LM_EVAL_TASKS;
  if (!lmEvalTree || !existsSync(lmEvalTree)) {
    report(
      'task index, lm-eval tree: skipped (set ASSAY_BENCH_LM_EVAL_TASKS to an lm-eval checkout’s lm_eval/tasks)',
    );
    return;
  }
  const tree = path.resolve(lmEvalTree);
  const assay = await assayFigures(tree, runs);
  // The listing against lm-eval in the same minutes: each of lm-eval's runs followed by a cold and a warm
  // \`assay ls tasks\`. This machine's speed drifts by half within minutes, so a ratio of runs taken apart
  // (the line above and lm-eval's below) moves with the drift; the per-round ratio does not.
  const paired = await mkdtemp(path.join(os.tmpdir(), 'assay-bench-paired-'));
  const pairedCold: number[] = [];
  const pairedWarm: number[] = [];
  const listing = ['ls', 'tasks', '--include_path', tree];
  commandMs(listing, { ASSAY_CACHE_DIR: path.join(paired, 'warm') });
  let lmEval: Awaited<ReturnType<typeof lmEvalFigures>>;
  try {
    lmEval = await lmEvalFigures(tree, runs, () => {
      pairedCold.push(
        commandMs(listing, { ASSAY_CACHE_DIR: path.join(paired, `cold-${pairedCold.length}`) }),
      );
      pairedWarm.push(commandMs(listing, { ASSAY_CACHE_DIR: path.join(paired, 'warm') }));
    });
  } finally {
    await rm(paired, { recursive: true, force: true });
  }
  const { counts } = assay;
  report(
    `task index, lm-eval tree (${counts.entries} entries: ${counts.task} tasks, ${counts.group} groups, ${counts.tag} tags; ${counts.skipped} unreadable): assay cold ${ms(assay.coldMs)} (CPU ${ms(assay.coldCpuMs)}, target ≤ 1,500 ms), warm ${ms(assay.warmMs)} (CPU ${ms(assay.warmCpuMs)}, target ≤ 300 ms)`,
  );
  report(
    `  whole commands: \`assay ls tasks\` cold ${ms(assay.lsColdMs)}, warm ${ms(assay.lsWarmMs)}; \`assay run --model dummy\` of a one-doc local task with the tree on --include_path, warm: ${ms(assay.runWarmMs)} (without the tree: ${ms(assay.runBareMs)})`,
  );
  if ('skipped' in lmEval) {
    report(`  lm-eval TaskManager: skipped (${lmEval.skipped})`);
    return;
  }
  report(
    `  lm-eval TaskManager() over the same tree (${lmEval.counts.entries} entries: ${lmEval.counts.tasks} tasks, ${lmEval.counts.groups} groups, ${lmEval.counts.tags} tags): ${ms(lmEval.ms)}, median of ${runs}; ratio to assay cold ${(lmEval.ms / assay.coldMs).toFixed(1)}×, to assay warm ${(lmEval.ms / assay.warmMs).toFixed(0)}×; stand-in modules: ${lmEval.stubbed.length ? lmEval.stubbed.join(', ') : 'none'} (and a stand-in lm_eval distribution record for its version)`,
  );
  // Issue 33: the listing as a whole process (node's start-up, module loading and printing included)
  // against lm-eval's index alone (its interpreter's start-up and imports not counted).
  report(
    `  whole \`assay ls tasks\` process against lm-eval's TaskManager() alone: cold ${(lmEval.ms / assay.lsColdMs).toFixed(1)}× (target ≥ 8×), warm ${(lmEval.ms / assay.lsWarmMs).toFixed(1)}× (target ≥ 20×)`,
  );
  const ratios = (times: number[]) => times.map((time, round) => (lmEval.each[round] as number) / time);
  const range = (values: number[]) => `${Math.min(...values).toFixed(1)}–${Math.max(...values).toFixed(1)}×`;
  report(
    `  the same, interleaved (${runs} rounds, each lm-eval's run then a cold and a warm \`assay ls tasks\`; median of the rounds' ratios): cold ${median(ratios(pairedCold)).toFixed(1)}× (rounds ${range(ratios(pairedCold))}; ${ms(median(pairedCold))}), warm ${median(ratios(pairedWarm)).toFixed(1)}× (rounds ${range(ratios(pairedWarm))}; ${ms(median(pairedWarm))})`,
  );
}
