import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { recoverStaged, writeStaged } from './staged-write.js';

/** A pid no process has: above the kernel's pid_max. */
const DEAD = 4_194_305;

function staging(folder: string, name: string, files: Record<string, string>, journal?: unknown): void {
  const directory = path.join(folder, name);
  mkdirSync(directory);
  for (const [file, content] of Object.entries(files)) writeFileSync(path.join(directory, file), content);
  if (journal !== undefined) writeFileSync(path.join(directory, 'commit.json'), JSON.stringify(journal));
}

describe('writeStaged / recoverStaged', () => {
  it('writes every file, in order, with nothing left beside them', async () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'assay-staged-'));
    const steps: string[] = [];
    await writeStaged(
      folder,
      'run',
      [
        { name: 'a.jsonl', content: ['x\n', 'y\n'] },
        { name: 'b.json', content: '{}' },
      ],
      (step) => steps.push(step),
    );
    expect(steps).toEqual(['staged', 'journaled', 'renamed a.jsonl', 'renamed b.json', 'done']);
    expect(readdirSync(folder).sort()).toEqual(['a.jsonl', 'b.json']);
    expect(readFileSync(path.join(folder, 'a.jsonl'), 'utf8')).toBe('x\ny\n');
  });

  it('a write that fails before the journal leaves nothing', async () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'assay-staged-'));
    const failing = (function* () {
      yield 'partial';
      throw new Error('disk full');
    })();
    await expect(writeStaged(folder, 'run', [{ name: 'a.jsonl', content: failing }])).rejects.toThrow(
      'disk full',
    );
    expect(readdirSync(folder)).toEqual([]);
  });

  it('rolls committed runs forward, removes uncommitted ones and stray temporaries, and leaves live writers alone', async () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'assay-staged-'));
    // Committed, killed after its first rename.
    writeFileSync(path.join(folder, 'samples_t_1.jsonl'), 'done\n');
    staging(
      folder,
      `.assay-staging-1-${DEAD}-aa`,
      { 'results_1.json': '{"r":1}', 'leaderboard_1.json': '{}' },
      {
        files: ['samples_t_1.jsonl', 'results_1.json', 'leaderboard_1.json'],
      },
    );
    // Killed before its journal.
    staging(folder, `.assay-staging-2-${DEAD}-bb`, { 'results_2.json': '{"r":2}' });
    // A journal naming a path outside the folder is no commit.
    staging(folder, `.assay-staging-3-${DEAD}-cc`, { 'x.json': '1' }, { files: ['../x.json'] });
    // Still being written by a live process (this one's parent).
    staging(folder, `.assay-staging-4-${process.ppid}-dd`, { 'results_4.json': '{}' });
    writeFileSync(path.join(folder, 'results_0.json.0123456789ab.tmp'), '');
    writeFileSync(path.join(folder, `.assay-write-check-${DEAD}-ee`), 'ok');
    const recovery = await recoverStaged(folder);
    expect(recovery.completed.sort()).toEqual(['leaderboard_1.json', 'results_1.json']);
    expect(readdirSync(folder).sort()).toEqual([
      `.assay-staging-4-${process.ppid}-dd`,
      'leaderboard_1.json',
      'results_1.json',
      'samples_t_1.jsonl',
    ]);
    expect(readFileSync(path.join(folder, 'results_1.json'), 'utf8')).toBe('{"r":1}');
    expect(readdirSync(path.dirname(folder))).not.toContain('x.json');
  });
});
