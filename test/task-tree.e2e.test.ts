import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bin, runCli } from './support/cli.js';
import { runCliInProcess } from './support/cli-in-process.js';
import { tempDir } from './support/helpers.js';
import { requireComponent } from './support/require-component.js';

const hasPython = requireComponent('python3', spawnSync('python3', ['-c', '0']).status === 0);

function tree(): string {
  const dir = tempDir();
  const write = (name: string, text: string) => {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  };
  const data = 'dataset_path: json\ndataset_kwargs:\n  data_files:\n    test: data.jsonl\ntest_split: test\n';
  write('data.jsonl', '{"q": "a", "a": "b"}\n');
  write('ok.yaml', `task: ok\n${data}doc_to_text: q\ndoc_to_target: a\n`);
  write('utils.py', 'def process_docs(docs):\n    return docs\n');
  write(
    'py.yaml',
    `task: py\n${data}process_docs: !function utils.process_docs\ndoc_to_text: q\ndoc_to_target: a\n`,
  );
  write('badmetric.yaml', `task: badmetric\n${data}doc_to_text: q\nmetric_list:\n  - metric: acc_nrm\n`);
  write('grp.yaml', 'group: grp\ntask: [ok, py]\n');
  return dir;
}

describe('assay validate --no_data over a task tree', () => {
  it('reports each failure with file:line and the reason, a count per kind, and exits 1', () => {
    const dir = tree();
    // No interpreter: entries whose only problem is Python are counted apart (see validate.test.ts for
    // Python functions checked through the bridge).
    const python = path.join(dir, 'no-python');
    const result = runCli(['validate', '--no_data', '--include_path', dir, '--python', python]);
    expect(result.status).toBe(1);
    const needsInterpreter = `process_docs: !function utils.process_docs is Python (utils.py) and needs a Python interpreter (--python ${python}: no executable file there); install Python 3, or pass --python PATH (or set ASSAY_PYTHON)`;
    expect(result.stdout.split('\n')).toEqual([
      `FAIL task badmetric: ${path.join(dir, 'badmetric.yaml')}:9:5: unknown metric "acc_nrm" (lm-eval would try Hugging Face evaluate.load("acc_nrm"), which needs Python) (did you mean acc_norm, acc?); valid metrics: acc, acc_norm, acc_bytes, acc_mutual_info, likelihood, brier_score, perplexity, word_perplexity, byte_perplexity, bits_per_byte, token_perplexity, exact_match, f1, mcc, squad_f1, bleu, chrf, ter, rouge1, rouge2, rougeL, rouge_l, substring_contains, jsonl_exact_match, multiple_choice, llm_judge, bypass (task badmetric, field metric_list)`,
      `FAIL task py: ${path.join(dir, 'py.yaml')}:7:25: ${needsInterpreter}`,
      `FAIL group grp: ${path.join(dir, 'py.yaml')}:7:25: ${needsInterpreter}`,
      'tasks: 3, ok 1 (33.3%), need Python only 1, failed 1',
      'groups: 1, ok 0 (0.0%), need Python only 1, failed 0',
      '3 of 4 entries failed',
      '',
    ]);
  });

  // The CLI's main() in this process (test/cli-in-process.ts): validate's real CLI run is the test above.
  it('refuses a bad --format with exit 2 before loading anything', async () => {
    const result = await runCliInProcess([
      'validate',
      '--no_data',
      '--include_path',
      tree(),
      '--format',
      'yaml',
    ]);
    expect(result.status).toBe(2);
    expect(result.stderr).toBe('assay: error: --format must be text or json, got "yaml"\n');
  });
});

describe.skipIf(!hasPython)('lm-eval habits', () => {
  it('--tasks list_subtasks with --include_path lm_eval lists the installed lm_eval package’s tasks', () => {
    const site = tempDir('assay-site-');
    mkdirSync(path.join(site, 'lm_eval', 'tasks', 'fam'), { recursive: true });
    writeFileSync(path.join(site, 'lm_eval', '__init__.py'), '');
    writeFileSync(
      path.join(site, 'lm_eval', 'tasks', 'fam', 'fake.yaml'),
      'task: fake_lm_eval_task\noutput_type: multiple_choice\n',
    );
    writeFileSync(path.join(site, 'lm_eval', 'tasks', 'fam', 'plain.yaml'), 'task: fake_plain\n');
    // Enough settled files for the folder's scan to be cached (50, changed over two seconds ago).
    const more = path.join(site, 'lm_eval', 'tasks', 'more');
    mkdirSync(more);
    for (let i = 0; i < 50; i++) writeFileSync(path.join(more, `m${i}.yaml`), `task: more_${i}\n`);
    const past = new Date(Date.now() - 60_000);
    for (const file of [...readdirSync(more).map((name) => path.join(more, name)), more])
      utimesSync(file, past, past);
    for (const folder of ['fam', '.']) utimesSync(path.join(site, 'lm_eval', 'tasks', folder), past, past);
    for (const name of ['fake.yaml', 'plain.yaml'])
      utimesSync(path.join(site, 'lm_eval', 'tasks', 'fam', name), past, past);
    const cache = tempDir('assay-cache-');
    const result = runCli(['run', '--tasks', 'list_subtasks', '--include_path', 'lm_eval'], {
      cwd: tempDir('assay-cwd-'),
      env: { PYTHONPATH: site, ASSAY_CACHE_DIR: cache },
    });
    expect(result.status).toBe(0);
    // The tree's scan is kept, the listing not: which tree `lm_eval` names depends on the Python asked.
    const kept = readdirSync(path.join(cache, 'task-index'));
    expect(kept.filter((name) => name.startsWith('listing-'))).toEqual([]);
    expect(kept.filter((name) => /^[0-9a-f]{24}\.json$/.test(name)).length).toBe(2);
    const rows = result.stdout.split('\n').filter((line) => line.includes('fake_'));
    // lm-eval's list_all_tasks: its own tasks located as lm_eval/tasks/…, output type as the YAML sets it.
    expect(rows.map((row) => row.split('|').map((cell) => cell.trim()))).toEqual([
      ['', 'fake_lm_eval_task', 'lm_eval/tasks/fam/fake.yaml', 'multiple_choice', ''],
      ['', 'fake_plain', 'lm_eval/tasks/fam/plain.yaml', '', ''],
    ]);
    expect(result.stdout.startsWith('\n|')).toBe(true);
    expect(result.stdout).toMatch(/^\|\s+Task\s+\|\s+Config Location\s+\|\s+Output Type\s+\|$/m);
    expect(result.stdout).not.toMatch(/^\|\s+Group\s+\|/m);
  });
});

describe('assay ls tasks with stdout and stderr on one pipe', () => {
  it('writes its warnings before the table, not inside it, fresh and replayed', () => {
    const dir = tempDir();
    // A listing well over a pipe's 64 KiB, and a warning (a name defined twice).
    const long = 'x'.repeat(80);
    for (let i = 0; i < 800; i++) writeFileSync(path.join(dir, `t${i}.yaml`), `task: t${i}_${long}\n`);
    writeFileSync(path.join(dir, 'zz_again.yaml'), `task: t0_${long}\n`);
    const cache = tempDir();
    const run = () =>
      spawnSync('sh', ['-c', `"${process.execPath}" "${bin}" ls tasks --include_path "${dir}" 2>&1`], {
        encoding: 'utf8',
        env: { ...process.env, ASSAY_CACHE_DIR: cache },
      });
    for (const result of [run(), run()]) {
      expect(result.status).toBe(0);
      const lines = result.stdout.split('\n');
      const warnings = lines.filter((line) => line.startsWith('assay: warning:'));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain(`duplicate task name "t0_${long}"`);
      expect(lines[0]).toBe(warnings[0]);
      expect(lines[1]).toMatch(/^\|Task +\|Config Location +\|Output Type +\|$/);
      expect(lines.filter((line) => line.startsWith(`|t`) && line.includes(long))).toHaveLength(800);
    }
  });
});
