import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { assayGitCommit, gitDescribe, startGitLookups } from './manifest.js';

/** git's own answer, asked directly (null where git fails, as the manifest records it). */
function git(args: string[], cwd: string): string | null {
  try {
    return execFileSync('git', args, { cwd, stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  } catch {
    return null;
  }
}

describe('git lookups started ahead of the results', () => {
  it('answer what git answers, for assay itself and the working directory', async () => {
    const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
    await startGitLookups();
    expect(assayGitCommit()).toBe(git(['rev-parse', 'HEAD'], root));
    expect(gitDescribe(process.cwd())).toBe(git(['describe', '--always'], process.cwd()));
    // A directory nobody asked about ahead of time is looked up on the spot.
    expect(gitDescribe(path.dirname(root))).toBe(git(['describe', '--always'], path.dirname(root)));
  });
});
