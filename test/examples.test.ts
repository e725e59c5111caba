/**
 * The examples the README points to: they exist in the shape issue 5 asks for, and
 * examples/simple-evaluate.ts runs as a program (tsx, importing 'assay' by name) and writes no file.
 * Needs `npm run build` first (the 'assay' import resolves to dist/).
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { repoRoot, tempDir } from './support/helpers.js';

const examples = path.join(repoRoot, 'examples');

describe('examples/', () => {
  test('the five JSONL fixture tasks use the five JSONL metrics', () => {
    const metricOf = (name: string) => {
      const lines = readFileSync(path.join(examples, 'tasks', `${name}.jsonl`), 'utf8')
        .split('\n')
        .filter((line) => line.trim() && !line.startsWith('#'));
      return [...new Set(lines.map((line) => (JSON.parse(line) as { metric: string }).metric))];
    };
    expect({
      arithmetic: metricOf('arithmetic'),
      summary: metricOf('summary'),
      'code-exec': metricOf('code-exec'),
      'multiple-choice': metricOf('multiple-choice'),
      generation: metricOf('generation'),
    }).toEqual({
      arithmetic: ['exact_match'],
      summary: ['rouge_l'],
      'code-exec': ['code_exec'],
      'multiple-choice': ['multiple_choice'],
      generation: ['substring_contains'],
    });
  });

  test('the MedQA-shaped multiple-choice YAML over local JSONL and the NER TypeScript task are there', () => {
    const medqa = readFileSync(path.join(examples, 'tasks', 'medqa', 'medqa_mini.yaml'), 'utf8');
    expect(medqa).toMatch(/^output_type: multiple_choice$/m);
    expect(medqa).toMatch(/^dataset_path: json$/m);
    const ner = readFileSync(path.join(examples, 'tasks', 'medical-ner.task.ts'), 'utf8');
    expect(ner).toMatch(/export default defineTask(<\w+>)?\(/);
    expect(ner).toMatch(/aggregation:/);
  });

  test('simple-evaluate.ts evaluates from inside a program and writes nothing', () => {
    const cwd = tempDir('assay-example-');
    const before = readdirSync(examples, { recursive: true }).sort();
    // `npx tsx examples/simple-evaluate.ts`, from another folder: the script's 'assay' import resolves
    // from its own package, whatever the current directory.
    const tsx = path.join(repoRoot, 'node_modules', 'tsx', 'dist', 'cli.mjs');
    const result = spawnSync(process.execPath, [tsx, path.join(examples, 'simple-evaluate.ts')], {
      cwd,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(result.status, result.stderr).toBe(0);
    // A custom aggregation gets a (seeded, deterministic) bootstrap stderr.
    expect(result.stdout).toBe(
      [
        'epoch 1: exact_match 0.3333 ± 0.0855',
        'epoch 2: exact_match 0.6667 ± 0.0863',
        'epoch 3: exact_match 1.0000 ± 0.0000',
        '',
      ].join('\n'),
    );
    expect(readdirSync(cwd)).toEqual([]);
    expect(readdirSync(examples, { recursive: true }).sort()).toEqual(before);
  });
});
