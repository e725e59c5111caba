/**
 * The MMLU-sized 5-shot task folder of issue 33's figures, written for both harnesses: 57 subject tasks
 * (14,042 test docs in all, 5 dev docs each for the few-shot examples) sharing one template by
 * `include:`, and a group over them with lm-eval's MMLU aggregation (acc, weighted by size). The data
 * files are absolute paths, so lm-eval (which resolves them against the current folder) and assay read
 * the same files.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

export const FLOOR_DOCS = 14042;
export const FLOOR_SUBJECTS = 57;
export const FLOOR_GROUP = 'mmlu_floor';

function doc(subject: number, index: number): string {
  return JSON.stringify({
    question: ` Synthetic question ${index} about subject ${subject}: which option best completes the statement? `,
    choices: [
      `first option ${index}`,
      `second option ${index}`,
      `third option ${index}`,
      `fourth option ${index}`,
    ],
    answer: index % 4,
    subject: `subject_${subject}`,
  });
}

const TEMPLATE = [
  'test_split: test',
  'fewshot_split: dev',
  'fewshot_config:',
  '  sampler: first_n',
  'output_type: multiple_choice',
  'doc_to_text: "{{question.strip()}}\\nA. {{choices[0]}}\\nB. {{choices[1]}}\\nC. {{choices[2]}}\\nD. {{choices[3]}}\\nAnswer:"',
  'doc_to_choice: ["A", "B", "C", "D"]',
  'doc_to_target: answer',
  'metric_list:',
  '  - metric: acc',
  '    aggregation: mean',
  '    higher_is_better: true',
  'metadata:',
  '  version: 1.0',
  '',
].join('\n');

/** Writes the folder; returns the test docs per subject. */
export async function writeFloorTask(folder: string, docs = FLOOR_DOCS): Promise<number[]> {
  const data = path.join(folder, 'data');
  await mkdir(data, { recursive: true });
  await writeFile(path.join(folder, '_floor_template_yaml'), TEMPLATE);
  const counts: number[] = [];
  const names: string[] = [];
  for (let subject = 0; subject < FLOOR_SUBJECTS; subject++) {
    const count = Math.floor(docs / FLOOR_SUBJECTS) + (subject < docs % FLOOR_SUBJECTS ? 1 : 0);
    counts.push(count);
    const name = `${FLOOR_GROUP}_${String(subject).padStart(2, '0')}`;
    names.push(name);
    const test = path.join(data, `${name}_test.jsonl`);
    const dev = path.join(data, `${name}_dev.jsonl`);
    await writeFile(test, `${Array.from({ length: count }, (_, i) => doc(subject, i)).join('\n')}\n`);
    await writeFile(dev, `${Array.from({ length: 5 }, (_, i) => doc(subject, 100000 + i)).join('\n')}\n`);
    await writeFile(
      path.join(folder, `${name}.yaml`),
      [
        `task: ${name}`,
        'include: _floor_template_yaml',
        'dataset_path: json',
        'dataset_kwargs:',
        '  data_files:',
        `    test: ${JSON.stringify(test)}`,
        `    dev: ${JSON.stringify(dev)}`,
        `description: "The following are multiple choice questions (with answers) about subject ${subject}.\\n\\n"`,
        '',
      ].join('\n'),
    );
  }
  await writeFile(
    path.join(folder, `_${FLOOR_GROUP}.yaml`),
    [
      `group: ${FLOOR_GROUP}`,
      'task:',
      ...names.map((name) => `  - ${name}`),
      'aggregate_metric_list:',
      '  - metric: acc',
      '    weight_by_size: true',
      'metadata:',
      '  version: 2',
      '',
    ].join('\n'),
  );
  return counts;
}

if (process.argv[1]?.endsWith('floor-task.ts')) {
  const folder = process.argv[2];
  if (!folder) throw new Error('usage: node --import tsx bench/floor-task.ts <folder> [docs]');
  await writeFloorTask(path.resolve(folder), process.argv[3] ? Number(process.argv[3]) : FLOOR_DOCS);
}
