import { spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { randomLlamaGguf } from '../src/models/gguf/llama-model.js';
import { writeGguf } from '../src/models/gguf/writer.js';
import { bin, tempDir } from './helpers.js';

const directory = tempDir('assay-serve-e2e-');
const modelPath = path.join(directory, 'tiny.gguf');
writeFileSync(modelPath, writeGguf(randomLlamaGguf({ seed: 3 })));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

it('assay serve answers on loopback and stops cleanly on SIGTERM', async () => {
  const child = spawn(
    process.execPath,
    [bin, 'serve', '--model', modelPath, '--port', '0', '--model_args', 'threads=1'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "serving" line: ${stderr}`)), 60_000);
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /serving "tiny" at (http:\/\/127\.0\.0\.1:\d+)\/v1/.exec(stderr);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${stderr}`)));
  });
  const models = (await (await fetch(`${url}/v1/models`)).json()) as { data: Array<{ id: string }> };
  expect(models.data.map((model) => model.id)).toEqual(['tiny']);
  const response = await fetch(`${url}/v1/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      model: 'tiny',
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
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.kill('SIGTERM');
  expect(await exited).toBe(0);
}, 90_000);
