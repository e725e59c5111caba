import { createHash } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/helpers.js';
import { taskContentChanges } from './content-changes.js';
import { resolveTasks } from './manager.js';
import { type LoadedTask, uniqueLeaves } from './task.js';
import { clearYamlCache } from './yaml-loader.js';

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

async function load(file: string): Promise<LoadedTask> {
  clearYamlCache();
  const [task] = uniqueLeaves(await resolveTasks([file], { builtinDir: false }));
  return task;
}

describe('taskContentChanges: a task against what a run recorded of it', () => {
  let dir: string;
  let taskFile: string;
  beforeEach(() => {
    dir = tempDir('assay-content-');
    writeFileSync(path.join(dir, 'part-1.jsonl'), '{"q": "a"}\n');
    writeFileSync(path.join(dir, 'part-2.jsonl'), '{"q": "b"}\n');
    writeFileSync(path.join(dir, 'helper.py'), 'X = 1\n');
    taskFile = path.join(dir, 't.yaml');
    writeFileSync(
      taskFile,
      'task: t\ndataset_path: json\ndataset_kwargs:\n  data_files:\n    test: part-*.jsonl\ntest_split: test\noutput_type: generate_until\ndoc_to_text: "{{q}}"\ndoc_to_target: "x"\n',
    );
  });

  /** What a run's manifest records: the hashes of the files as they are now, computed here by hand. */
  const recordedNow = () => ({
    config_sha256: sha256(taskFile),
    data_files: ['part-1.jsonl', 'part-2.jsonl'].map((name) => ({
      split: 'test',
      path: name,
      sha256: sha256(path.join(dir, name)),
    })),
    python_modules: [{ path: 'helper.py', sha256: sha256(path.join(dir, 'helper.py')) }],
  });

  it("agrees with the run's own record: a task whose docs were read lists the same data files", async () => {
    const task = await load(taskFile);
    await task.evalDocs();
    const recorded = recordedNow();
    expect(task.dataFiles?.().map(({ split, path, sha256 }) => ({ split, path, sha256 }))).toEqual(
      recorded.data_files,
    );
    // A task file without includes or imports: its config hash is its file's sha256 over the file's digest.
    expect(task.source.sha256).toBe(
      createHash('sha256')
        .update(Buffer.from(sha256(taskFile), 'hex'))
        .digest('hex'),
    );
  });

  it('finds nothing when nothing changed', async () => {
    const task = await load(taskFile);
    expect(await taskContentChanges(task, { ...recordedNow(), config_sha256: task.source.sha256 })).toEqual(
      [],
    );
  });

  it('names an edited config, a changed, new or removed data file, and a changed or removed module', async () => {
    const task = await load(taskFile);
    const recorded = { ...recordedNow(), config_sha256: task.source.sha256 };
    const part1 = recorded.data_files[0].sha256;
    const helper = recorded.python_modules[0].sha256;

    writeFileSync(path.join(dir, 'part-1.jsonl'), '{"q": "A"}\n');
    writeFileSync(path.join(dir, 'part-3.jsonl'), '{"q": "c"}\n');
    writeFileSync(path.join(dir, 'helper.py'), 'X = 2\n');
    const part1Now = sha256(path.join(dir, 'part-1.jsonl'));
    const helperNow = sha256(path.join(dir, 'helper.py'));
    expect(await taskContentChanges(task, recorded)).toEqual([
      `task t: Python module helper.py changed (sha256 ${helper.slice(0, 12)} → ${helperNow.slice(0, 12)})`,
      'task t: data of split test: part-1.jsonl changed, part-3.jsonl is new',
    ]);
    expect(part1Now).not.toBe(part1);

    rmSync(path.join(dir, 'part-2.jsonl'));
    rmSync(path.join(dir, 'helper.py'));
    expect(await taskContentChanges(task, recorded)).toEqual([
      'task t: Python module helper.py is gone',
      'task t: data of split test: part-1.jsonl changed, part-2.jsonl is gone, part-3.jsonl is new',
    ]);

    writeFileSync(taskFile, `${readFileSync(taskFile, 'utf8')}description: "Answer. "\n`);
    const edited = await load(taskFile);
    const changes = await taskContentChanges(edited, recorded);
    expect(changes).toEqual([
      `task t: its config changed (sha256 ${task.source.sha256.slice(0, 12)} → ${edited.source.sha256.slice(0, 12)}, ${taskFile})`,
    ]);
    expect(await taskContentChanges(edited, undefined)).toEqual(['task t is not in the recorded run']);
  });
});
