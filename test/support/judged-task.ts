/**
 * A generate_until task over `data.jsonl` beside it (question, answer), scored by `llm_judge` with the given
 * judge block lines, written as lm-eval YAML: the task the judge tests share.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';

export interface JudgedTaskOptions {
  /** Default `"{{question}}"`. */
  docToText?: string;
  /** `generation_kwargs` as a YAML flow mapping; default `{until: ["\n"], max_gen_toks: 4}`; null: none. */
  generationKwargs?: string | null;
  /** Lines of the metric entry between `- metric: llm_judge` and `judge:` (aggregation, higher_is_better). */
  metricLines?: string[];
}

/** Writes `<folder>/<name>.yaml` and returns its path. `judge` lines are indented under `judge:`. */
export function writeJudgedTask(
  folder: string,
  name: string,
  judge: string[],
  options: JudgedTaskOptions = {},
): string {
  const generation =
    options.generationKwargs === undefined ? '{until: ["\\n"], max_gen_toks: 4}' : options.generationKwargs;
  const file = path.join(folder, `${name}.yaml`);
  writeFileSync(
    file,
    [
      `task: ${name}`,
      'dataset_path: json',
      'dataset_kwargs:',
      '  data_files:',
      '    test: data.jsonl',
      'test_split: test',
      'output_type: generate_until',
      `doc_to_text: ${JSON.stringify(options.docToText ?? '{{question}}')}`,
      'doc_to_target: answer',
      ...(generation === null ? [] : [`generation_kwargs: ${generation}`]),
      'metric_list:',
      '  - metric: llm_judge',
      ...(options.metricLines ?? []).map((line) => `    ${line}`),
      '    judge:',
      ...judge.map((line) => `      ${line}`),
    ].join('\n'),
  );
  return file;
}
