#!/usr/bin/env node
/**
 * `npm run build` (after tsc): bundles the CLI, dist/cli/main.js and the modules it reaches, into dist/bundle/
 * with esbuild, which bin/assay.js starts. Unbundled, a dummy `assay run` loads about 300 ES modules (208 of
 * assay's, 95 of zod's), and Node resolves, reads and links each one: about a fifth of a small run's CPU.
 * Bundled, the CLI is one file plus the chunks its lazy imports need (`splitting`: a module reached only by
 * `await import()` stays out of the start-up file, so what test/house-rules/lazy-imports.test.ts holds of the
 * sources holds of the bundle).
 *
 * Only the packages the CLI loads at start are bundled: the pure ES-module ones, and commander (CommonJS inside
 * its ES wrapper), which Node's CommonJS loader took about 9 ms of every command to load; its `require`s of Node's
 * modules go through the `require` the banner makes in each file. Every other package stays external and is
 * loaded from node_modules as before: node-llama-cpp must not be bundled (it forks its own files to test its
 * binary), better-sqlite3 and the native scorer load native addons, and other CommonJS packages are kept as Node
 * loads them. Modules find the package's files through util/package-root.ts, not through their own place in dist/.
 * esbuild's record of which module went where is dist/bundle.meta.json. Skipped when dist/bundle/main.js is newer than tsc's build record and package-lock.json; `--force` rebuilds.
 */
import { existsSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outdir = path.join(root, 'dist', 'bundle');
const output = path.join(outdir, 'main.js');
const inputs = [path.join(root, 'dist', 'tsconfig.build.tsbuildinfo'), path.join(root, 'package-lock.json')];

/** Packages bundled into the CLI: ES modules without files of their own to read at run time. */
const BUNDLED_PACKAGES = new Set(['zod', 'js-yaml', '@huggingface/jinja', 'commander']);

function packageName(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

const upToDate =
  existsSync(output) && inputs.every((input) => existsSync(input) && statSync(input).mtimeMs < statSync(output).mtimeMs);
if (!process.argv.includes('--force') && upToDate) {
  console.log('bundle: dist/bundle is up to date');
} else {
  rmSync(outdir, { recursive: true, force: true });
  const result = await build({
    entryPoints: { main: path.join(root, 'dist', 'cli', 'main.js') },
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    chunkNames: 'chunk-[hash]',
    logLevel: 'warning',
    metafile: true,
    banner: { js: "import { createRequire as __assayRequire } from 'node:module';\nconst require = __assayRequire(import.meta.url);" },
    plugins: [
      {
        name: 'external-packages',
        setup(builder) {
          builder.onResolve({ filter: /^[^./]/ }, (args) => {
            if (args.path.startsWith('node:') || !BUNDLED_PACKAGES.has(packageName(args.path))) {
              return { path: args.path, external: true };
            }
            return undefined;
          });
        },
      },
    ],
  });
  // Which modules went into which file, for test/bundle.test.ts (not shipped: package.json `files`).
  writeFileSync(path.join(root, 'dist', 'bundle.meta.json'), JSON.stringify(result.metafile));
  console.log('bundle: dist/bundle/main.js');
}
