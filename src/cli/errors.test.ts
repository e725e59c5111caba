/**
 * Library errors name option fields (`confirmRunUnsafeCode`); the CLI shows the flag that sets each field,
 * taken from the option tables. These check that the mapping is total and unambiguous; test/cli-messages
 * checks it through the real CLI.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { AssayError } from '../errors.js';
import { COMMAND_FLAGS } from './command-flags.js';
import { reportError, withFlagNames } from './errors.js';
import type { FlagTable } from './option-table.js';
import { RUN_FLAGS } from './run-flags.js';

const TABLES: Array<[string, FlagTable]> = [['run', RUN_FLAGS], ...Object.entries(COMMAND_FLAGS)];
const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Names in backticks that look like option fields (camelCase, or dotted) in the library's code lines
 * (comments skipped), with the files that use them.
 */
function fieldsNamedByLibrary(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter(
    (file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && !file.startsWith(`cli${path.sep}`),
  );
  for (const file of files) {
    for (const line of readFileSync(path.join(src, file), 'utf8').split('\n')) {
      const code = line.trim();
      if (code.startsWith('*') || code.startsWith('//') || code.startsWith('/*')) continue;
      for (const match of line.matchAll(
        /\\?`([a-z][A-Za-z]*(?:\.[a-z][A-Za-z]*)*)(?:: (?:true|false))?\\?`/g,
      )) {
        const name = match[1];
        if (!/[A-Z.]/.test(name)) continue;
        found.set(name, [...(found.get(name) ?? []), file]);
      }
    }
  }
  return found;
}

describe('option fields in library messages', () => {
  it('are each set by one flag across every command', () => {
    const flagsOf = new Map<string, Set<string>>();
    for (const [, table] of TABLES)
      for (const [name, spec] of Object.entries(table))
        if (spec.field) flagsOf.set(spec.field, new Set([...(flagsOf.get(spec.field) ?? []), `--${name}`]));
    const ambiguous = [...flagsOf].filter(([, flags]) => flags.size > 1).map(([field]) => field);
    expect(ambiguous).toEqual([]);
  });

  it('every camelCase or dotted field a library message names is shown as a flag', () => {
    const found = fieldsNamedByLibrary();
    // The scan sees what it should: fields from evaluate/, sandbox/, results/, view/, models/, kld/.
    expect(found.size).toBeGreaterThanOrEqual(20);
    for (const name of [
      'confirmRunUnsafeCode',
      'unsafeCodeWithoutSandbox',
      'outDirectory',
      'perplexity.stride',
    ])
      expect([...found.keys()]).toContain(name);
    const unmapped = [...found]
      .filter(([name]) => withFlagNames(`\`${name}\``) === `\`${name}\``)
      .map(([name, files]) => `${name} (${files.join(', ')})`);
    expect(unmapped).toEqual([]);
  });

  it('no library message names a flag of its own (the CLI maps fields to flags)', () => {
    const flags = new Set<string>();
    for (const [, table] of TABLES) for (const name of Object.keys(table)) flags.add(name);
    // Files whose --words are another program's flags or a command for the user to type, not assay's options.
    const elsewhere = new Map([
      [`models${path.sep}managed-server${path.sep}server-args.ts`, "vLLM's and SGLang's flags"],
      [`models${path.sep}managed-server${path.sep}managed-backend.ts`, "the server's --host and --port"],
      [`models${path.sep}managed-server${path.sep}server-facts.ts`, "nvidia-smi's flags"],
      [`sandbox${path.sep}bubblewrap.ts`, "bwrap's and prlimit's flags"],
      [`data${path.sep}hub${path.sep}dataset.ts`, 'the `assay data fetch` command to run'],
      [`tasks${path.sep}overrides.ts`, 'the `assay ls tasks --overrides` command to run'],
      [`view${path.sep}compare.ts`, "the viewer's page, for CLI and library users alike"],
    ]);
    const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter(
      (file) =>
        file.endsWith('.ts') &&
        !file.endsWith('.test.ts') &&
        !file.startsWith(`cli${path.sep}`) &&
        !elsewhere.has(file),
    );
    const named: string[] = [];
    for (const file of files) {
      for (const [index, line] of readFileSync(path.join(src, file), 'utf8').split('\n').entries()) {
        const code = line.trim();
        if (code.startsWith('*') || code.startsWith('//') || code.startsWith('/*')) continue;
        for (const match of line.matchAll(/--([a-z][a-z_]*)/g))
          if (flags.has(match[1])) named.push(`${file}:${index + 1} --${match[1]}`);
      }
    }
    expect(named).toEqual([]);
  });

  it('become the flag of the table, whole messages included', () => {
    expect(
      withFlagNames(
        'task humaneval is marked unsafe_code: it runs model-written code. Pass `confirmRunUnsafeCode` to run it',
      ),
    ).toBe(
      'task humaneval is marked unsafe_code: it runs model-written code. Pass --confirm_run_unsafe_code to run it',
    );
    expect(withFlagNames('`shard.index` 4 must be below `shard.count` 4')).toBe(
      '--shard 4 must be below --shard 4',
    );
    expect(withFlagNames('`perplexity.stride` needs `perplexity.mode` strided')).toBe(
      '--ppl_stride needs --ppl_mode strided',
    );
    expect(withFlagNames('`artifacts: false` and `outDirectory`')).toBe('--no_artifacts and --export');
    expect(withFlagNames('`sandbox.limits.timeoutMs`, `nCtx`, `maxDrop`')).toBe(
      '--code_timeout, --n_ctx, --max_drop',
    );
    // Backticks around anything that is no option field are left as written.
    expect(withFlagNames('`pValue` of `doc_to_text` and `until`')).toBe(
      '`pValue` of `doc_to_text` and `until`',
    );
  });

  it('reach the one-line message reportError writes', () => {
    const written: string[] = [];
    const write = process.stderr.write;
    process.stderr.write = ((text: string) => {
      written.push(text);
      return true;
    }) as typeof process.stderr.write;
    let code: number;
    try {
      code = reportError(
        new AssayError('bad_option', '`limit` and `samples` cannot be combined', {
          location: { field: 'limit' },
        }),
      );
    } finally {
      process.stderr.write = write;
    }
    expect(code).toBe(2);
    expect(written).toEqual(['assay: error: --limit and --samples cannot be combined\n']);
  });
});
