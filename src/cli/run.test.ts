/** `assay run`'s flags become typed options, checked at the edge. */
import { existsSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { AssayError } from '../errors.js';
import { optionsFromFlags, runCommand } from './run.js';

async function config(text: string): Promise<string> {
  const file = path.join(await mkdtemp(path.join(os.tmpdir(), 'assay-config-')), 'run.yaml');
  await writeFile(file, text);
  return file;
}

describe('--config', () => {
  it('takes the flags of assay run as keys (kebab or snake case); the command line wins', async () => {
    const file = await config('model: dummy\ntasks: [a, b]\nnum-fewshot: 2\nlog_samples: true\n');
    const options = optionsFromFlags({ config: file, tasks: ['c'], batch_size: '1' });
    expect(options).toMatchObject({ model: 'dummy', tasks: ['c'], numFewshot: 2, logSamples: true });
  });

  it('rejects a key that is no flag, with a did-you-mean and the file', async () => {
    const file = await config('model: dummy\ntasks: arithmetic\nnum_fewshots: 5\n');
    let caught: unknown;
    try {
      optionsFromFlags({ config: file });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(AssayError);
    expect((caught as AssayError).format()).toBe(
      `${file}: --config: unknown key "num_fewshots"; did you mean "num_fewshot"? (keys are the flags of assay run)`,
    );
    // Every lm-eval flag is a key: implemented (device) or refused with what to use instead (trackio_args).
    const lmEval = await config('model: gguf\ntasks: arithmetic\ndevice: cuda:0\n');
    expect(optionsFromFlags({ config: lmEval }).device).toBe('cuda:0');
    const trackio = await config('model: dummy\ntasks: arithmetic\ntrackio_args: {project: evals}\n');
    expect(() => optionsFromFlags({ config: trackio })).toThrow(
      "--trackio_args is lm-eval's Trackio logger; in assay use assay export RUN --to mlflow",
    );
  });
});

const base = { model: 'dummy', tasks: 'code-exec' };

describe('--code_memory and --code_timeout', () => {
  it('become the sandbox limits, in bytes and milliseconds', () => {
    expect(optionsFromFlags({ ...base, code_memory: '1536M', code_timeout: '5' }).sandbox?.limits).toEqual({
      timeoutMs: 5000,
      cpuSeconds: 5,
      memoryBytes: 1536 * 1024 ** 2,
    });
    expect(optionsFromFlags({ ...base, code_memory: '2G' }).sandbox?.limits).toEqual({
      memoryBytes: 2 * 1024 ** 3,
    });
    expect(optionsFromFlags({ ...base, code_memory: '1.5GiB' }).sandbox?.limits).toEqual({
      memoryBytes: 1.5 * 1024 ** 3,
    });
    expect(optionsFromFlags({ ...base, code_memory: '3221225472' }).sandbox?.limits).toEqual({
      memoryBytes: 3 * 1024 ** 3,
    });
    expect(optionsFromFlags(base).sandbox?.limits).toBeUndefined();
  });

  it('refuses a size it cannot read', () => {
    for (const value of ['lots', '-1G', '0', '2T']) {
      expect(() => optionsFromFlags({ ...base, code_memory: value })).toThrow(
        `--code_memory must be a size such as 2G, 1536M or a number of bytes, got "${value}"`,
      );
    }
  });
});

describe('tracking flags (lm-eval --hf_hub_log_args, --wandb_args)', () => {
  const base = { model: 'dummy', tasks: ['arithmetic'] };
  const hubEnv = { HF_TOKEN: 'hf_runTestToken123', HF_ENDPOINT: 'http://127.0.0.1:9' };

  it('are checked before the run: W&B refused, the Hub needing --output_path and --log_samples', () => {
    expect(() => optionsFromFlags({ ...base, wandb_args: 'project=evals' })).toThrow(
      /^--wandb_args is lm-eval's Weights & Biases logger .*; in assay use assay export RUN --to mlflow/,
    );
    const saved = { ...process.env };
    Object.assign(process.env, hubEnv);
    try {
      expect(() => optionsFromFlags({ ...base, hf_hub_log_args: 'push_results_to_hub=True' })).toThrow(
        '--hf_hub_log_args pushes the files a run writes: add --output_path DIR',
      );
      expect(() =>
        optionsFromFlags({ ...base, output_path: '/tmp/x', hf_hub_log_args: 'push_samples_to_hub=True' }),
      ).toThrow('--hf_hub_log_args push_samples_to_hub=True needs --log_samples');
      const options = optionsFromFlags({
        ...base,
        output_path: '/tmp/x',
        log_samples: true,
        hf_hub_log_args: 'hub_results_org=acme,push_samples_to_hub=True,public_repo=True',
      });
      expect(options.hubExport).toEqual({
        to: 'hub',
        hub: {
          endpoint: 'http://127.0.0.1:9',
          token: 'hf_runTestToken123',
          org: 'acme',
          detailsRepoName: 'lm-eval-results',
          resultsRepoName: 'lm-eval-results',
          pushResults: false,
          pushSamples: true,
          publicRepo: true,
          leaderboardUrl: undefined,
          pointOfContact: undefined,
        },
      });
    } finally {
      for (const key of Object.keys(hubEnv)) if (!(key in saved)) delete process.env[key];
      Object.assign(process.env, saved);
    }
  });

  it('are keys of --config too (hf_hub_log_args is no longer an lm-eval-only key)', async () => {
    const file = await config('model: dummy\ntasks: arithmetic\nwandb_args: project=evals\n');
    expect(() => optionsFromFlags({ config: file })).toThrow(
      /^--wandb_args is lm-eval's Weights & Biases logger/,
    );
  });
});

describe('the option table', () => {
  it("turns lm-eval's flag text into the library's typed options, with the defaults applied once", () => {
    const options = optionsFromFlags({
      model: 'dummy',
      tasks: ['a,b', 'c'],
      limit: '0.25',
      seed: '1,2,3',
      gen_kwargs: 'temperature=0,max_gen_toks=5',
      samples: undefined,
      shard: '1/3',
      metadata: '{"max_seq_lengths": [4096]}',
      model_args: 'seed=5',
      batch_size: 'auto:4',
      ppl_stride: '64',
    });
    expect(options).toMatchObject({
      model: 'dummy',
      modelArgs: { seed: 5 },
      tasks: ['a', 'b', 'c'],
      limit: { fraction: 0.25 },
      seeds: { random: 1, numpy: 2, torch: 3, fewshot: 1234 },
      genKwargs: { temperature: 0, max_gen_toks: 5 },
      shard: { index: 1, count: 3 },
      metadata: { max_seq_lengths: [4096] },
      batchSize: 'auto:4',
      bootstrapIters: 100000,
      verbosity: 'INFO',
      perplexity: { mode: undefined, stride: 64, maxLength: undefined },
      banner: { modelArgs: 'seed=5', genKwargs: 'temperature=0,max_gen_toks=5', limit: '0.25' },
    });
    const defaults = optionsFromFlags({ model: 'dummy', tasks: ['a'] });
    expect(defaults).toMatchObject({ batchSize: 1, bootstrapIters: 100000, applyChatTemplate: false });
    // The seeds are resolved once, by the options' schema: lm-eval's defaults (lm_eval/defaults.py:
    // DEFAULT_RANDOM_SEED = 0, DEFAULT_OTHER_SEED = 1234 for numpy, torch and few-shot sampling).
    expect(defaults.seeds).toEqual({ random: 0, numpy: 1234, torch: 1234, fewshot: 1234 });
    expect(defaults.limit).toBeUndefined();
  });

  it('refuses a bad value naming the flag', () => {
    expect(() => optionsFromFlags({ ...base, batch_size: 'big' })).toThrow(
      '--batch_size must be an integer ≥ 1, got "big"',
    );
    expect(() => optionsFromFlags({ ...base, shard: '4/4' })).toThrow(
      '--shard 4/4: i must be between 0 and 3 (shards are numbered from 0)',
    );
    expect(() => optionsFromFlags({ ...base, verbosity: 'chatty' })).toThrow('--verbosity must be one of');
    expect(() => optionsFromFlags({ ...base, cache_requests: 'forever' })).toThrow(
      '--cache_requests takes true, refresh or delete, got "forever"',
    );
  });
});

describe('--expect_sha256 and --max_latency_s', () => {
  const hex = (digit: string) => digit.repeat(64);

  it('take task=SHA256 lists or a JSON pin file, and seconds', async () => {
    expect(
      optionsFromFlags({ ...base, expect_sha256: `code-exec=${hex('a')}, other=${hex('B')}` }).expectSha256,
    ).toEqual({ 'code-exec': hex('a'), other: hex('B') });
    const file = await config(JSON.stringify({ 'code-exec': hex('c') }));
    expect(optionsFromFlags({ ...base, expect_sha256: file }).expectSha256).toEqual({
      'code-exec': hex('c'),
    });
    expect(optionsFromFlags({ ...base, max_latency_s: '2.5' }).maxLatencyS).toBe(2.5);
    expect(optionsFromFlags(base)).toMatchObject({ expectSha256: undefined, maxLatencyS: undefined });
  });

  it('refuse what they cannot read, naming the flag', async () => {
    expect(() => optionsFromFlags({ ...base, expect_sha256: '=abc' })).toThrow(
      '--expect_sha256: expected task=SHA256, got "=abc"',
    );
    expect(() => optionsFromFlags({ ...base, expect_sha256: '/nonexistent/pins.json' })).toThrow(
      /^--expect_sha256: "\/nonexistent\/pins\.json" is neither task=SHA256,… nor a readable pin file/,
    );
    const list = await config('["not", "an", "object"]');
    expect(() => optionsFromFlags({ ...base, expect_sha256: list })).toThrow(
      '--expect_sha256: a pin file holds {"task": "sha256", …}',
    );
    expect(() => optionsFromFlags({ ...base, max_latency_s: '0' })).toThrow(
      '--max_latency_s must be a positive number of seconds, got 0',
    );
    expect(() => optionsFromFlags({ ...base, max_latency_s: 'soon' })).toThrow(
      '--max_latency_s must be a number, got "soon"',
    );
  });
});

describe('options the schema refuses', () => {
  /** assay run's exit code and what it printed on stderr. */
  async function run(flags: Record<string, unknown>): Promise<{ code: number; stderr: string }> {
    const written: string[] = [];
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    try {
      return { code: await runCommand(flags), stderr: written.join('') };
    } finally {
      spy.mockRestore();
    }
  }

  it('stop assay run before any work, naming the flags (exit 2)', async () => {
    const output = path.join(await mkdtemp(path.join(os.tmpdir(), 'assay-refused-')), 'out');
    // The task does not exist and the output folder is not made: the options are refused first.
    const flags = { model: 'dummy', tasks: ['no-such-task'], output_path: output };
    expect(await run({ ...flags, fewshot_as_multiturn: 'true' })).toEqual({
      code: 2,
      stderr: 'assay: error: --fewshot_as_multiturn needs --apply_chat_template\n',
    });
    expect(await run({ ...flags, limit: '5', samples: '{"no-such-task": [0]}' })).toEqual({
      code: 2,
      stderr: 'assay: error: --limit and --samples cannot be used together\n',
    });
    expect(await run({ ...flags, max_latency_s: '-1' })).toEqual({
      code: 2,
      stderr: 'assay: error: --max_latency_s must be a positive number of seconds, got -1\n',
    });
    expect(existsSync(output)).toBe(false);
  });
});
