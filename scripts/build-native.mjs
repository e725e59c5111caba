#!/usr/bin/env node
/**
 * Builds assay's native scorer (native/scorer) at install time: a small N-API addon compiled with
 * node-gyp against the llama.h of the llama.cpp release node-llama-cpp ships (extracted from its
 * llama/gitRelease.bundle) and linked, by rpath, to node-llama-cpp's prebuilt libllama/libggml.
 * Nothing is downloaded beyond what node-gyp needs for Node's headers, and nothing is committed.
 *
 * It never fails the install: without git, a C++ compiler, Python or a prebuilt llama.cpp, the gguf
 * backend falls back to node-llama-cpp's probabilities Map, and build/status.json says why.
 * `--strict` exits 1 on failure instead (for checking a machine by hand).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const addonDir = path.join(root, 'native', 'scorer');
const buildDir = path.join(addonDir, 'build');
const statusFile = path.join(buildDir, 'status.json');
const strict = process.argv.includes('--strict');

function writeStatus(status) {
  mkdirSync(buildDir, { recursive: true });
  writeFileSync(statusFile, `${JSON.stringify({ ...status, at: new Date().toISOString() }, null, 2)}\n`);
}

function run(command, args, options = {}) {
  return execFileSync(command, args, { stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20, ...options });
}

function findLlamaPaths() {
  const require = createRequire(path.join(root, 'package.json'));
  const entry = require.resolve('node-llama-cpp');
  let packageDir = path.dirname(entry);
  while (!existsSync(path.join(packageDir, 'llama', 'gitRelease.bundle'))) {
    const parent = path.dirname(packageDir);
    if (parent === packageDir) throw new Error('node-llama-cpp has no llama/gitRelease.bundle');
    packageDir = parent;
  }
  const platform = `${process.platform}-${process.arch}`;
  // The prebuilt package's exports hide its package.json; resolve its entry and walk up to bins/.
  const prebuilt = createRequire(path.join(packageDir, 'package.json'));
  let binsPackage;
  try {
    binsPackage = path.dirname(prebuilt.resolve(`@node-llama-cpp/${platform}`));
    while (!existsSync(path.join(binsPackage, 'bins')) && path.dirname(binsPackage) !== binsPackage) {
      binsPackage = path.dirname(binsPackage);
    }
  } catch {
    throw new Error(`node-llama-cpp has no prebuilt binaries for ${platform} (@node-llama-cpp/${platform})`);
  }
  const bins = path.join(binsPackage, 'bins', platform);
  const files = readdirSync(bins);
  const llamaLib = files.find((file) => /^libllama(\.v[\d.]+)?\.so$/.test(file));
  const ggmlLib = files.find((file) => /^libggml(\.v[\d.]+)?\.so$/.test(file));
  if (!llamaLib || !ggmlLib || !files.includes('libggml-base.so')) {
    throw new Error(`no libllama/libggml shared libraries in ${bins}`);
  }
  const info = JSON.parse(readFileSync(path.join(packageDir, 'llama', 'llama.cpp.info.json'), 'utf8'));
  return {
    bundle: path.join(packageDir, 'llama', 'gitRelease.bundle'),
    bins,
    llamaLib,
    ggmlLib,
    release: info.tag,
  };
}

/** include/llama.h and ggml/include/*.h at the bundle's commit, into one directory. */
function extractHeaders(bundle, into) {
  const head = run('git', ['bundle', 'list-heads', bundle]).toString().trim().split(/\s+/)[0];
  const marker = path.join(into, 'COMMIT');
  if (existsSync(marker) && readFileSync(marker, 'utf8').trim() === head) return head;
  const clone = path.join(addonDir, 'gen', 'llama.git');
  rmSync(clone, { recursive: true, force: true });
  rmSync(into, { recursive: true, force: true });
  run('git', ['clone', '--quiet', '--bare', bundle, clone]);
  mkdirSync(into, { recursive: true });
  const git = (...args) => run('git', ['--git-dir', clone, ...args]);
  const headers = git('ls-tree', '--name-only', 'HEAD', 'ggml/include/')
    .toString()
    .split('\n')
    .filter((file) => file.endsWith('.h'));
  for (const file of ['include/llama.h', ...headers]) {
    writeFileSync(path.join(into, path.basename(file)), git('show', `HEAD:${file}`));
  }
  rmSync(clone, { recursive: true, force: true });
  writeFileSync(marker, `${head}\n`);
  return head;
}

/** npm sets npm_config_node_gyp in lifecycle scripts; otherwise npm's own copy beside node. */
function nodeGypCommand() {
  const candidates = [
    process.env.npm_config_node_gyp,
    path.join(
      path.dirname(process.execPath),
      '..',
      'lib',
      'node_modules',
      'npm',
      'node_modules',
      'node-gyp',
      'bin',
      'node-gyp.js',
    ),
  ];
  const script = candidates.find((candidate) => candidate && existsSync(candidate));
  return script ? [process.execPath, script] : ['node-gyp'];
}

try {
  if (process.platform === 'win32') throw new Error('the native scorer is built on Linux and macOS only');
  const llama = findLlamaPaths();
  // Outside build/: node-gyp rebuild starts by deleting build/.
  const include = path.join(addonDir, 'gen', 'llama-include');
  const commit = extractHeaders(llama.bundle, include);
  const [command, ...prefix] = nodeGypCommand();
  // Node's own headers when installed beside it (distribution packages, official tarballs): node-gyp
  // then needs no download. npm passes its configured nodedir in the environment itself.
  const prefixDir = path.resolve(path.dirname(process.execPath), '..');
  const nodedir =
    !process.env.npm_config_nodedir && existsSync(path.join(prefixDir, 'include', 'node', 'node_api.h'))
      ? [`--nodedir=${prefixDir}`]
      : [];
  const started = Date.now();
  run(command, [
    ...prefix,
    'rebuild',
    ...nodedir,
    '--directory',
    addonDir,
    '--',
    `-Dllama_include=${include}`,
    `-Dllama_bins=${llama.bins}`,
    `-Dllama_lib=${llama.llamaLib}`,
    `-Dggml_lib=${llama.ggmlLib}`,
  ]);
  const addon = path.join(buildDir, 'Release', 'assay_scorer.node');
  if (!existsSync(addon)) throw new Error(`node-gyp finished but ${addon} is missing`);
  writeStatus({
    ok: true,
    addon,
    llamaCppRelease: llama.release,
    llamaCppCommit: commit,
    bins: llama.bins,
    seconds: (Date.now() - started) / 1000,
  });
  process.stdout.write(`assay: native scorer built (${path.relative(root, addon)})\n`);
} catch (error) {
  // The compiler's own errors, not node-gyp's stack trace.
  const lines = `${error?.stdout ?? ''}\n${error?.stderr ?? ''}`.split('\n');
  const detail = lines
    .filter((line) => /error|not found|No such/i.test(line) && !line.startsWith('gyp ERR! stack'))
    .slice(0, 8)
    .join('\n');
  const reason = `${error instanceof Error ? error.message.split('\n')[0] : String(error)}${detail ? `\n${detail}` : ''}`;
  try {
    writeStatus({ ok: false, reason });
  } catch {
    // A read-only install directory: the loader reports the missing addon on its own.
  }
  process.stderr.write(
    `assay: native scorer not built; gguf scoring will use node-llama-cpp's probabilities Map.\n${reason}\n`,
  );
  if (strict) process.exitCode = 1;
}
