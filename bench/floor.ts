/**
 * Issue 33's figures, the harness's own overhead:
 * - the MMLU-sized 5-shot run (bench/floor-task.ts: 57 subjects, 14,042 docs, 56,168 log-likelihood
 *   requests) with the dummy model, as a whole `assay run` process without outputs and with
 *   `--output_path --log_samples`, against lm-eval's own run of the same folder with an instant model
 *   (LM_EVAL_SRC=<checkout>, LM_EVAL_PYTHON; the harness and its stand-ins are bench/python.ts's), the
 *   runs of both interleaved;
 * - peak RSS of a one-task multiple-choice run with `--log_samples` at 20,000 and 200,000 docs (and
 *   1,000,000 with ASSAY_BENCH_FLOOR_1M=1), beside the size of the data it reads.
 * ASSAY_BENCH_FLOOR_RUNS sets the runs of each side (default 5).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { appendFile, mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FLOOR_DOCS, FLOOR_GROUP, writeFloorTask } from './floor-task.js';
import { median } from './median.js';
import { LM_EVAL_HARNESS } from './python.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = path.join(root, 'bin', 'assay.js');

interface Measured {
  ms: number;
  rssMb: number;
}

const GNU_TIME = '/usr/bin/time';

/** Wall time of a child and its peak RSS (GNU time's `%M`, in KB; NaN without /usr/bin/time). */
function run(command: string, args: string[], cwd: string): Measured {
  const timed = existsSync(GNU_TIME);
  const start = performance.now();
  const result = timed
    ? spawnSync(GNU_TIME, ['-f', '%M', command, ...args], {
        cwd,
        encoding: 'utf8',
        stdio: ['ignore', 'ignore', 'pipe'],
      })
    : spawnSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = performance.now() - start;
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed: ${result.stderr}`);
  const lines = result.stderr.trim().split('\n');
  return { ms, rssMb: timed ? Number(lines[lines.length - 1]) / 1024 : Number.NaN };
}

async function mcTask(folder: string, docs: number): Promise<number> {
  await mkdir(folder, { recursive: true });
  const data = path.join(folder, 'test.jsonl');
  const lines: string[] = [];
  const chunk = 50_000;
  await writeFile(data, '');
  for (let start = 0; start < docs; start += chunk) {
    lines.length = 0;
    for (let i = start; i < Math.min(docs, start + chunk); i++) {
      lines.push(
        JSON.stringify({
          question: `Synthetic question ${i}: which option best completes the statement about topic ${i % 57}?`,
          choices: [`first option ${i}`, `second option ${i}`, `third option ${i}`, `fourth option ${i}`],
          answer: i % 4,
        }),
      );
    }
    await appendFile(data, `${lines.join('\n')}\n`);
  }
  await writeFile(
    path.join(folder, `mc_${docs}.yaml`),
    [
      `task: mc_${docs}`,
      'dataset_path: json',
      'dataset_kwargs:',
      '  data_files:',
      '    test: test.jsonl',
      'test_split: test',
      'output_type: multiple_choice',
      'doc_to_text: "{{question}}\\nAnswer:"',
      'doc_to_choice: "{{choices}}"',
      'doc_to_target: answer',
      'metric_list:',
      '  - metric: acc',
      '',
    ].join('\n'),
  );
  return (await stat(data)).size;
}

export async function runFloorBench(report: (line: string) => void): Promise<void> {
  const runs = Number(process.env.ASSAY_BENCH_FLOOR_RUNS ?? 5);
  const work = await mkdtemp(path.join(os.tmpdir(), 'assay-bench-floor-'));
  try {
    const folder = path.join(work, 'mmlu');
    await writeFloorTask(folder);
    const assayArgs = [bin, 'run', '--model', 'dummy', '--tasks', FLOOR_GROUP, '--include_path', folder];
    const source = process.env.LM_EVAL_SRC;
    const stubs = path.join(work, 'stubs');
    if (source) {
      // lm_eval/__init__ reads its version from installed metadata; the checkout has none.
      await mkdir(path.join(stubs, 'lm_eval-0.0.0.dist-info'), { recursive: true });
      await writeFile(
        path.join(stubs, 'lm_eval-0.0.0.dist-info', 'METADATA'),
        'Metadata-Version: 2.1\nName: lm_eval\nVersion: 0.0.0\n',
      );
      await writeFile(path.join(stubs, 'harness.py'), LM_EVAL_HARNESS);
    }
    const plain: Measured[] = [];
    const written: Measured[] = [];
    const lmEval: Array<Measured & { index: number; evaluate: number }> = [];
    for (let i = 0; i < runs; i++) {
      plain.push(run(process.execPath, [...assayArgs, '--num_fewshot', '5'], work));
      written.push(
        run(
          process.execPath,
          [...assayArgs, '--num_fewshot', '5', '--output_path', path.join(work, `out-${i}`), '--log_samples'],
          work,
        ),
      );
      await rm(path.join(work, `out-${i}`), { recursive: true, force: true });
      if (source) {
        const start = performance.now();
        const output = execFileSync(
          process.env.LM_EVAL_PYTHON ?? 'python3',
          [path.join(stubs, 'harness.py'), stubs, source, folder, FLOOR_GROUP, '5', '100000'],
          { cwd: work, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 1 << 26 },
        );
        const ms = performance.now() - start;
        const timings = JSON.parse(output.trim().split('\n').pop() ?? '{}') as {
          index: number;
          evaluate: number;
        };
        lmEval.push({
          ms,
          rssMb: Number.NaN,
          index: timings.index * 1000,
          evaluate: timings.evaluate * 1000,
        });
      }
    }
    const plainMs = median(plain.map((m) => m.ms));
    const writtenMs = median(written.map((m) => m.ms));
    report(
      `MMLU-sized 5-shot run (${FLOOR_DOCS} docs, 57 subjects, ${FLOOR_DOCS * 4} requests, dummy model), median of ${runs}: assay ${(plainMs / 1000).toFixed(2)} s, peak RSS ${median(plain.map((m) => m.rssMb)).toFixed(0)} MB; with --output_path --log_samples ${(writtenMs / 1000).toFixed(2)} s, peak RSS ${median(written.map((m) => m.rssMb)).toFixed(0)} MB`,
    );
    if (source) {
      const lmMs = median(lmEval.map((m) => m.ms));
      report(
        `  lm-eval's own run of the same folder (instant model, num_fewshot 5), median of ${runs}, interleaved: ${(lmMs / 1000).toFixed(2)} s (task index ${(median(lmEval.map((m) => m.index)) / 1000).toFixed(2)} s, simple_evaluate ${(median(lmEval.map((m) => m.evaluate)) / 1000).toFixed(2)} s): assay ${(lmMs / plainMs).toFixed(1)}× faster (target ≥ 50×), ${(lmMs / writtenMs).toFixed(1)}× with its outputs written`,
      );
    } else report('  lm-eval comparison skipped (set LM_EVAL_SRC to a checkout of lm-evaluation-harness)');

    // Peak RSS against the number of docs: one multiple-choice task, every sample logged.
    const sizes = [20_000, 200_000, ...(process.env.ASSAY_BENCH_FLOOR_1M ? [1_000_000] : [])];
    const rss: Array<{ docs: number; rssMb: number; ms: number; dataMb: number }> = [];
    for (const docs of sizes) {
      const taskFolder = path.join(work, `mc-${docs}`);
      const dataMb = (await mcTask(taskFolder, docs)) / 2 ** 20;
      // Median of 3: one process's peak RSS moves by about 5% from run to run, and the 20,000-doc run is
      // the ratio's denominator.
      const measured = Array.from({ length: 3 }, (_, repeat) =>
        run(
          process.execPath,
          [
            bin,
            'run',
            '--model',
            'dummy',
            '--tasks',
            `mc_${docs}`,
            '--include_path',
            taskFolder,
            '--output_path',
            path.join(taskFolder, `out-${repeat}`),
            '--log_samples',
          ],
          work,
        ),
      );
      rss.push({
        docs,
        dataMb,
        rssMb: median(measured.map((m) => m.rssMb)),
        ms: median(measured.map((m) => m.ms)),
      });
      await rm(taskFolder, { recursive: true, force: true });
    }
    const base = rss[0];
    report(
      `peak RSS, one multiple-choice task with --log_samples, median of 3 (target < 500 MB at 200,000 docs, < 2× from 20,000 to 200,000): ${rss
        .map(
          (r) =>
            `${r.docs.toLocaleString('en-US')} docs ${r.rssMb.toFixed(0)} MB (data ${r.dataMb.toFixed(1)} MB, ${(r.ms / 1000).toFixed(1)} s, ${(r.rssMb / base.rssMb).toFixed(2)}× the 20,000-doc run)`,
        )
        .join('; ')}`,
    );
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
