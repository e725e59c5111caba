/**
 * The bundled CLI (scripts/bundle-cli.mjs, dist/bundle/), which bin/assay.js starts: every e2e test runs it,
 * so these hold what those cannot see. From esbuild's own record of the build (dist/bundle.meta.json):
 * - what `assay --help` loads at start is exactly the sources' static graph from src/cli/main.ts
 *   (test/house-rules/lazy-imports.test.ts holds that graph small): a module the sources import lazily stays
 *   in a chunk loaded by `import()`;
 * - node-llama-cpp, better-sqlite3 and the other chosen packages stay outside the bundle, loaded from
 *   node_modules (node-llama-cpp forks its own files to test its binary and refuses to be bundled);
 * - bin/assay.js loads the bundle and nothing else of dist/, and its modules find the package's files
 *   (the built-in tasks) from dist/bundle/ (util/package-root.ts).
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { reachableFrom } from './house-rules/static-imports.js';
import { runCli } from './support/cli.js';
import { repoRoot, tempDir } from './support/helpers.js';

interface Metafile {
  inputs: Record<string, unknown>;
  outputs: Record<
    string,
    { imports: Array<{ path: string; kind: string; external?: boolean }>; inputs: Record<string, unknown> }
  >;
}

const metaFile = path.join(repoRoot, 'dist', 'bundle.meta.json');

function metafile(): Metafile {
  // npm test builds first; a bare vitest run after a fresh clone has no dist/.
  if (!existsSync(metaFile)) throw new Error(`${metaFile} is missing: run npm run build`);
  return JSON.parse(readFileSync(metaFile, 'utf8')) as Metafile;
}

/** The outputs Node loads when it imports `entry`: the entry and the chunks it imports statically. */
function staticClosure(meta: Metafile, entry: string): Set<string> {
  const seen = new Set<string>([entry]);
  const queue = [entry];
  for (let next = queue.pop(); next !== undefined; next = queue.pop()) {
    for (const imported of meta.outputs[next]?.imports ?? []) {
      if (imported.kind !== 'import-statement' || imported.external || seen.has(imported.path)) continue;
      seen.add(imported.path);
      queue.push(imported.path);
    }
  }
  return seen;
}

/** dist/cli/main.js → src/cli/main.ts: the source file tsc compiled an input from. */
function sourceOf(input: string): string {
  return input.replace(/^dist\//, 'src/').replace(/\.js$/, '.ts');
}

describe('the bundled CLI', () => {
  it('loads at start exactly the modules the sources import statically from src/cli/main.ts', () => {
    const meta = metafile();
    const loaded = new Set<string>();
    for (const output of staticClosure(meta, 'dist/bundle/main.js'))
      for (const input of Object.keys(meta.outputs[output].inputs)) loaded.add(input);
    const ours = [...loaded].filter((input) => input.startsWith('dist/')).map(sourceOf);
    const expected = [...reachableFrom(repoRoot, ['src/cli/main.ts']).files];
    expect(ours.sort()).toEqual(expected.sort());
    // No package at start: commander (bundled) is in the chunk of program.ts, which main.ts imports lazily.
    expect([...loaded].filter((input) => input.startsWith('node_modules/'))).toEqual([]);
  });

  it('bundles only assay and the pure ES-module packages it names, never a native or self-forking one', () => {
    const meta = metafile();
    const packages = new Set(
      Object.keys(meta.inputs)
        .filter((input) => input.startsWith('node_modules/'))
        .map((input) => /^node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1]),
    );
    expect([...packages].sort()).toEqual(['@huggingface/jinja', 'commander', 'js-yaml', 'zod']);
    const external = new Set(
      Object.values(meta.outputs).flatMap((output) =>
        output.imports.filter((imported) => imported.external).map((imported) => imported.path),
      ),
    );
    for (const name of ['node-llama-cpp', 'better-sqlite3', 'hono', '@huggingface/hub'])
      expect(external, name).toContain(name);
    // Every module of dist/ the CLI reaches is in the bundle, none read from dist/ beside it.
    expect(
      [...external].filter((specifier) => specifier.startsWith('.') || specifier.startsWith('/')),
    ).toEqual([]);
  });

  it('is what bin/assay.js loads: no module of dist/ outside dist/bundle/; a warm listing replays from it', () => {
    // A load hook in the CLI's process records every file it imports (NODE_OPTIONS --import).
    const folder = tempDir('assay-bundle-');
    const hook = path.join(folder, 'hook.mjs');
    writeFileSync(
      hook,
      `import { appendFileSync } from 'node:fs';\nexport async function load(url, context, next) {\n  if (url.startsWith('file:')) appendFileSync(process.env.LOADED_LOG, url + '\\n');\n  return next(url, context);\n}\n`,
    );
    const register = path.join(folder, 'register.mjs');
    writeFileSync(
      register,
      `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hook).href)});\n`,
    );
    const cache = path.join(folder, 'cache');
    const dist = pathToFileURL(path.join(repoRoot, 'dist')).href;
    const listed = (round: number) => {
      const log = path.join(folder, `loaded-${round}.txt`);
      const result = runCli(['ls', 'tasks'], {
        env: { NODE_OPTIONS: `--import=${register}`, LOADED_LOG: log, ASSAY_CACHE_DIR: cache },
      });
      expect(result.status, result.stderr).toBe(0);
      const loaded = readFileSync(log, 'utf8').trim().split('\n');
      return { stdout: result.stdout, loaded, fromDist: loaded.filter((url) => url.startsWith(`${dist}/`)) };
    };
    const cold = listed(1);
    expect(cold.stdout).toContain('arc_easy');
    expect(cold.fromDist.length).toBeGreaterThan(0);
    expect(cold.fromDist.filter((url) => !url.startsWith(`${dist}/bundle/`))).toEqual([]);
    // The listing was kept (cli/listing-replay.ts stamps the bundle's files in place of the modules'),
    // and the second command replays it before commander and the index load.
    expect(
      readdirSync(path.join(cache, 'task-index')).filter((name) => name.startsWith('listing-')),
    ).toHaveLength(1);
    const warm = listed(2);
    expect(warm.stdout).toBe(cold.stdout);
    expect(warm.fromDist.filter((url) => !url.startsWith(`${dist}/bundle/`))).toEqual([]);
    // The chunk commander is bundled into: loaded by the cold command, not by the replay.
    const meta = metafile();
    const commander = Object.keys(meta.outputs).filter((output) =>
      Object.keys(meta.outputs[output].inputs).some((input) => input.startsWith('node_modules/commander/')),
    );
    expect(commander).toHaveLength(1);
    const commanderUrl = pathToFileURL(path.join(repoRoot, commander[0])).href;
    expect(warm.loaded).not.toContain(commanderUrl);
    expect(cold.loaded).toContain(commanderUrl);
    expect(warm.fromDist.length).toBeLessThan(cold.fromDist.length);
  });
});
