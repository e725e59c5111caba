/**
 * The README's include-and-override recipe runs as written: its YAML block, copied byte for byte beside
 * a tree laid out as lm-eval's checkout (`lm-evaluation-harness/lm_eval/tasks/arc/arc_easy.yaml`, lm-eval's
 * file as tasks/arc/ ships it, unchanged), with ARC-shaped local files where its `data_files` say, and the
 * README's command (the dummy model in place of a GGUF). The task must be lm-eval's arc_easy (its prompt,
 * choices, metrics, version and tag) over the local docs, never the Hub's.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { resolveTasks } from '../../src/tasks/manager.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { findOne, readJson, readJsonl, repoRoot, tempDir } from '../support/helpers.js';

const MARK = '<!-- tested by test/docs/readme-recipe.test.ts: this block runs as written -->';
const readme = readFileSync(path.join(repoRoot, 'README.md'), 'utf8');

/** The fenced block after the mark, and the command block after it. */
function recipe(): { yamlText: string; command: string } {
  const match = new RegExp(
    `${MARK.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\n\`\`\`yaml\\n([\\s\\S]*?)\`\`\`\\n\\n\`\`\`\\n([^\\n]*)\\n\`\`\``,
  ).exec(readme);
  if (!match)
    throw new Error('README.md has no tested recipe block (a yaml block after the mark, then a command)');
  return { yamlText: match[1], command: match[2] };
}

interface ArcDoc {
  id: string;
  question: string;
  choices: { text: string[]; label: string[] };
  answerKey: string;
}

const arc = (id: string, question: string, text: string[], label: string[], answerKey: string): ArcDoc => ({
  id,
  question,
  choices: { text, label },
  answerKey,
});
const splits: Record<string, ArcDoc[]> = {
  train: [arc('t1', 'Which is a liquid?', ['ice', 'water', 'rock', 'wood'], ['A', 'B', 'C', 'D'], 'B')],
  validation: [arc('v1', 'Which is hot?', ['snow', 'the sun'], ['A', 'B'], 'B')],
  test: [
    arc('q1', 'What do plants need to make food?', ['sunlight', 'sand', 'noise'], ['A', 'B', 'C'], 'A'),
    // ARC's numeric labels: the gold index is the label's position, as `choices.label.index(answerKey)`.
    arc(
      'q2',
      'Which planet is closest to the Sun?',
      ['Venus', 'Mercury', 'Mars', 'Earth'],
      ['1', '2', '3', '4'],
      '2',
    ),
    arc(
      'q3',
      'Which tool measures mass?',
      ['ruler', 'thermometer', 'balance', 'clock'],
      ['A', 'B', 'C', 'D'],
      'C',
    ),
  ],
};

describe("the README's include-and-override recipe", () => {
  const { yamlText, command } = recipe();
  const config = yaml.load(yamlText) as {
    include: string;
    task: string;
    dataset_path: string;
    dataset_kwargs: { data_files: Record<string, string> };
  };

  it("is six lines of YAML over lm-eval's own task file", () => {
    expect(yamlText.trimEnd().split('\n')).toHaveLength(6);
    expect(config.include.endsWith('lm-evaluation-harness/lm_eval/tasks/arc/arc_easy.yaml')).toBe(true);
    expect(config.dataset_path).toBe('json');
    expect(Object.keys(config.dataset_kwargs.data_files).sort()).toEqual(['test', 'train', 'validation']);
  });

  it("runs lm-eval's arc_easy on the local files, with the README's command", async () => {
    const root = tempDir('assay-readme-recipe-');
    // The README's command names the folder the YAML sits in.
    const includePath = /--include_path (\S+)/.exec(command)?.[1];
    const taskName = /--tasks (\S+)/.exec(command)?.[1];
    expect(taskName).toBe(config.task);
    const taskDir = path.join(root, includePath ?? 'missing');
    mkdirSync(taskDir, { recursive: true });
    writeFileSync(path.join(taskDir, `${config.task}.yaml`), yamlText);
    const included = path.resolve(taskDir, config.include);
    mkdirSync(path.dirname(included), { recursive: true });
    copyFileSync(path.join(repoRoot, 'tasks', 'arc', 'arc_easy.yaml'), included);
    const hashes: Record<string, string> = {};
    for (const [split, file] of Object.entries(config.dataset_kwargs.data_files)) {
      const text = `${splits[split].map((doc) => JSON.stringify(doc)).join('\n')}\n`;
      mkdirSync(path.dirname(path.join(taskDir, file)), { recursive: true });
      writeFileSync(path.join(taskDir, file), text);
      hashes[split] = createHash('sha256').update(text).digest('hex');
    }

    // Checked before anything runs: a recipe that failed to override dataset_path would reach for the Hub.
    const [node] = await resolveTasks([config.task], { includePath: [taskDir] });
    expect(node.kind === 'task' && node.config.dataset_path).toBe('json');

    const output = path.join(root, 'out');
    const args = command
      .replace(/^assay /, '')
      .replace(/--model \S+ --model_args \S+/, '--model dummy')
      .split(' ')
      .map((arg) => (arg === includePath ? taskDir : arg));
    const result = await runCliInProcess([...args, '--output_path', output, '--log_samples']);
    expect(result.status, result.stderr).toBe(0);

    const results = readJson<{
      results: Record<string, Record<string, unknown>>;
      versions: Record<string, unknown>;
      'n-samples': Record<string, { original: number; effective: number }>;
      configs: Record<string, Record<string, unknown>>;
      manifest: {
        tasks: Record<string, { data_files: Array<{ split: string; path: string; sha256: string }> }>;
      };
    }>(findOne(path.join(output, 'dummy'), /^results_.*\.json$/));
    // lm-eval's arc_easy: its metrics, version, tag and prompt, under the recipe's name and dataset.
    // lm-eval's metric keys (assay adds `_ci` beside them).
    const metricKeys = Object.keys(results.results.arc_easy_local).filter((key) => /^\w+,none$/.test(key));
    expect(metricKeys.filter((key) => !key.endsWith('_ci,none'))).toEqual([
      'acc,none',
      'acc_stderr,none',
      'acc_norm,none',
      'acc_norm_stderr,none',
    ]);
    expect(results.versions.arc_easy_local).toBe(1);
    expect(results.configs.arc_easy_local).toMatchObject({
      task: 'arc_easy_local',
      tag: ['ai2_arc'],
      dataset_path: 'json',
      output_type: 'multiple_choice',
      test_split: 'test',
      doc_to_text: 'Question: {{question}}\nAnswer:',
    });
    expect(results['n-samples'].arc_easy_local).toEqual({ original: 3, effective: 3 });
    // The test split read is the local file written above, by content.
    expect(
      results.manifest.tasks.arc_easy_local.data_files.find((file) => file.split === 'test'),
    ).toMatchObject({ path: config.dataset_kwargs.data_files.test, sha256: hashes.test });

    const samples = readJsonl<{
      doc_id: number;
      doc: ArcDoc;
      target: string;
      arguments: Record<string, { arg_0: string; arg_1: string }>;
    }>(findOne(path.join(output, 'dummy'), /^samples_arc_easy_local_.*\.jsonl$/));
    expect(
      samples.map((sample) => ({
        id: sample.doc.id,
        target: sample.target,
        requests: Object.values(sample.arguments).map((request) => [request.arg_0, request.arg_1]),
      })),
    ).toEqual(
      splits.test.map((doc) => ({
        id: doc.id,
        target: String(doc.choices.label.indexOf(doc.answerKey)),
        requests: doc.choices.text.map((choice) => [`Question: ${doc.question}\nAnswer:`, ` ${choice}`]),
      })),
    );
  });
});
