import { describe, expect, it } from 'vitest';
import type { Manifest } from '../results/results-file.js';
import { manifestSections } from './manifest-view.js';

/** A manifest as the writer's type has it (results/results-file.ts), with a Hub task and a local one. */
const manifest: Manifest = {
  schema: 'assay.manifest/v1',
  model: {
    backend: 'gguf',
    name: '/models/tiny.gguf',
    revision: null,
    sha256: 'ab'.repeat(32),
    model_args: { model: '/models/tiny.gguf', seed: 3 },
    info: { name: 'tiny', numericFormat: 'Q8_0', contextLength: 2048 },
  },
  assay: { version: '0.1.0', git_commit: '0123456789abcdef0123' },
  tasks: {
    arc_easy: {
      version: 1,
      source: 'tasks/arc/arc_easy.yaml',
      format: 'yaml',
      sha256: 'c'.repeat(64),
      config_sha256: 'd'.repeat(64),
      dataset_path: 'allenai/ai2_arc',
      dataset_name: 'ARC-Easy',
      dataset_revision: 'main',
      dataset_commit: '210d026faf9955653af8916fad021475a3f00453',
      data_files: [
        {
          split: 'test',
          path: 'ARC-Easy/test-00000-of-00001.parquet',
          sha256: 'e'.repeat(64),
          size: 3 * 2 ** 20,
        },
        { split: 'train', path: 'ARC-Easy/train-00000-of-00001.parquet', sha256: 'f'.repeat(64), size: 2048 },
      ],
      split: 'test',
      fewshot_split: 'train',
      num_fewshot: 5,
      fewshot_sampler: 'default',
      fewshot_seed: 1234,
      prompt_template_sha256: '9'.repeat(64),
      scoring_mode: 'loglikelihood',
      length_normalisation: 'acc_norm: characters',
      repeats: 1,
    },
    local: {
      version: null,
      source: 'my.jsonl',
      format: 'jsonl',
      sha256: '1'.repeat(64),
      config_sha256: '2'.repeat(64),
      dataset_path: null,
      dataset_name: null,
      dataset_revision: null,
      dataset_commit: null,
      data_files: [],
      split: null,
      fewshot_split: null,
      num_fewshot: 0,
      fewshot_sampler: 'default',
      fewshot_seed: null,
      prompt_template_sha256: '3'.repeat(64),
      scoring_mode: 'generation',
      length_normalisation: null,
      repeats: 4,
    },
  },
  chat_template: { applied: true, name: 'chatml', sha256: '4'.repeat(64) },
  system_instruction_sha256: null,
  fewshot_as_multiturn: false,
  seeds: { random: 0, numpy: 1234, torch: 1234, fewshot: 1234, sampling: null },
  limit: { used: true, value: 10, samples: false },
  hardware: { cpu: 'AMD EPYC', cores: 2, memory_bytes: 25275953152, gpu: null, numeric_format: 'Q8_0' },
  runtime: { node: 'v20.20.2', platform: 'linux', arch: 'x64' },
};

describe('manifestSections (the Run page’s manifest table)', () => {
  it('lays out the model, the data files, the tasks and the environment', () => {
    expect(manifestSections(manifest)).toEqual([
      {
        title: 'Model',
        kind: 'fields',
        fields: [
          { label: 'Name', value: '/models/tiny.gguf' },
          { label: 'Backend', value: 'gguf' },
          { label: 'Revision', value: '—' },
          { label: 'SHA-256', value: 'ab'.repeat(32) },
          { label: 'Model args', value: 'model=/models/tiny.gguf, seed=3' },
          { label: 'Reported by the backend', value: 'numericFormat=Q8_0, contextLength=2048' },
          { label: 'Chat template', value: `applied (chatml), sha256 ${'4'.repeat(12)}…` },
          { label: 'System instruction', value: 'none' },
          { label: 'Few-shot as multiturn', value: 'no' },
        ],
      },
      {
        title: 'Data',
        kind: 'table',
        columns: ['Task', 'Dataset', 'Revision', 'Split', 'File', 'Size', 'SHA-256'],
        rows: [
          [
            'arc_easy',
            'allenai/ai2_arc / ARC-Easy',
            'main, commit 210d026faf99…',
            'test',
            'ARC-Easy/test-00000-of-00001.parquet',
            '3.0 MiB',
            `${'e'.repeat(12)}…`,
          ],
          [
            'arc_easy',
            'allenai/ai2_arc / ARC-Easy',
            'main, commit 210d026faf99…',
            'train',
            'ARC-Easy/train-00000-of-00001.parquet',
            '2.0 KiB',
            `${'f'.repeat(12)}…`,
          ],
          ['local', '—', '—', '—', '—', '—', '—'],
        ],
      },
      {
        title: 'Tasks',
        kind: 'table',
        columns: [
          'Task',
          'Version',
          'Source',
          'Evaluated split',
          'Few-shot',
          'Scoring',
          'Repeats',
          'Content SHA-256',
          'Prompt template SHA-256',
        ],
        rows: [
          [
            'arc_easy',
            '1',
            'tasks/arc/arc_easy.yaml (yaml)',
            'test',
            '5 from train, default sampler, seed 1234',
            'loglikelihood; acc_norm: characters',
            '1',
            `${'c'.repeat(12)}…`,
            `${'9'.repeat(12)}…`,
          ],
          [
            'local',
            '—',
            'my.jsonl (jsonl)',
            '—',
            '0',
            'generation',
            '4',
            `${'1'.repeat(12)}…`,
            `${'3'.repeat(12)}…`,
          ],
        ],
      },
      {
        title: 'Environment',
        kind: 'fields',
        fields: [
          { label: 'assay', value: '0.1.0 (commit 0123456789ab…)' },
          { label: 'Node', value: 'v20.20.2 on linux/x64' },
          { label: 'CPU', value: 'AMD EPYC, 2 cores, 23.5 GiB memory' },
          { label: 'GPU', value: '—' },
          { label: 'Numeric format', value: 'Q8_0' },
          { label: 'Seeds', value: 'random=0, numpy=1234, torch=1234, fewshot=1234, sampling=—' },
          { label: 'Limit', value: 'yes: 10' },
        ],
      },
    ]);
  });

  it('reads leniently: a field of another type shows as —, the rest still shows; no manifest, no sections', () => {
    const odd = { ...manifest, model: { ...manifest.model, name: { nested: true } }, runtime: 'v18' };
    const [model, , , environment] = manifestSections(odd);
    expect(model.kind === 'fields' && model.fields.slice(0, 2)).toEqual([
      { label: 'Name', value: '—' },
      { label: 'Backend', value: 'gguf' },
    ]);
    expect(environment.kind === 'fields' && environment.fields[1]).toEqual({
      label: 'Node',
      value: '— on —/—',
    });
    expect(manifestSections(null)).toEqual([]);
    expect(manifestSections('manifest')).toEqual([]);
  });
});
