/**
 * A multiple-choice task in lm-eval's YAML over local JSON lines, for tests that need one with docs of
 * their own: `{{question}}\nAnswer:` as the prompt, the doc's `choices`, `answer` the gold index.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface ChoiceDoc {
  question: string;
  choices: string[];
  answer: number;
}

export interface ChoiceTaskOptions {
  /** Few-shot docs: a `train` split, its `num_fewshot` taken from the task. */
  train?: ChoiceDoc[];
  numFewshot?: number;
  /** The data files named by their absolute paths (for a YAML read from another folder), not relative. */
  absolutePaths?: boolean;
}

const jsonl = (docs: ChoiceDoc[]) => `${docs.map((doc) => JSON.stringify(doc)).join('\n')}\n`;

/** Writes DIR/data/test.jsonl (and train.jsonl) and DIR/<task>.yaml; returns the YAML's path. */
export function writeChoiceTask(
  dir: string,
  task: string,
  docs: ChoiceDoc[],
  options: ChoiceTaskOptions = {},
) {
  mkdirSync(path.join(dir, 'data'), { recursive: true });
  const dataPath = (split: string) =>
    options.absolutePaths ? path.join(dir, 'data', `${split}.jsonl`) : `data/${split}.jsonl`;
  writeFileSync(path.join(dir, 'data', 'test.jsonl'), jsonl(docs));
  if (options.train) writeFileSync(path.join(dir, 'data', 'train.jsonl'), jsonl(options.train));
  const file = path.join(dir, `${task}.yaml`);
  writeFileSync(
    file,
    [
      `task: ${task}`,
      'dataset_path: json',
      'dataset_kwargs:',
      '  data_files:',
      `    test: ${dataPath('test')}`,
      ...(options.train ? [`    train: ${dataPath('train')}`] : []),
      'test_split: test',
      ...(options.train ? ['fewshot_split: train'] : []),
      ...(options.numFewshot !== undefined ? [`num_fewshot: ${options.numFewshot}`] : []),
      'output_type: multiple_choice',
      'doc_to_text: "{{question}}\\nAnswer:"',
      'doc_to_choice: "{{choices}}"',
      'doc_to_target: answer',
      '',
    ].join('\n'),
  );
  return file;
}
