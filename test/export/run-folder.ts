/**
 * A run folder as `assay run --output_path OUT --log_samples` writes it (OUT/<model>/results_<time>.json,
 * samples_<task>_<time>.jsonl, leaderboard_<time>.json), with values written here by hand: the
 * exports are checked against these numbers, not against anything assay computed.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const STAMP = '2024-05-01T12-00-00.123456';

export interface RunFolder {
  outputPath: string;
  folder: string;
  resultsFile: string;
  sampleFiles: Record<string, string>;
  leaderboardFile: string;
  results: Record<string, unknown>;
}

export function results(model: string, sanitized: string): Record<string, unknown> {
  return {
    results: {
      arc_easy: {
        alias: 'arc_easy',
        'acc,none': 0.75,
        'acc_stderr,none': 0.0125,
        'acc_ci,none': [0.72, 0.78],
        'acc_norm,none': 0.7,
        'acc_norm_stderr,none': 0.013,
      },
      gsm8k: {
        alias: 'gsm8k',
        'exact_match,strict-match': 0.25,
        'exact_match_stderr,strict-match': 0.02,
        'exact_match,flexible-extract': 0.3,
        'exact_match_stderr,flexible-extract': 'N/A',
      },
    },
    group_subtasks: { arc_easy: [], gsm8k: [] },
    configs: {
      arc_easy: { task: 'arc_easy', output_type: 'multiple_choice', metric_list: [{ metric: 'acc' }] },
      gsm8k: { task: 'gsm8k', output_type: 'generate_until', metric_list: [{ metric: 'exact_match' }] },
    },
    versions: { arc_easy: 1, gsm8k: 3 },
    'n-shot': { arc_easy: 0, gsm8k: 5 },
    higher_is_better: { arc_easy: { acc: true, acc_norm: true }, gsm8k: { exact_match: true } },
    'n-samples': { arc_easy: { original: 4, effective: 4 }, gsm8k: { original: 2, effective: 2 } },
    config: {
      model: 'gguf',
      model_args: { model: 'models/tiny.gguf', n_ctx: 512 },
      batch_size: '1',
      limit: null,
      bootstrap_iters: 1000,
      random_seed: 0,
      numpy_seed: 1234,
      torch_seed: 1234,
      fewshot_seed: 1234,
    },
    date: 1714564800.5,
    task_hashes: { arc_easy: 'a'.repeat(64), gsm8k: 'b'.repeat(64) },
    model_source: 'gguf',
    model_name: model,
    model_name_sanitized: sanitized,
    assay_version: '0.1.0',
    manifest: { tasks: { arc_easy: { sha256: 'c'.repeat(64) }, gsm8k: { sha256: 'd'.repeat(64) } } },
  };
}

function sampleLine(task: string, docId: number, filter: string, value: number): string {
  return `${JSON.stringify({
    doc_id: docId,
    doc: { question: `${task} question ${docId}` },
    target: 'A',
    arguments: { gen_args_0: { arg_0: `${task} question ${docId}`, arg_1: ' A' } },
    resps: [[['-1.5', 'False']]],
    filtered_resps: [['-1.5', 'False']],
    filter,
    metrics: [task === 'gsm8k' ? 'exact_match' : 'acc'],
    doc_hash: `${task}-${docId}`,
    prompt_hash: 'p',
    target_hash: 't',
    [task === 'gsm8k' ? 'exact_match' : 'acc']: value,
  })}\n`;
}

export function writeRunFolder(
  root: string,
  options: {
    model?: string;
    sanitized?: string;
    samples?: boolean;
    sampleBytes?: number;
    stamp?: string;
  } = {},
): RunFolder {
  const model = options.model ?? 'EleutherAI/pythia-70m';
  const sanitized = options.sanitized ?? 'EleutherAI__pythia-70m';
  const outputPath = path.join(root, 'out');
  const stamp = options.stamp ?? STAMP;
  const folder = path.join(outputPath, sanitized);
  mkdirSync(folder, { recursive: true });
  const content = results(model, sanitized);
  const resultsFile = path.join(folder, `results_${stamp}.json`);
  writeFileSync(resultsFile, `${JSON.stringify(content, null, 2)}\n`);
  const sampleFiles: Record<string, string> = {};
  if (options.samples !== false) {
    for (const task of ['arc_easy', 'gsm8k']) {
      let text = '';
      for (let doc = 0; doc < 4; doc++)
        text += sampleLine(task, doc, task === 'gsm8k' ? 'strict-match' : 'none', doc % 2);
      // Padding lines (a real log of a big task) to push a file over the Hub's LFS threshold.
      while (options.sampleBytes && text.length < options.sampleBytes)
        text += sampleLine(task, 99, 'none', 0);
      sampleFiles[task] = path.join(folder, `samples_${task}_${stamp}.jsonl`);
      writeFileSync(sampleFiles[task], text);
    }
  }
  const leaderboardFile = path.join(folder, `leaderboard_${stamp}.json`);
  writeFileSync(leaderboardFile, `${JSON.stringify({ schema: 'assay.leaderboard/v1', model, tasks: {} })}\n`);
  return { outputPath, folder, resultsFile, sampleFiles, leaderboardFile, results: content };
}
