/** Commander's parse errors in assay's form: one `assay: error:` line, one `assay: hint:` line, exit 2. */

import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { main, normalizeFlags } from './main.js';
import { buildProgram } from './program.js';

/** main() with stderr captured; the process's stderr and exit code are given back as they were. */
async function stderrOf(argv: string[]): Promise<{ stderr: string; exitCode: number | undefined }> {
  const written: string[] = [];
  const write = process.stderr.write;
  const previous = process.exitCode;
  process.exitCode = undefined;
  process.stderr.write = ((text: string) => {
    written.push(text);
    return true;
  }) as typeof process.stderr.write;
  try {
    await main(argv);
    return { stderr: written.join(''), exitCode: process.exitCode as number | undefined };
  } finally {
    process.stderr.write = write;
    process.exitCode = previous;
  }
}

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

describe('buildProgram', () => {
  /** `path` → its flags, for every command of the program. */
  const flagsOf = (program: Command): Record<string, string[]> => {
    const found: Record<string, string[]> = {};
    const walk = (command: Command, path: string[]) => {
      for (const sub of command.commands) {
        const name = [...path, sub.name()];
        found[name.join(' ')] = sub.options.map((option) => option.flags);
        walk(sub, name);
      }
    };
    walk(program, []);
    return found;
  };
  const all = flagsOf(buildProgram());

  it('gives the command a command line names the flags of the whole program, and the others none', () => {
    // Guards the comparison against two empty programs.
    expect(all.run).toContainEqual(expect.stringMatching(/^-M, --model /));
    expect(all['suite run'].length).toBeGreaterThan(0);
    for (const [argv, named] of [
      [['run', '--model', 'dummy'], ['run']],
      [['help', 'ls'], ['ls']],
      [
        ['suite', 'run', 'suite.yaml'],
        ['suite', 'suite validate', 'suite run', 'suite summarize', 'suite diff', 'suite merge'],
      ],
    ] as const) {
      const scoped = flagsOf(buildProgram([...argv]));
      expect(Object.keys(scoped)).toEqual(Object.keys(all));
      for (const [path, flags] of Object.entries(scoped))
        expect(flags, path).toEqual((named as readonly string[]).includes(path) ? all[path] : []);
    }
  });

  it('gives every command its flags for a line that names none, so that help lists them', () => {
    for (const argv of [[], ['--help'], ['help'], ['rn'], ['--version']])
      expect(flagsOf(buildProgram(argv))).toEqual(all);
  });
});
