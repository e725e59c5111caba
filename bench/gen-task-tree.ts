/**
 * Generates a task tree shaped like lm-eval's `lm_eval/tasks`: many subject folders, each task YAML
 * including a folder template that includes shared bases (a 3-deep include chain), with tags, groups
 * per folder and one top-level group. Used to time `assay ls tasks` against the 2 s budget.
 *
 *   npx tsx bench/gen-task-tree.ts <out-dir> [task-count=10000] [--time]
 *
 * With --time it also builds the index in-process and prints the wall time (median of 5 fresh runs
 * needs fresh processes; this prints one cold in-process build and the number of entries).
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

export interface TreeOptions {
  tasks: number;
  /** Tasks per folder; lm-eval's larger families have 50-100. */
  perFolder?: number;
}

export async function generateTaskTree(root: string, options: TreeOptions): Promise<{ files: number }> {
  const perFolder = options.perFolder ?? 100;
  const folders = Math.ceil(options.tasks / perFolder);
  await rm(root, { recursive: true, force: true });
  await mkdir(root, { recursive: true });
  const writes: Promise<void>[] = [];
  writes.push(
    writeFile(
      path.join(root, '_common.yaml'),
      [
        'output_type: multiple_choice',
        'dataset_path: json',
        'dataset_kwargs:',
        '  data_files:',
        '    test: data/test.jsonl',
        '    dev: data/dev.jsonl',
        'test_split: test',
        'fewshot_split: dev',
        'fewshot_config:',
        '  sampler: first_n',
        'doc_to_choice: ["A", "B", "C", "D"]',
        'metric_list:',
        '  - metric: acc',
        '    aggregation: mean',
        '    higher_is_better: true',
        '  - metric: acc_norm',
        '    aggregation: mean',
        '    higher_is_better: true',
        'metadata:',
        '  version: 1.0',
        '',
      ].join('\n'),
    ),
  );
  let files = 1;
  const groupChildren: string[] = [];
  let made = 0;
  for (let folder = 0; folder < folders; folder++) {
    const family = `family_${String(folder).padStart(3, '0')}`;
    const dir = path.join(root, family);
    await mkdir(dir, { recursive: true });
    writes.push(
      writeFile(
        path.join(dir, '_base.yaml'),
        `include: ../_common.yaml\ndoc_to_text: "{{question.strip()}}\\nA. {{choices[0]}}\\nB. {{choices[1]}}\\nAnswer:"\ndoc_to_target: answer\n`,
      ),
      writeFile(
        path.join(dir, '_template.yaml'),
        `include: _base.yaml\ntag: ${family}_tag\ntarget_delimiter: " "\nfewshot_delimiter: "\\n\\n"\n`,
      ),
    );
    files += 2;
    const members: string[] = [];
    for (let index = 0; index < perFolder && made < options.tasks; index++, made++) {
      const name = `${family}_subject_${String(index).padStart(3, '0')}`;
      members.push(name);
      writes.push(
        writeFile(
          path.join(dir, `${name}.yaml`),
          [
            `"dataset_name": "${name}"`,
            `"description": "The following are multiple choice questions (with answers) about ${name.replaceAll('_', ' ')}.\\n\\n"`,
            `"include": "_template.yaml"`,
            `"task": "${name}"`,
            `"task_alias": "${name.replaceAll('_', ' ')}"`,
            '',
          ].join('\n'),
        ),
      );
      files++;
    }
    writes.push(
      writeFile(
        path.join(dir, `_${family}.yaml`),
        [
          `group: ${family}`,
          'task:',
          ...members.map((member) => `  - ${member}`),
          'aggregate_metric_list:',
          '  - metric: acc',
          '    weight_by_size: true',
          'metadata:',
          '  version: 1',
          '',
        ].join('\n'),
      ),
    );
    files++;
    groupChildren.push(family);
  }
  writes.push(
    writeFile(
      path.join(root, '_all.yaml'),
      ['group: all_families', 'task:', ...groupChildren.map((child) => `  - ${child}`), ''].join('\n'),
    ),
  );
  files++;
  await Promise.all(writes);
  return { files };
}

async function main(): Promise<void> {
  const [out, count, ...flags] = process.argv.slice(2);
  if (!out) {
    process.stderr.write('usage: tsx bench/gen-task-tree.ts <out-dir> [task-count=10000] [--time]\n');
    process.exitCode = 2;
    return;
  }
  const tasks = count && /^\d+$/.test(count) ? Number(count) : 10_000;
  const { files } = await generateTaskTree(path.resolve(out), { tasks });
  process.stdout.write(`wrote ${files} YAML files (${tasks} tasks) to ${out}\n`);
  if (flags.includes('--time') || count === '--time') {
    const { listTasks } = await import('../src/tasks/list.js');
    const start = performance.now();
    const rows = await listTasks('tasks', { includePath: [path.resolve(out)], builtinDir: false });
    const elapsed = performance.now() - start;
    process.stdout.write(`indexed ${rows.length} tasks in ${elapsed.toFixed(0)} ms (in-process, cold)\n`);
  }
}

if (process.argv[1] && import.meta.url.endsWith(path.basename(process.argv[1]))) await main();
