#!/usr/bin/env node
/**
 * `npm run lint`, second half: no import cycles between the folders of src/ (Biome's noImportCycles, the
 * first half, checks cycles between files). Every relative import of a non-test source file, value or
 * type, static or dynamic (read with TypeScript's own preProcessFile), is an edge from its folder (the
 * first level under src/; a file directly in src/ is its own node) to the imported file's; a cycle is a
 * strongly connected component of more than one node. No folder cycle is allowed: the layers, from the
 * bottom, are drawn in docs/ARCHITECTURE.md ("Which folder may import which"); the task config types every
 * stage reads live in their own bottom folder, src/task-config/, so that data/, python/ (the bridge),
 * metrics/ and tasks/ stack one way (tasks above data and metrics, metrics above the bridge).
 * Hand-written because no cycle checker is a dependency and this one is ~100 lines over TypeScript's.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'src');

const isSource = (name) =>
  /\.(ts|mts|tsx)$/.test(name) && !name.endsWith('.d.ts') && !/\.test\.[mc]?tsx?$/.test(name);

function sourceFiles(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(full));
    else if (isSource(entry.name)) out.push(full);
  }
  return out;
}

/**
 * Sub-folders that are a layer of their own, below the rest of their folder, and so a node of their own:
 * python/semantics (Python's str, regex, format, random and literal rules, which metrics, stats, sandbox
 * and prompts use) imports nothing from src/ but errors.ts, while the rest of python/ (the bridge to the
 * user's interpreter) sits above it, with task-config/, and below metrics/ (whose filters run Python filter
 * steps) and tasks/. A cycle through such a sub-folder, its parent included, still fails.
 */
const LAYERS = ['python/semantics'];

/** The node of a file: its layer, else its first folder under src/, or the file itself when it sits in src/. */
function nodeOf(file) {
  const relative = path.relative(root, file).split(path.sep);
  const folder = relative.slice(0, -1).join('/');
  const layer = LAYERS.find((name) => folder === name || folder.startsWith(`${name}/`));
  if (layer) return layer;
  return relative.length > 1 ? relative[0] : relative[0].replace(/\.[mc]?[jt]sx?$/, '');
}

/** Folder → folder → the imports that make the edge (for the message). */
const edges = new Map();
for (const file of sourceFiles(root)) {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  for (const { fileName } of importedFiles) {
    if (!fileName.startsWith('.')) continue;
    const target = path.resolve(path.dirname(file), fileName);
    if (!target.startsWith(root + path.sep)) continue;
    const from = nodeOf(file);
    const to = nodeOf(target);
    if (from === to) continue;
    if (!edges.has(from)) edges.set(from, new Map());
    const out = edges.get(from);
    if (!out.has(to)) out.set(to, []);
    out.get(to).push(`${path.relative(root, file)} imports ${fileName}`);
  }
}

/** Tarjan's strongly connected components. */
function components(graph) {
  const nodes = new Set([...graph.keys(), ...[...graph.values()].flatMap((out) => [...out.keys()])]);
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  let counter = 0;
  const visit = (node) => {
    index.set(node, counter);
    low.set(node, counter);
    counter++;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node)?.keys() ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node), low.get(next)));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node), index.get(next)));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const node of [...nodes].sort()) if (!index.has(node)) visit(node);
  return found;
}

const cycles = components(edges);
const problems = [];
for (const cycle of cycles) {
  const lines = [`import cycle between folders of src/: ${cycle.join(', ')}`];
  for (const from of cycle)
    for (const [to, imports] of edges.get(from) ?? [])
      if (cycle.includes(to)) lines.push(`  ${from} -> ${to}: ${imports.slice(0, 3).join('; ')}`);
  problems.push(lines.join('\n'));
}
if (problems.length) {
  process.stderr.write(`${problems.join('\n')}\n`);
  process.exit(1);
}
process.stdout.write('folder import cycles: none\n');
