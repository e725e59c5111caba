/** Commander's parse errors in assay's form: one `assay: error:` line, one `assay: hint:` line, exit 2. */
import { afterEach, describe, expect, it } from 'vitest';
import { main, normalizeFlags } from './main.js';

async function stderrOf(argv: string[]): Promise<{ stderr: string; exitCode: number | undefined }> {
  const written: string[] = [];
  const write = process.stderr.write;
  process.stderr.write = ((text: string) => {
    written.push(text);
    return true;
  }) as typeof process.stderr.write;
  try {
    await main(argv);
  } finally {
    process.stderr.write = write;
  }
  return { stderr: written.join(''), exitCode: process.exitCode as number | undefined };
}

afterEach(() => {
  process.exitCode = undefined;
});

describe('commander errors', () => {
  it('name the command whose help to read, and what to do', async () => {
    expect(await stderrOf(['data', 'bogus'])).toEqual({
      stderr: "assay: error: unknown command 'bogus'\nassay: hint: assay data --help lists the commands\n",
      exitCode: 2,
    });
    expect(await stderrOf(['run', 'hellaswag'])).toEqual({
      stderr:
        "assay: error: too many arguments for 'run'. Expected 0 arguments but got 1.\nassay: hint: tasks go in --tasks (assay run --model NAME --tasks hellaswag,arc_easy)\n",
      exitCode: 2,
    });
    expect(await stderrOf(['compare', 'only-one'])).toEqual({
      stderr:
        "assay: error: missing required argument 'run_b'\nassay: hint: assay compare --help shows the arguments it takes\n",
      exitCode: 2,
    });
    expect(await stderrOf(['ls', '--include-path'])).toEqual({
      stderr:
        "assay: error: option '--include_path <dirs...>' argument missing\nassay: hint: assay ls --help shows the flags and their values\n",
      exitCode: 2,
    });
    expect(await stderrOf(['--model', 'dummy', '--taks', 'x'])).toEqual({
      stderr:
        "assay: error: unknown option '--taks'; did you mean --tasks?\nassay: hint: assay run --help lists its flags (lm-eval's spellings, snake or kebab case, are accepted)\n",
      exitCode: 2,
    });
  });

  it("take lm-eval's snake_case and kebab-case alike, values untouched", () => {
    expect(normalizeFlags(['--num-fewshot', '5', '--gen-kwargs=top-k=5', '--', '--a-b'])).toEqual([
      '--num_fewshot',
      '5',
      '--gen_kwargs=top-k=5',
      '--',
      '--a-b',
    ]);
  });
});
