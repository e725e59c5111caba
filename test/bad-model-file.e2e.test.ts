/**
 * A GGUF that fails to load gives exit code 2 with llama.cpp's reason in every command that opens one,
 * and the process exits (before, run, ppl and serve waited forever on the engine process they had
 * started, and kld exited 1 with "internal error").
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { randomLlamaGguf } from '../src/models/gguf/llama-model.js';
import { loadNativeAddon } from '../src/models/gguf/native-scorer.js';
import { writeGguf } from '../src/models/gguf/writer.js';
import { bin } from './support/cli.js';
import { repoRoot, tempDir } from './support/helpers.js';
import { requireComponent } from './support/require-component.js';

const nativeScorer = requireComponent('native scorer', loadNativeAddon().addon !== undefined);
const directory = tempDir('assay-bad-model-');
const bytes = writeGguf(randomLlamaGguf({ seed: 9 }));
const good = path.join(directory, 'good.gguf');
const broken = path.join(directory, 'broken.gguf');
writeFileSync(good, bytes);
writeFileSync(broken, bytes.subarray(0, Math.floor(bytes.length / 2)));
writeFileSync(
  path.join(directory, 'text.txt'),
  'the sea was calm and the boats came home early.\n'.repeat(20),
);
writeFileSync(
  path.join(directory, 'mini.jsonl'),
  `${JSON.stringify({ id: 1, prompt: '2+2=', targets: ['4'], metric: 'exact_match' })}\n`,
);

/** Runs the CLI; `status` is null when it had to be killed after `timeoutMs`. */
function cli(args: string[], timeoutMs = 60_000): Promise<{ status: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], {
      cwd: repoRoot,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ status: code, stderr });
    });
  });
}

const reason = `assay: error: ${broken}: llama.cpp cannot load the model: llama_model_load: error loading model: tensor `;

describe('a GGUF that fails to load, in every command', () => {
  it('run, ppl and serve exit 2 with llama.cpp’s reason instead of hanging', async () => {
    const results = await Promise.all([
      cli([
        'run',
        '--model',
        'gguf',
        '--model_args',
        `model=${broken},threads=1`,
        '--tasks',
        path.join(directory, 'mini.jsonl'),
      ]),
      cli([
        'ppl',
        '--model',
        'gguf',
        '--model_args',
        `model=${broken},threads=1`,
        '--text',
        path.join(directory, 'text.txt'),
      ]),
      cli(['serve', '--model', broken, '--port', '0', '--model_args', 'threads=1']),
    ]);
    for (const result of results) {
      expect(result.status).toBe(2);
      expect(result.stderr).toContain(reason);
      expect(result.stderr).toContain('data is not within the file bounds, model is corrupted or incomplete');
      expect(result.stderr).not.toContain('internal error');
    }
  });

  it.skipIf(!nativeScorer)('kld exits 2 with the reason (it exited 1, "internal error")', async () => {
    const text = path.join(directory, 'text.txt');
    const result = await cli([
      'kld',
      '--base',
      good,
      '--model',
      broken,
      '--text',
      text,
      '--n_ctx',
      '16',
      '--threads',
      '1',
    ]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(reason);
  });
});

describe('ppl checks its text and report path before loading a model', () => {
  it('a --text that is not UTF-8, and an --output_path that cannot be written, are exit 2 at once', async () => {
    const latin1 = path.join(directory, 'latin1.txt');
    writeFileSync(latin1, Buffer.concat([Buffer.from('caf'), Buffer.from([0xe9]), Buffer.from('\n')]));
    const text = path.join(directory, 'text.txt');
    const results = await Promise.all([
      cli(['ppl', '--model', 'gguf', '--model_args', `model=${good},threads=1`, '--text', latin1]),
      cli([
        'ppl',
        '--model',
        'gguf',
        '--model_args',
        `model=${good}`,
        '--text',
        text,
        '-o',
        '/proc/nope/report.json',
      ]),
    ]);
    expect(results.map((result) => result.status)).toEqual([2, 2]);
    expect(results[0].stderr).toBe(
      `assay: error: ${latin1}:1: not UTF-8: byte offset 3 (line 1) starts an invalid sequence (bytes e9 0a); convert the file to UTF-8\n`,
    );
    expect(results[1].stderr).toBe(
      'assay: error: --output_path: cannot create folder /proc/nope: ENOENT (no such file or directory)\n',
    );
  });
});
