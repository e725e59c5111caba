/**
 * `--model vllm` through the real CLI: Ctrl-C (SIGINT) mid-run leaves no server or worker behind and
 * exits 130, and `--model hf` (lm-eval's in-process backend) is one line naming what to run instead.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { fakeServerBin } from './fakes/inference-server-bin.js';
import { writeChoiceTask } from './support/choice-task.js';
import { bin as assayBin, runCli } from './support/cli.js';
import { repoRoot, tempDir } from './support/helpers.js';

const bin = fakeServerBin();
const work = tempDir('assay-managed-e2e-');
let taskFile: string;

beforeAll(() => {
  taskFile = writeChoiceTask(
    work,
    'slow_mc',
    Array.from({ length: 40 }, (_, i) => ({
      question: `Item ${i}?`,
      choices: ['red', 'green', 'blue'],
      answer: i % 3,
    })),
    { absolutePaths: true },
  );
});

function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

async function until(condition: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
  return condition();
}

describe('assay run --model vllm (CLI)', () => {
  // SIGINT: Ctrl-C, handled by the CLI (exit 130). SIGTERM: Slurm's time limit, kubectl delete; nothing in
  // the CLI handles it, so the process guard stops the server and lets the signal end assay.
  it.each([
    ['SIGINT', { code: 130, signal: null }],
    ['SIGTERM', { code: null, signal: 'SIGTERM' }],
  ] as const)('%s mid-run stops the server and its worker', async (signal, expected) => {
    const record = path.join(work, `record-${signal}.json`);
    const output = path.join(work, `out-${signal}`);
    mkdirSync(output);
    const child = spawn(
      process.execPath,
      [
        assayBin,
        'run',
        '--model',
        'vllm',
        '--model_args',
        'pretrained=org/slow,num_concurrent=1',
        '--tasks',
        taskFile,
        '--output_path',
        output,
      ],
      {
        cwd: repoRoot,
        env: {
          ...process.env,
          PATH: `${bin}${path.delimiter}${process.env.PATH}`,
          FAKE_SERVER_RECORD: record,
          FAKE_SERVER_LATENCY_MS: '100',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const closed = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.on('close', (code, signal) => resolve({ code, signal })),
    );
    const folder = path.join(output, 'org__slow');
    const log = () => {
      const name = existsSync(folder)
        ? readdirSync(folder).find((file) => file.startsWith('vllm_server_'))
        : undefined;
      return name ? readFileSync(path.join(folder, name), 'utf8') : '';
    };
    // Mid-run: the server is up and has answered scoring requests.
    expect(await until(() => (log().match(/^REQUEST/gm) ?? []).length >= 3, 30_000)).toBe(true);
    const { pid, worker } = JSON.parse(readFileSync(record, 'utf8')) as { pid: number; worker: number };
    expect(running(pid) && running(worker)).toBe(true);
    child.kill(signal);
    expect(await closed).toEqual(expected);
    if (signal === 'SIGINT') expect(stderr).toContain('assay: interrupted (SIGINT)');
    expect(await until(() => !running(pid) && !running(worker), 8000)).toBe(true);
    expect(readdirSync(folder).filter((file) => file.startsWith('results_'))).toEqual([]);
  });

  it('--model hf is one line naming the alternatives with the user’s model', () => {
    const result = runCli(['--model', 'hf', '--model_args', 'pretrained=gpt2', '--tasks', taskFile]);
    expect(result.status).toBe(2);
    expect(result.stderr).toBe(
      "assay: error: --model hf is lm-eval's in-process Hugging Face transformers backend, which assay does not have (it runs no PyTorch); instead use --model vllm --model_args pretrained=gpt2 (assay starts a vLLM server for the run and stops it), --model local-completions --model_args model=gpt2,base_url=http://127.0.0.1:8000/v1/completions (any OpenAI-compatible server you run), or --model gguf --model_args model=FILE.gguf (llama.cpp in process)\n",
    );
  });
});
