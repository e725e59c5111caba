/**
 * Every built-in backend checks the type of each model arg through its schema before any work: a seed
 * that is no integer (`seed=abc`, `seed=1.5`, `seed=True`), a count that is a boolean, a fraction over 1,
 * a time limit of `True`, are refused with exit 2, the backend and the arg named, before a task loads, a
 * request is sent, a server starts or an output folder is made. Before, `--model dummy` recorded
 * `seed: "abc"`, gguf took any seed, the HTTP backends read `True` as 1 and `None` as 0, and the managed
 * servers passed `--seed abc` to a server that refuses it minutes later.
 */
import { existsSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runCliInProcess } from './support/cli-in-process.js';
import { repoRoot, tempDir } from './support/helpers.js';

const task = path.join(repoRoot, 'test/fixtures/compare/words.yaml');
let server: http.Server;
let requests = 0;
let url = '';

beforeAll(async () => {
  server = http.createServer((request, response) => {
    requests++;
    response.writeHead(500).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

async function refused(model: string, modelArgs: string): Promise<string> {
  const out = path.join(tempDir('assay-model-args-'), 'out');
  const result = await runCliInProcess([
    'run',
    '--model',
    model,
    '--model_args',
    modelArgs,
    '--tasks',
    task,
    '--output_path',
    out,
  ]);
  expect(result.status, result.stderr).toBe(2);
  expect(existsSync(out)).toBe(false);
  expect(result.stdout).toBe('');
  return result.stderr;
}

const error = (model: string, message: string) => `assay: error: --model_args for ${model}: ${message}\n`;

describe('model args of the wrong type are refused before any work, naming the backend and the arg', () => {
  test('dummy', async () => {
    expect(await refused('dummy', 'seed=abc')).toBe(error('dummy', 'seed: expected an integer, got "abc"'));
    expect(await refused('dummy', 'seed=1.5')).toBe(error('dummy', 'seed: expected an integer, got 1.5'));
    expect(await refused('dummy', 'seed=True')).toBe(error('dummy', 'seed: expected an integer, got true'));
  });

  test('gguf', async () => {
    const model = path.join(tempDir('assay-model-args-'), 'absent.gguf');
    expect(await refused('gguf', `model=${model},seed=abc`)).toBe(
      error('gguf', 'seed: expected an integer, got "abc"'),
    );
    expect(await refused('gguf', `model=${model},n_ctx=True`)).toBe(
      error('gguf', 'n_ctx: expected a positive integer, got true'),
    );
    expect(await refused('gguf', `model=${model},batch_size=many`)).toBe(
      error('gguf', 'batch_size: expected a positive integer or auto, got "many"'),
    );
  });

  test('the four HTTP backends', async () => {
    for (const [model, endpoint] of [
      ['local-completions', '/v1/completions'],
      ['local-chat-completions', '/v1/chat/completions'],
      ['openai-completions', '/v1/completions'],
      ['openai-chat-completions', '/v1/chat/completions'],
    ]) {
      const base = `model=m,base_url=${url}${endpoint},api_key=k-123456`;
      expect(await refused(model, `${base},seed=abc`)).toBe(
        error(model, 'seed: expected an integer, got "abc"'),
      );
      expect(await refused(model, `${base},seed=1.5`)).toBe(
        error(model, 'seed: expected an integer, got 1.5'),
      );
      expect(await refused(model, `${base},seed=None`)).toBe(
        error(model, 'seed: expected an integer, got null'),
      );
      expect(await refused(model, `${base},num_concurrent=True`)).toBe(
        error(model, 'num_concurrent: expected a positive integer, got true'),
      );
      expect(await refused(model, `${base},timeout=None`)).toBe(
        error(model, 'timeout: expected a positive number, got null'),
      );
    }
    expect(requests).toBe(0);
  });

  test('managed vllm and sglang (no server is started)', async () => {
    const executable = path.join(tempDir('assay-model-args-'), 'no-such-server');
    for (const model of ['vllm', 'sglang']) {
      const base = `pretrained=org/m,executable=${executable},python=${executable}`.replace(
        model === 'vllm' ? `,python=${executable}` : `,executable=${executable}`,
        '',
      );
      expect(await refused(model, `${base},seed=abc`)).toBe(
        error(model, 'seed: expected an integer, got "abc"'),
      );
      expect(await refused(model, `${base},seed=True`)).toBe(
        error(model, 'seed: expected an integer, got true'),
      );
      expect(await refused(model, `${base},tensor_parallel_size=1.5`)).toBe(
        error(model, 'tensor_parallel_size: expected a positive integer, got 1.5'),
      );
      expect(await refused(model, `${base},gpu_memory_utilization=2`)).toBe(
        error(model, 'gpu_memory_utilization: expected a fraction in (0, 1], got 2'),
      );
      expect(await refused(model, `${base},server_timeout=True`)).toBe(
        error(model, 'server_timeout: expected a positive number, got true'),
      );
      expect(await refused(model, `${base},trust_remote_code=yes`)).toBe(
        error(model, 'trust_remote_code: expected True or False, got "yes"'),
      );
    }
  });
});
