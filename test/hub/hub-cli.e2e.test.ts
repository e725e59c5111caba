/**
 * The Hub from the real CLI (dist/, as a user runs it): `assay data fetch` fills the cache from a loopback
 * Hub, `assay run` on built-in tasks then works offline with the Hub gone, and the manifest names the
 * revision, commit and file hashes. Needs `npm run build` first (npm test does it).
 */
import { cpSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { conversionBranchDataset, type FakeHub, sha256Of, startFakeHub } from '../fakes/hub.js';
import { runCliAsync } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { readJson, repoRoot, tempDir } from '../support/helpers.js';
import { writeParquet } from '../support/parquet.js';

/** Async, unlike runCli: the loopback Hub lives in this process and must keep answering. */
const hubCli = (args: string[], env: Record<string, string | undefined>) => runCliAsync(args, { env });

const MMLU_SUBJECTS = readdirSync(path.join(repoRoot, 'tasks', 'mmlu', 'default'))
  .filter((name) => /^mmlu_.*\.yaml$/.test(name))
  .map((name) => name.slice('mmlu_'.length, -'.yaml'.length));

const ARC = {
  'ARC-Easy': {
    test: [
      {
        id: 'q1',
        question: 'What falls?',
        choices: { text: ['rain', 'sky'], label: ['A', 'B'] },
        answerKey: 'A',
      },
      {
        id: 'q2',
        question: 'What shines?',
        choices: { text: ['sun', 'rock', 'mud'], label: ['A', 'B', 'C'] },
        answerKey: 'A',
      },
    ],
    train: [
      { id: 't1', question: 'Train?', choices: { text: ['a', 'b'], label: ['A', 'B'] }, answerKey: 'B' },
    ],
    validation: [
      { id: 'v1', question: 'Val?', choices: { text: ['a', 'b'], label: ['A', 'B'] }, answerKey: 'A' },
    ],
  },
};

let hub: FakeHub;
let cache: string;

beforeAll(async () => {
  const mmlu: Record<string, Record<string, Record<string, unknown>[]>> = {};
  for (const subject of MMLU_SUBJECTS) {
    const doc = (split: string, index: number) => ({
      question: `${subject} ${split} question ${index}?`,
      subject,
      choices: ['w', 'x', 'y', 'z'],
      answer: index % 4,
    });
    mmlu[subject] = {
      test: [doc('test', 0), doc('test', 1)],
      dev: [0, 1, 2, 3, 4].map((i) => doc('dev', i)),
    };
  }
  hub = await startFakeHub({
    'allenai/ai2_arc': conversionBranchDataset(ARC, { commit: 'e'.repeat(40) }),
    'cais/mmlu': conversionBranchDataset(mmlu, { commit: 'f'.repeat(40), codec: 'ZSTD' }),
  });
  cache = tempDir('assay-cli-hub-');
});

afterAll(async () => {
  await hub?.close();
});

describe('assay and the Hub, end to end', () => {
  // The listings read no Hub: the CLI's main() in this process (test/cli-in-process.ts).
  test('ls tasks lists the built-in tasks; ls groups the mmlu groups', async () => {
    const tasks = await runCliInProcess(['ls', 'tasks']);
    expect(tasks.status).toBe(0);
    for (const name of [
      'arc_easy',
      'arc_challenge',
      'boolq',
      'gsm8k',
      'gsm8k_cot',
      'hellaswag',
      'lambada_openai',
      'mmlu_anatomy',
      'openbookqa',
      'piqa',
      'triviaqa',
      'truthfulqa_mc1',
      'truthfulqa_mc2',
      'wikitext',
      'winogrande',
    ]) {
      expect(tasks.stdout).toMatch(new RegExp(`^\\|${name} +\\|tasks/`, 'm'));
    }
    expect(MMLU_SUBJECTS).toHaveLength(57);
    const groups = await runCliInProcess(['ls', 'groups']);
    expect([...groups.stdout.matchAll(/^\|(mmlu\w*) *\|/gm)].map((match) => match[1])).toEqual([
      'mmlu',
      'mmlu_humanities',
      'mmlu_other',
      'mmlu_social_sciences',
      'mmlu_stem',
    ]);
  });

  test('data fetch fills the cache; a copy of it runs offline and the manifest pins the data', async () => {
    const env = {
      HF_ENDPOINT: hub.endpoint,
      HF_HUB_CACHE: cache,
      HF_HUB_OFFLINE: undefined,
      HF_TOKEN: 'hf_abc',
    };
    const fetched = await hubCli(['data', 'fetch', '--tasks', 'arc_easy,mmlu'], env);
    expect(fetched.stderr).toBe('');
    expect(fetched.status).toBe(0);
    expect(fetched.stdout).toContain(`arc_easy: allenai/ai2_arc ARC-Easy/test @ eeeeeeeeeeee (1 file, `);
    expect(fetched.stdout).toContain('mmlu_virology: cais/mmlu virology/dev @ ffffffffffff (1 file, ');
    // arc_easy: train, validation, test; 57 subjects × (test, dev).
    expect(fetched.stdout).toMatch(
      new RegExp(`^117 split\\(s\\), 117 file\\(s\\), \\d+ bytes in ${cache}$`, 'm'),
    );
    expect(
      hub.requests
        .filter((request) => !request.url.startsWith('/cdn/'))
        .every((request) => request.headers.authorization === 'Bearer hf_abc'),
    ).toBe(true);

    await hub.close();
    const out = tempDir('assay-cli-hub-out-');
    // The air-gapped machine: a copy of the cache folder (symlinks kept as they are) somewhere else.
    const copied = path.join(tempDir('assay-cli-airgap-'), 'hub');
    cpSync(cache, copied, { recursive: true, verbatimSymlinks: true });
    const offline = { HF_ENDPOINT: hub.endpoint, HF_HUB_CACHE: copied, HF_HUB_OFFLINE: '1' };
    const run = await hubCli(
      ['run', '--model', 'dummy', '--tasks', 'arc_easy', '--output_path', out, '--limit', '2'],
      offline,
    );
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).not.toMatch(/error/i);
    const results = readJson<{ manifest: { tasks: Record<string, Record<string, unknown>> } }>(
      path.join(
        out,
        'dummy',
        readdirSync(path.join(out, 'dummy')).find((name) => name.startsWith('results_')) as string,
      ),
    );
    const testFile = writeParquet(ARC['ARC-Easy'].test, 'SNAPPY');
    const manifest = results.manifest.tasks.arc_easy;
    expect({
      dataset_path: manifest.dataset_path,
      dataset_name: manifest.dataset_name,
      dataset_revision: manifest.dataset_revision,
      dataset_commit: manifest.dataset_commit,
      data_files: manifest.data_files,
    }).toEqual({
      dataset_path: 'allenai/ai2_arc',
      dataset_name: 'ARC-Easy',
      dataset_revision: 'refs/convert/parquet',
      dataset_commit: 'e'.repeat(40),
      data_files: [
        {
          split: 'test',
          path: 'ARC-Easy/test/0000.parquet',
          sha256: sha256Of(testFile),
          size: testFile.length,
        },
      ],
    });

    // 5-shot from dev, all 57 subjects, from the cache alone.
    const mmlu = await hubCli(
      ['run', '--model', 'dummy', '--tasks', 'mmlu', '--limit', '1', '--predict_only', '--output_path', out],
      offline,
    );
    expect(mmlu.status, mmlu.stderr).toBe(0);
    expect(mmlu.stderr).not.toMatch(/error/i);
  });

  test('offline with an empty cache: a clear error naming the dataset and the cache folder', async () => {
    const empty = tempDir('assay-cli-empty-');
    const result = await hubCli(['run', '--model', 'dummy', '--tasks', 'piqa', '--limit', '1'], {
      HF_HUB_CACHE: empty,
      HF_HUB_OFFLINE: '1',
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(
      `dataset baber/piqa: revision "refs/convert/parquet" is not in the Hub cache at ${path.join(empty, 'datasets--baber--piqa')} and HF_HUB_OFFLINE=1 forbids downloading`,
    );
    const fetchOffline = await hubCli(['data', 'fetch', '--tasks', 'piqa'], {
      HF_HUB_CACHE: empty,
      HF_HUB_OFFLINE: '1',
    });
    expect(fetchOffline.status).toBe(2);
    expect(fetchOffline.stderr).toContain('assay data fetch downloads data; unset HF_HUB_OFFLINE to run it');
  });
});
