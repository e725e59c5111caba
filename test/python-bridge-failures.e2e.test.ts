/**
 * Python task code that misbehaves, through the real CLI: every case is either an errored sample (the run
 * is partial and exits 1) or an error before any request (exit 2), located at the task, the doc, the
 * function and the file and line; never a doc that vanishes from a metric, a hang, or an unlocated
 * "internal error". Also: the content hash covers the modules a utils.py imports, and a lone surrogate in
 * the data gives the same prompt through Python as through a template. Expected values come from calling
 * the same Python functions directly, or from the files themselves.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  type Manifest,
  type ReadSampleLine,
  readResultsFile,
  readSamples,
  type SampleLine,
} from 'assay/results';
import { describe, expect, it } from 'vitest';
import { bin, runCli } from './support/cli.js';
import { runCliInProcess } from './support/cli-in-process.js';
import { findOne, tempDir } from './support/helpers.js';
import { testInterpreters } from './support/python-interpreters.js';
import { requireComponent } from './support/require-component.js';

type Json = Record<string, any>;

/** A generate_until line's prompt text: arguments are open in the contract, keyed by request as written. */
function promptOf(line: ReadSampleLine): string {
  return (line.arguments as SampleLine['arguments']).gen_args_0.arg_0 as string;
}

const interpreters = testInterpreters();
const hasPython = requireComponent('python3', interpreters.length > 0);
const [python] = [...interpreters].sort((a) => (a === '/usr/bin/python3' ? -1 : 1));

const DOCS = Array.from({ length: 30 }, (_, id) => ({ id, q: `question ${id}`, a: id % 3 ? 'yes' : 'no' }));

const UTILS = `import math
import sys


def _score(doc, results):
    return float(results[0].strip().startswith(doc["a"]))


def empty_for_three(doc, results):
    if doc["id"] == 3:
        return {}
    return {"acc": _score(doc, results)}


def no_f1_for_seven(doc, results):
    if doc["id"] == 7:
        return {"acc": _score(doc, results)}
    return {"acc": _score(doc, results), "f1": 0.5}


def exits_at_three(doc, results):
    if doc["id"] == 3:
        sys.exit(0)
    return {"acc": _score(doc, results)}


def nan_at_three(doc, results):
    if doc["id"] == 3:
        return {"acc": math.nan}
    if doc["id"] == 5:
        return {"acc": math.inf}
    return {"acc": _score(doc, results)}


def reads_stdin(doc):
    return "Q: " + doc["q"] + sys.stdin.read()
`;

const DIRECT = `
import importlib.util, json, sys
spec = importlib.util.spec_from_file_location("utils", sys.argv[1])
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
request = json.load(sys.stdin)
fn = getattr(module, request["fn"])
print(json.dumps([fn(doc, [resp]) for doc, resp in request["scored"]]))
`;

function direct(dir: string, fn: string, scored: unknown[][]): Json[] {
  const result = spawnSync(python, ['-c', DIRECT, path.join(dir, 'utils.py')], {
    input: JSON.stringify({ fn, scored }),
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`direct Python run failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as Json[];
}

function taskYaml(task: string, lines: string[], data = 'docs.jsonl'): string {
  return [
    `task: ${task}`,
    'dataset_path: json',
    'dataset_kwargs:',
    '  data_files:',
    `    test: ${data}`,
    'test_split: test',
    'output_type: generate_until',
    'doc_to_target: a',
    'generation_kwargs:',
    '  until: ["\\n"]',
    ...lines,
    '',
  ].join('\n');
}

/** `assay run` of the dummy model over `tasks` in `dir`, with the test's interpreter. */
const runArgs = (tasks: string, dir: string, ...extra: string[]) => [
  'run',
  '--model',
  'dummy',
  '--tasks',
  tasks,
  '--include_path',
  dir,
  '--python',
  python,
  ...extra,
];

const metricList = (...names: string[]) => [
  'metric_list:',
  ...names.flatMap((name) => [`  - metric: ${name}`, '    aggregation: mean', '    higher_is_better: true']),
];

function writeTasks(): string {
  const dir = tempDir('assay-python-failures-');
  writeFileSync(path.join(dir, 'utils.py'), UTILS);
  writeFileSync(path.join(dir, 'docs.jsonl'), `${DOCS.map((doc) => JSON.stringify(doc)).join('\n')}\n`);
  const scored = (task: string, fn: string, ...metrics: string[]) =>
    writeFileSync(
      path.join(dir, `${task}.yaml`),
      taskYaml(task, [
        'doc_to_text: "{{q}}"',
        `process_results: !function utils.${fn}`,
        ...metricList(...metrics),
      ]),
    );
  scored('py_empty', 'empty_for_three', 'acc');
  scored('py_no_f1', 'no_f1_for_seven', 'acc', 'f1');
  scored('py_exit', 'exits_at_three', 'acc');
  scored('py_nan', 'nan_at_three', 'acc');
  writeFileSync(
    path.join(dir, 'py_stdin.yaml'),
    taskYaml('py_stdin', ['doc_to_text: !function utils.reads_stdin']),
  );
  writeFileSync(path.join(dir, 'tpl_stdin.yaml'), taskYaml('tpl_stdin', ['doc_to_text: "Q: {{q}}"']));
  return dir;
}

const utilsLine = (pattern: string) => UTILS.split('\n').findIndex((text) => text.includes(pattern)) + 1;

describe.skipIf(!hasPython)('Python task code that misbehaves, through the CLI', () => {
  const dir = writeTasks();
  const run = (tasks: string, extra: string[] = []) => {
    const out = tempDir('assay-python-failures-out-');
    const result = runCli(runArgs(tasks, dir, '--output_path', out, '--log_samples', ...extra));
    const folder = path.join(out, 'dummy');
    const results = () => readResultsFile(findOne(folder, /^results_/));
    const samples = (task: string) => readSamples(findOne(folder, new RegExp(`^samples_${task}_\\d`)));
    return { ...result, results, samples };
  };

  // One run of the four scored tasks (each test reads its own task's part).
  let scored: ReturnType<typeof run> | undefined;
  const scoredRun = () => {
    scored ??= run('py_empty,py_no_f1,py_exit,py_nan');
    return scored;
  };
  const errorOf = (task: string, docId: number) =>
    scoredRun()
      .samples(task)
      .find((line) => line.doc_id === docId)?.error;

  it('process_results returning {} for one doc: an errored sample, the run partial (exit 1)', () => {
    const result = scoredRun();
    expect(result.status).toBe(1);
    const message = `task py_empty: process_results utils.empty_for_three returned no acc for this doc (it returned an empty dict; 29 other docs gave acc): every doc must give every metric, or it would be left out of it (def empty_for_three at utils.py:${utilsLine('def empty_for_three')}) (on doc 3)`;
    expect(result.stderr).toContain(`assay: first error (task py_empty, doc 3): ${message}`);
    const results = result.results();
    const task = results.results.py_empty;
    expect([task.sample_len, task.partial, task.errors, task.answered]).toEqual([30, true, 1, 29]);
    expect(results.partial).toBe(true);
    const samples = result.samples('py_empty');
    expect(errorOf('py_empty', 3)).toBe(message);
    // acc over the 29 other docs, as the function itself scores them.
    const expected = direct(
      dir,
      'empty_for_three',
      samples.map((line) => [line.doc, line.filtered_resps[0]]),
    );
    const accs = expected.filter((score) => 'acc' in score).map((score) => score.acc as number);
    expect(accs).toHaveLength(29);
    expect(task['acc,none']).toBe(accs.reduce((sum, value) => sum + value, 0) / 29);
  });

  it('a dict missing one of the task’s metrics for one doc: that doc is errored for every metric', () => {
    expect(errorOf('py_no_f1', 7)).toBe(
      `task py_no_f1: process_results utils.no_f1_for_seven returned no f1 for this doc (it returned only acc; 29 other docs gave f1): every doc must give every metric, or it would be left out of it (def no_f1_for_seven at utils.py:${utilsLine('def no_f1_for_seven')}) (on doc 7)`,
    );
    const task = scoredRun().results().results.py_no_f1;
    expect([task.sample_len, task.partial, task.errors, task.answered]).toEqual([30, true, 1, 29]);
    expect(task['f1,none']).toBe(0.5);
  });

  it('sys.exit(0) in process_results at doc 3: the error names doc 3 and the line', () => {
    expect(errorOf('py_exit', 3)).toBe(
      'task py_exit: process_results utils.exits_at_three raised SystemExit: 0 in exits_at_three: sys.exit(0) (on doc 3)',
    );
    expect(scoredRun().results().results.py_exit.answered).toBe(29);
  });

  it('NaN or inf from process_results: errored samples naming task, doc, function and line; results written', () => {
    const defined = utilsLine('def nan_at_three');
    expect([errorOf('py_nan', 3), errorOf('py_nan', 5)]).toEqual([
      `task py_nan: process_results utils.nan_at_three returned acc=nan: a metric value must be a finite number (def nan_at_three at utils.py:${defined}) (on doc 3)`,
      `task py_nan: process_results utils.nan_at_three returned acc=inf: a metric value must be a finite number (def nan_at_three at utils.py:${defined}) (on doc 5)`,
    ]);
    const task = scoredRun().results().results.py_nan;
    expect([task.errors, task.answered]).toEqual([2, 28]);
    expect(Number.isFinite(task['acc,none'])).toBe(true);
  });

  it('task code reading stdin reads nothing and the run ends, whatever assay’s own stdin is', async () => {
    const out = tempDir('assay-python-stdin-out-');
    // assay's stdin is a pipe this test keeps open: reading it would never end either.
    const child = spawn(
      process.execPath,
      [bin, ...runArgs('py_stdin,tpl_stdin', dir, '--output_path', out, '--log_samples')],
      { stdio: ['pipe', 'ignore', 'pipe'] },
    );
    const status = await new Promise<number | string | null>((resolve) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        resolve('still running after 45 s');
      }, 45_000);
      child.on('exit', (code) => {
        clearTimeout(timer);
        resolve(code);
      });
    });
    child.stdin?.destroy();
    expect(status).toBe(0);
    const prompts = (task: string) =>
      readSamples(findOne(path.join(out, 'dummy'), new RegExp(`^samples_${task}_\\d`))).map(promptOf);
    expect(prompts('py_stdin')).toEqual(prompts('tpl_stdin'));
    expect(prompts('py_stdin')[0]).toBe('Q: question 0');
  }, 60_000);
});

describe.skipIf(!hasPython)('task modules that end or outlive the worker', () => {
  it('a module that starts a detached helper at import: assay exits once its results are written', async () => {
    const dir = tempDir('assay-python-helper-');
    const pidFile = path.join(dir, 'helper.pid');
    writeFileSync(
      path.join(dir, 'helper_utils.py'),
      [
        'import subprocess, sys',
        '',
        '# A helper in its own session that outlives the worker, holding the stderr it inherited.',
        `subprocess.Popen([sys.executable, "-c", "import os, time; open('${pidFile}', 'w').write(str(os.getpid())); time.sleep(120)"], start_new_session=True)`,
        '',
        'def doc_to_text(doc):',
        '    return "Q: " + doc["q"]',
        '',
      ].join('\n'),
    );
    writeFileSync(path.join(dir, 'docs.jsonl'), `${JSON.stringify({ q: 'one', a: 'x' })}\n`);
    writeFileSync(
      path.join(dir, 'helper.yaml'),
      taskYaml('helper_task', ['doc_to_text: !function helper_utils.doc_to_text']),
    );
    const out = path.join(dir, 'out');
    try {
      // The helper sleeps 120 s: an assay that waited for it would be killed at 45 s (result.error).
      const result = spawnSync(
        process.execPath,
        [bin, ...runArgs('helper_task', dir, '--output_path', out)],
        { encoding: 'utf8', timeout: 45_000, killSignal: 'SIGKILL' },
      );
      expect(result.error).toBeUndefined();
      // Nothing but the request batch's closing progress line (docs/console.md) and the results line.
      expect(result.stderr).toMatch(
        /^assay: generate_until \(helper_task\): .*\nassay: results written to .*\n$/,
      );
      expect(result.status).toBe(0);
      expect(
        readResultsFile(findOne(path.join(out, 'dummy'), /^results_/)).results.helper_task,
      ).toBeDefined();
    } finally {
      // The helper writes its pid once its interpreter is up, which may be after assay is done.
      for (let waited = 0; !existsSync(pidFile) && waited < 10_000; waited += 100) await sleep(100);
      const pid = existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8')) : 0;
      if (pid > 0) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
    }
  }, 60_000);

  /** A task whose doc_to_text module runs `source` at import: the CLI's result and where the tag is. */
  const importing = (name: string, source: string) => {
    const dir = tempDir(`assay-python-${name}-`);
    writeFileSync(
      path.join(dir, `${name}_utils.py`),
      `${source}\n\ndef doc_to_text(doc):\n    return doc["q"]\n`,
    );
    writeFileSync(path.join(dir, 'docs.jsonl'), `${JSON.stringify({ q: 'one', a: 'x' })}\n`);
    const lines = taskYaml(`${name}_task`, [`doc_to_text: !function ${name}_utils.doc_to_text`]).split('\n');
    writeFileSync(path.join(dir, `${name}.yaml`), lines.join('\n'));
    const tag = lines.findIndex((text) => text.startsWith('doc_to_text:'));
    const where = `${path.join(dir, `${name}.yaml`)}:${tag + 1}:${lines[tag].indexOf(`${name}_utils`) + 1}`;
    return {
      result: runCli(runArgs(`${name}_task`, dir)),
      where,
      module: path.join(dir, `${name}_utils.py`),
    };
  };

  it('os._exit(0) at module import: one line naming the task, the module, its file and line (exit 2)', () => {
    const { result, where } = importing('exit', 'import os\nos._exit(0)');
    expect(result.status).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual([
      `assay: error: ${where}: task exit_task: doc_to_text: !function exit_utils.doc_to_text: importing exit_utils.py failed: ProcessExit: task code called os._exit(0), which would end assay's Python worker at exit_utils.py:2 in <module>: os._exit(0)`,
    ]);
  });

  it('a module that kills its interpreter at import: the task, the module and its path (no internal error)', () => {
    const { result, where, module } = importing(
      'kill',
      'import os, signal\nos.kill(os.getpid(), signal.SIGKILL)',
    );
    expect(result.status).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([
      `assay: error: ${where}: task kill_task: doc_to_text: !function kill_utils.doc_to_text: the Python worker exited (signal SIGKILL) while importing kill_utils.py (${module})`,
    ]);
  });
});

describe.skipIf(!hasPython)('the content hash of a task whose utils.py imports helper modules', () => {
  const HELPER = 'PREFIX = "Question: "\n';

  function writeHelped(): string {
    const dir = tempDir('assay-python-helped-');
    writeFileSync(
      path.join(dir, 'utils.py'),
      'import os, sys\nsys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))\nimport assay_h1_helper\n\ndef doc_to_text(doc):\n    return assay_h1_helper.PREFIX + doc["q"]\n',
    );
    writeFileSync(path.join(dir, 'assay_h1_helper.py'), HELPER);
    writeFileSync(
      path.join(dir, 'docs.jsonl'),
      `${DOCS.slice(0, 3)
        .map((doc) => JSON.stringify(doc))
        .join('\n')}\n`,
    );
    writeFileSync(
      path.join(dir, 'helped.yaml'),
      taskYaml('helped', ['doc_to_text: !function utils.doc_to_text']),
    );
    // Old files: their digests are kept (util/file-digest.ts), as for a task folder not edited just now.
    const old = new Date(Date.now() - 60_000);
    for (const name of ['utils.py', 'assay_h1_helper.py', 'docs.jsonl', 'helped.yaml'])
      utimesSync(path.join(dir, name), old, old);
    return dir;
  }

  /** The real CLI for the first run; the CLI's main() in this process (test/cli-in-process.ts) after it. */
  const runHelped = async (dir: string, extra: string[] = [], inProcess = true) => {
    const out = tempDir('assay-python-helped-out-');
    const args = runArgs('helped', dir, '--output_path', out, '--log_samples', ...extra);
    const result = inProcess ? await runCliInProcess(args) : runCli(args);
    return { result, out };
  };
  const manifestOf = (out: string) =>
    (readResultsFile(findOne(path.join(out, 'dummy'), /^results_/)).manifest as Manifest).tasks.helped;
  const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

  it('covers the helper: editing it changes sha256 and prompt_template_sha256, and a pin refuses the run', async () => {
    const dir = writeHelped();
    const first = await runHelped(dir, [], false);
    expect(first.result.status).toBe(0);
    const before = manifestOf(first.out);
    expect(before.python_modules).toEqual([
      { path: 'assay_h1_helper.py', sha256: sha(path.join(dir, 'assay_h1_helper.py')) },
      { path: 'utils.py', sha256: sha(path.join(dir, 'utils.py')) },
    ]);

    // The helper changes every prompt; the task file and utils.py do not change.
    writeFileSync(path.join(dir, 'assay_h1_helper.py'), 'PREFIX = "Q: "\n');
    const later = new Date(Date.now() - 30_000);
    utimesSync(path.join(dir, 'assay_h1_helper.py'), later, later);
    const second = await runHelped(dir);
    expect(second.result.status).toBe(0);
    const after = manifestOf(second.out);
    const prompts = (out: string) =>
      readSamples(findOne(path.join(out, 'dummy'), /^samples_helped_\d/)).map(promptOf);
    expect(prompts(first.out)[0]).toBe('Question: question 0');
    expect(prompts(second.out)[0]).toBe('Q: question 0');
    expect(after.config_sha256).toBe(before.config_sha256);
    expect(after.sha256).not.toBe(before.sha256);
    expect(after.prompt_template_sha256).not.toBe(before.prompt_template_sha256);

    const pinned = await runHelped(dir, ['--expect_sha256', `helped=${before.sha256}`]);
    expect(pinned.result.status).toBe(2);
    expect(pinned.result.stderr).toContain(
      `task helped is not the pinned content: sha256 ${after.sha256}, expected ${before.sha256} (--expect_sha256); it covers its config (sha256 ${after.config_sha256}), 1 Python module its code imports: assay_h1_helper.py (sha256 ${sha(path.join(dir, 'assay_h1_helper.py'))}) and 1 data file`,
    );
  });
});

describe.skipIf(!hasPython)('a lone surrogate in the data', () => {
  it('gives the same prompt through a Python doc_to_text, a Python process_docs and a template', async () => {
    const dir = tempDir('assay-python-surrogate-');
    // JSON's escape for a lone surrogate: valid JSON, and a string no UTF-8 can carry raw.
    writeFileSync(path.join(dir, 'docs.jsonl'), '{"q": "Wh\\ud800at", "a": "x"}\n');
    writeFileSync(
      path.join(dir, 'sur_utils.py'),
      'def doc_to_text(doc):\n    return "Q: " + doc["q"]\n\ndef process_docs(dataset):\n    return dataset.map(lambda doc: {"q2": doc["q"]})\n',
    );
    writeFileSync(
      path.join(dir, 'sur_py.yaml'),
      taskYaml('sur_py', ['doc_to_text: !function sur_utils.doc_to_text']),
    );
    writeFileSync(
      path.join(dir, 'sur_docs.yaml'),
      taskYaml('sur_docs', ['process_docs: !function sur_utils.process_docs', 'doc_to_text: "Q: {{q2}}"']),
    );
    writeFileSync(path.join(dir, 'sur_tpl.yaml'), taskYaml('sur_tpl', ['doc_to_text: "Q: {{q}}"']));
    const out = tempDir('assay-python-surrogate-out-');
    // The CLI's main() in this process: the data's path, not the process, is under test.
    const result = await runCliInProcess(
      runArgs('sur_py,sur_docs,sur_tpl', dir, '--output_path', out, '--log_samples'),
    );
    expect(result.status).toBe(0);
    const line = (task: string) =>
      readSamples(findOne(path.join(out, 'dummy'), new RegExp(`^samples_${task}_\\d`)))[0];
    for (const task of ['sur_py', 'sur_docs', 'sur_tpl']) {
      expect(promptOf(line(task))).toBe('Q: Wh\ud800at');
      expect((line(task).doc as { q: string }).q).toBe('Wh\ud800at');
    }
    expect(line('sur_py').doc_hash).toBe(line('sur_tpl').doc_hash);
  });
});
