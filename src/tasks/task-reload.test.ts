import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/helpers.js';
import { simpleEvaluate } from '../index.js';
import { DummyBackend } from '../models/dummy/dummy-backend.js';
import { resolveTasks } from './manager.js';
import { leafTasks } from './task.js';

const folder = tempDir('assay-task-reload-');
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function writeTask(file: string, text: string): void {
  writeFileSync(
    file,
    [
      'task: reload_me',
      'dataset_path: json',
      'dataset_kwargs:',
      '  data_files:',
      '    test: data.jsonl',
      'test_split: test',
      'output_type: generate_until',
      `doc_to_text: "${text}"`,
      'doc_to_target: "{{a}}"',
      'generation_kwargs:',
      '  until: ["\\n"]',
      'metric_list:',
      '  - metric: exact_match',
      '',
    ].join('\n'),
  );
}

describe('a task file edited between two resolutions in one process', () => {
  it('is read as it is now, not from the first parse', async () => {
    writeFileSync(path.join(folder, 'data.jsonl'), '{"q": "2+2=", "a": "4"}\n');
    const file = path.join(folder, 'reload_me.yaml');
    writeTask(file, 'first {{q}}');
    const first = (await resolveTasks([file])).flatMap(leafTasks)[0];
    expect(first.config.doc_to_text).toBe('first {{q}}');
    // Same size, same folder, within the same second: nothing but the content differs.
    writeTask(file, 'other {{q}}');
    const second = (await resolveTasks([file])).flatMap(leafTasks)[0];
    expect(second.config.doc_to_text).toBe('other {{q}}');
  });

  it('two library evaluations in one process use the edited prompt', async () => {
    const file = path.join(folder, 'reload_me.yaml');
    writeTask(file, 'Q1 {{q}}');
    const before = await simpleEvaluate({ model: new DummyBackend(), tasks: [file] });
    writeTask(file, 'Q2 {{q}}');
    const after = await simpleEvaluate({ model: new DummyBackend(), tasks: [file] });
    expect(before.results.configs.reload_me.doc_to_text).toBe('Q1 {{q}}');
    expect(after.results.configs.reload_me.doc_to_text).toBe('Q2 {{q}}');
  });
});
