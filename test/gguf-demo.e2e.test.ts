import { describe, expect, it } from 'vitest';
import { runCli } from './support/cli.js';
import { findOne, readJson, tempDir } from './support/helpers.js';

describe('assay run --model gguf (built-in demo model)', () => {
  it('runs the README quickstart offline and prints results with error bars', () => {
    const output = tempDir();
    const result = runCli(
      [
        'run',
        '--model',
        'gguf',
        '--tasks',
        'examples/tasks/story-cloze/story_cloze_mini.yaml,examples/tasks/medqa/medqa_mini.yaml',
        '--output_path',
        output,
      ],
      { env: { ASSAY_CACHE_DIR: tempDir('assay-cache-') } },
    );
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(
      /\|story_cloze_mini\|\s*1\|none\s*\|\s*0\|acc\s*\|↑\s*\|1\.0000\|±\s*\|0\.0000\|/,
    );
    expect(result.stdout).toMatch(
      /\|medqa_mini\s*\|\s*1\|none\s*\|\s*0\|acc\s*\|↑\s*\|0\.1250\|±\s*\|0\.1250\|/,
    );
    const results = readJson<{ manifest: { model: { info: Record<string, unknown> } } }>(
      findOne(`${output}/gguf`, /^results_.*\.json$/),
    );
    expect(results.manifest.model.info).toMatchObject({
      name: 'demo-bigram-v1.gguf',
      architecture: 'llama',
      kvCacheType: 'F32',
    });
  });
});
