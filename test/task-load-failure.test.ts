/**
 * A task whose file fails to load (an `include:` that does not exist), asked for by name through the
 * real CLI: one error that names the task, its file and why it failed (exit 2), not "unknown task".
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { runCliInProcess } from './support/cli-in-process.js';
import { tempDir } from './support/helpers.js';

it('names the file that defines the task and why it failed to load (exit 2)', async () => {
  const dir = tempDir();
  const file = path.join(dir, 'mine.yaml');
  writeFileSync(
    file,
    'task: mine\ninclude: _missing_base.yaml\ndataset_path: json\ndataset_kwargs:\n  data_files:\n    test: rows.jsonl\ntest_split: test\ndoc_to_text: q\ndoc_to_target: a\n',
  );
  const run = await runCliInProcess(['run', '--model', 'dummy', '--tasks', 'mine', '--include_path', dir]);
  expect(run.status).toBe(2);
  expect(run.stderr).toContain(
    `assay: error: ${file}:2:1: task "mine" is defined in ${file}, which failed to load: include _missing_base.yaml: cannot read ${path.join(dir, '_missing_base.yaml')}: file not found\n`,
  );
  expect(run.stderr).not.toContain('unknown task');
});
