/**
 * A run's output files appear together or not at all. A real run's files are written again by a
 * child process that is SIGKILLed at each step of the commit (a known point, not a timing race), and
 * the folder is checked: nothing half-written, no `.tmp` file, no leaderboard without its results; the
 * next run into the folder completes a committed run byte for byte, or removes an uncommitted one.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DummyBackend } from '../src/models/dummy/dummy-backend.js';
import { prepareOutputDirectory, writeOutputs } from '../src/report/output.js';
import type { CommitStep } from '../src/report/staged-write.js';
import { simpleEvaluate } from '../src/run/evaluate.js';
import { readJson, repoRoot, tempDir } from './support/helpers.js';

const script = path.join(repoRoot, 'test', 'support', 'kill-while-staging.mjs');

function taskFiles(directory: string): string[] {
  return ['alpha', 'beta'].map((name, offset) => {
    const file = path.join(directory, `${name}.jsonl`);
    const lines = Array.from({ length: 3 + offset }, (_, i) =>
      JSON.stringify({ id: i, prompt: `${name} ${i}?`, targets: ['yes'], metric: 'exact_match' }),
    );
    writeFileSync(file, `${lines.join('\n')}\n`);
    return file;
  });
}

async function evaluation(work: string) {
  return simpleEvaluate({
    model: new DummyBackend(),
    modelName: 'dummy',
    tasks: taskFiles(work),
    bootstrapIters: 0,
  });
}

function stage(folder: string, killAt: number, listFile: string): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, folder, String(killAt), listFile], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code !== null && code !== 0) reject(new Error(`writer exited ${code}: ${stderr}`));
      else resolve(signal);
    });
  });
}

const visible = (folder: string) =>
  readdirSync(folder)
    .filter((name) => !name.startsWith('.'))
    .sort();

describe('outputs are all or nothing', () => {
  it('a writer killed at any step of the commit leaves no partial run; the next run finishes or removes it', async () => {
    const work = tempDir('assay-outputs-');
    const steps: CommitStep[] = [];
    const written = await writeOutputs(await evaluation(work), {
      outputPath: path.join(work, 'complete'),
      logSamples: true,
      includePerExample: false,
      onStep: (step) => steps.push(step),
    });
    const names = [...written.samples, written.results, written.leaderboard].map((file) =>
      path.basename(file),
    );
    // Sample logs, then the results file that names them, then the leaderboard.
    expect(steps).toEqual(['staged', 'journaled', ...names.map((name) => `renamed ${name}`), 'done']);
    const folder = path.dirname(written.results);
    expect(readdirSync(folder).sort()).toEqual([...names].sort());
    const files = names.map((name) => ({ name, content: readFileSync(path.join(folder, name), 'utf8') }));
    const listFile = path.join(work, 'files.json');
    writeFileSync(listFile, JSON.stringify(files));

    // Kill points: staged (before the journal), journaled, and after each of the four renames.
    const killAts = [1, 2, 3, 4, 5, 6];
    const targets = killAts.map((killAt) => path.join(work, `killed-${killAt}`));
    for (const target of targets) mkdirSync(target);
    const signals = await Promise.all(killAts.map((killAt, i) => stage(targets[i], killAt, listFile)));
    for (const [i, killAt] of killAts.entries()) {
      expect(signals[i]).toBe('SIGKILL');
      const shown = visible(targets[i]);
      expect(shown).toEqual(names.slice(0, Math.max(0, killAt - 2)).sort());
      expect(readdirSync(targets[i]).some((name) => name.endsWith('.tmp'))).toBe(false);
      if (shown.includes(names[3])) expect(shown).toContain(names[2]);
      // The next run into the folder (here its pre-flight) rolls a committed run forward, or removes it.
      await prepareOutputDirectory(path.join(targets[i], 'x.json'), 'dummy');
      const after = readdirSync(targets[i]).sort();
      if (killAt === 1) expect(after).toEqual([]);
      else {
        expect(after).toEqual([...names].sort());
        for (const file of files)
          expect(readFileSync(path.join(targets[i], file.name), 'utf8')).toBe(file.content);
      }
    }
  });

  it('keeps one leaderboard per run, beside its results file', async () => {
    const work = tempDir('assay-outputs-');
    const output = await evaluation(work);
    const outputPath = path.join(work, 'out');
    const options = { outputPath, logSamples: true, includePerExample: false };
    const first = await writeOutputs(output, { ...options, now: new Date(2026, 0, 1) });
    const second = await writeOutputs(output, { ...options, now: new Date(2026, 0, 2) });
    const folder = path.join(outputPath, 'dummy');
    expect(path.basename(first.leaderboard)).toBe('leaderboard_2026-01-01T00-00-00.000000.json');
    expect(path.basename(second.leaderboard)).toBe('leaderboard_2026-01-02T00-00-00.000000.json');
    expect(visible(folder).filter((name) => !name.startsWith('samples_'))).toEqual([
      'leaderboard_2026-01-01T00-00-00.000000.json',
      'leaderboard_2026-01-02T00-00-00.000000.json',
      'results_2026-01-01T00-00-00.000000.json',
      'results_2026-01-02T00-00-00.000000.json',
    ]);
    // Issue 20: the leaderboard's schema was bumped (v2) and names the results file it summarises.
    const leaderboard = readJson<{ schema: string; results_file: string }>(first.leaderboard);
    expect(leaderboard.schema).toBe('assay.leaderboard/v2');
    expect(leaderboard.results_file).toBe('results_2026-01-01T00-00-00.000000.json');
  });
});
