import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoglikelihoodRequest } from '../src/models/backend.js';
import { GgufBackend } from '../src/models/gguf/gguf-backend.js';
import { writeGguf } from '../src/models/gguf/writer.js';
import { simpleEvaluate } from '../src/run/evaluate.js';
import { sentencePieceLlamaGguf } from './fixtures/sentencepiece-gguf.js';
import { bin, runCli } from './support/cli.js';
import { readJson, readJsonl, tempDir } from './support/helpers.js';
import { requireComponent, sharedFile } from './support/require-component.js';

/** Starts `assay serve` on a free port; resolves with its URL once it says it is serving. */
async function serve(model: string, name: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    [bin, 'serve', '--model', model, '--port', '0', '--model_args', 'threads=1'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "serving" line: ${stderr}`)), 60_000);
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = new RegExp(`serving "${name}" at (http://127\\.0\\.0\\.1:\\d+)/v1`).exec(stderr);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${stderr}`)));
  });
  return { url, child };
}

/** /v1/models names the served model, and a completion echoes the prompt with its token log-probabilities. */
async function expectAnswersOnLoopback(url: string, name: string): Promise<void> {
  const models = (await (await fetch(`${url}/v1/models`)).json()) as { data: Array<{ id: string }> };
  expect(models.data.map((model) => model.id)).toEqual([name]);
  const response = await fetch(`${url}/v1/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      model: name,
      prompt: 'abc',
      max_tokens: 1,
      temperature: 0,
      echo: true,
      logprobs: 1,
    }),
  });
  const json = (await response.json()) as {
    choices: Array<{ logprobs: { token_logprobs: Array<number | null> } }>;
  };
  expect(json.choices[0].logprobs.token_logprobs[0]).toBeNull();
  expect(json.choices[0].logprobs.token_logprobs.slice(1).every((value) => typeof value === 'number')).toBe(
    true,
  );
}

const TASKS = ['examples/tasks/story-cloze/story_cloze_mini.yaml', 'test/fixtures/serve/arc_mini.yaml'];

/** stories260K, where the shared models folder is there; the generated model stands in either way. */
const STORIES = sharedFile('models', 'stories260K.gguf');
const stories = requireComponent('stories260K', existsSync(STORIES));

const spmDirectory = tempDir('assay-serve-e2e-spm-');
const spmModel = path.join(spmDirectory, 'spm.gguf');
writeFileSync(spmModel, writeGguf(sentencePieceLlamaGguf({ seed: 7 })));
afterAll(() => rmSync(spmDirectory, { recursive: true, force: true }));

type Sample = {
  doc_id: number;
  arguments: Record<string, { arg_0: string; arg_1: string }>;
  resps: string[][][];
};

/** Every (context, continuation) of a run's sample logs with its log-likelihood, by task. */
function scoredChoices(out: string): Array<{ task: string; request: LoglikelihoodRequest; logprob: number }> {
  const choices: Array<{ task: string; request: LoglikelihoodRequest; logprob: number }> = [];
  const folder = path.join(out, readdirSync(out)[0]);
  for (const file of readdirSync(folder).filter((name) => name.startsWith('samples_'))) {
    const task = /^samples_(.*)_\d{4}-/.exec(file)?.[1] ?? file;
    for (const sample of readJsonl<Sample>(path.join(folder, file))) {
      Object.values(sample.arguments).forEach((argument, i) => {
        choices.push({
          task,
          request: { context: argument.arg_0, continuation: argument.arg_1 },
          logprob: Number(sample.resps[i][0][0]),
        });
      });
    }
  }
  return choices.sort((a, b) => a.task.localeCompare(b.task));
}

function resultsOf(out: string): Record<string, unknown> {
  const folder = path.join(out, readdirSync(out)[0]);
  const file = readdirSync(folder).find((name) => name.startsWith('results_'));
  if (!file) throw new Error(`no results in ${folder}`);
  return readJson(path.join(folder, file));
}

const models = [
  { label: 'a generated GGUF with a SentencePiece-like vocabulary', file: spmModel, name: 'spm' },
  ...(stories ? [{ label: 'stories260K', file: STORIES, name: 'stories260K' }] : []),
];

describe.each(models)('assay serve + assay run through the real CLI, on $label', ({ file, name }) => {
  let server: { url: string; child: ChildProcess };
  let engine: GgufBackend;
  const out = tempDir('assay-serve-e2e-run-');
  beforeAll(async () => {
    // The server and the reference engine load at the same time.
    [server, engine] = await Promise.all([
      serve(file, name),
      // 'alone': every request evaluated by itself, as the server evaluates each prompt (the default shares
      // a context's evaluation among its choices, which moves sums by float32 rounding, ~1e-5 on stories260K).
      GgufBackend.create({ modelPath: file, threads: 1, schedule: 'alone' }),
    ]);
  }, 90_000);
  afterAll(async () => {
    // Stopped by the last test unless a test before it failed.
    if (server && server.child.exitCode === null && server.child.signalCode === null) {
      const exited = new Promise((resolve) => server.child.once('exit', resolve));
      server.child.kill('SIGTERM');
      await exited;
    }
    await engine?.close();
    rmSync(out, { recursive: true, force: true });
  });

  /** Each choice of a run's sample logs against the in-process engine's score of it. */
  async function expectInProcessScores(run: string): Promise<void> {
    const choices = scoredChoices(run);
    expect(choices.length).toBe(20 * 4 + 7 * 4);
    const reference = await engine.loglikelihood({ requests: choices.map((choice) => choice.request) });
    const worst = Math.max(...choices.map((choice, i) => Math.abs(reference[i].logprob - choice.logprob)));
    expect(worst).toBeLessThanOrEqual(1e-5);
  }

  /** `assay run` of both tasks with `model` and `modelArgs`, its samples logged under `out`/`folder`. */
  function evaluate(model: string, modelArgs: string, folder: string): { run: string; stderr: string } {
    const run = path.join(out, folder);
    const result = runCli(
      ['run', '--model', model, '--model_args', modelArgs, '--tasks', ...TASKS].concat([
        '--output_path',
        run,
        '--log_samples',
      ]),
    );
    expect(result.status, result.stderr).toBe(0);
    return { run, stderr: result.stderr };
  }

  it('answers on loopback: /v1/models names the model, a completion echoes the prompt with log-probabilities', async () => {
    await expectAnswersOnLoopback(server.url, name);
  });

  it('local-completions (text prompts): every doc of story-cloze and an ARC-like task answered, as in process (1e-5)', async () => {
    const { run, stderr } = evaluate(
      'local-completions',
      // Text prompts, named: lm-eval's local-completions defaults to token ids (tokenizer_backend=auto).
      `model=${name},base_url=${server.url}/v1/completions,num_concurrent=2,tokenized_requests=false`,
      'local-completions',
    );
    expect(stderr).not.toMatch(/errored|do not spell/);
    const results = resultsOf(run);
    expect(results.partial).toBe(false);
    expect(results['n-samples']).toMatchObject({
      story_cloze_mini: { effective: 20 },
      arc_mini: { effective: 7 },
    });
    await expectInProcessScores(run);
    // The in-process run of the same tasks reaches the same metrics: the library's evaluation with the
    // engine the scores were checked against (`assay run --model gguf` is the same evaluation; spawning it
    // here would start a CLI and another engine process, about 3 CPU s, to test nothing about serve).
    const inProcess = await simpleEvaluate({ model: engine, modelName: 'gguf', tasks: TASKS });
    expect(inProcess.results.results).toEqual(results.results);
  }, 240_000);

  it('vllm with base_url (token ids from /tokenize, prompt_logprobs): the same, BOS as the GGUF says', async () => {
    const { run } = evaluate('vllm', `base_url=${server.url},add_bos_token=true`, 'vllm');
    expect(resultsOf(run).partial).toBe(false);
    await expectInProcessScores(run);
  }, 240_000);

  it('stops cleanly on SIGTERM', async () => {
    const exited = new Promise<number | null>((resolve) =>
      server.child.once('exit', (code) => resolve(code)),
    );
    server.child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
