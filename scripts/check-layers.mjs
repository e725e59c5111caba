#!/usr/bin/env node
/**
 * `npm run lint`, second half (Biome's noImportCycles, the first half, checks cycles between files): every
 * import between the folders of src/ is one that scripts/layers.json allows. Every relative import of a
 * non-test source file, value or type, static or dynamic (read with TypeScript's own preProcessFile), is an
 * edge from its node (the first folder under src/, a layer sub-folder such as python/semantics, or a file
 * directly in src/) to the imported file's. The lint fails, naming the file, the line and the edge, on an
 * edge the table does not list; it also fails when the table lists an edge no file makes any more, names a
 * node src/ does not have or misses one it has, lists an import that does not point to a lower layer
 * without naming it an exception, or when docs/ARCHITECTURE.md's layer table is not the one the table
 * renders (`node scripts/check-layers.mjs --write` rewrites that section). Within an edge the table
 * allows, a `seams` entry narrows which files of the imported node the importer may reach (kld/ reaches
 * models/ only through its seam files, never models/gguf/): an import of any other file fails the lint.
 *
 * The checks over the table are plain functions of values, exported for test/house-rules/layers.test.ts;
 * TypeScript is loaded only to scan src/. Hand-written because no import-rule checker is a dependency
 * (dependency-cruiser would be one, for ~200 lines here over TypeScript's own scanner).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const TABLE_FILE = 'scripts/layers.json';
export const DOC_FILE = 'docs/ARCHITECTURE.md';
const DOC_START =
  '<!-- layers: generated from scripts/layers.json by `node scripts/check-layers.mjs --write`; `npm run lint` fails when it differs -->';
const DOC_END = '<!-- /layers -->';

/** The table as the checks use it: nodes in layer order, from the bottom. */
export function parseTable(json) {
  const nodes = [];
  json.layers.forEach((layer, rank) => {
    for (const [name, entry] of Object.entries(layer))
      nodes.push({ name, rank, holds: entry.holds, imports: entry.imports });
  });
  return { everywhere: json.everywhere, nodes, exceptions: json.exceptions, seams: json.seams ?? [] };
}

export function readTable(root = repoRoot) {
  return parseTable(JSON.parse(readFileSync(path.join(root, TABLE_FILE), 'utf8')));
}

/** Sub-folders that are a node of their own (a layer below the rest of their folder). */
const SUB_LAYERS = ['python/semantics'];

/** The node of a file, from its path relative to src/ with `/` separators. */
export function nodeOf(relative) {
  const parts = relative.split('/');
  const folder = parts.slice(0, -1).join('/');
  const sub = SUB_LAYERS.find((name) => folder === name || folder.startsWith(`${name}/`));
  if (sub) return sub;
  return parts.length > 1 ? parts[0] : parts[0].replace(/\.[mc]?js$/, '.ts').replace(/\.tsx$/, '.ts');
}

const display = (name) => (name.endsWith('.ts') ? name : `${name}/`);

/** Problems of the table alone: unknown names, imports that do not point down, exceptions, cycles. */
export function checkTable(table) {
  const problems = [];
  const byName = new Map();
  for (const node of table.nodes) {
    if (byName.has(node.name)) problems.push(`${TABLE_FILE}: ${node.name} is in two layers`);
    byName.set(node.name, node);
  }
  for (const name of table.everywhere)
    if (!byName.has(name)) problems.push(`${TABLE_FILE}: "everywhere" names ${name}, which is in no layer`);
  const exception = (from, to) => table.exceptions.find((entry) => entry.from === from && entry.to === to);
  for (const node of table.nodes) {
    for (const to of node.imports) {
      const target = byName.get(to);
      if (!target) problems.push(`${TABLE_FILE}: ${node.name} imports ${to}, which is in no layer`);
      else if (target.rank >= node.rank && !exception(node.name, to))
        problems.push(
          `${TABLE_FILE}: ${node.name} (layer ${node.rank}) imports ${to} (layer ${target.rank}), which is not ` +
            'below it: move a node to another layer, or name the import in "exceptions" with why',
        );
    }
  }
  for (const entry of table.exceptions) {
    if (!byName.get(entry.from)?.imports.includes(entry.to))
      problems.push(
        `${TABLE_FILE}: the exception ${entry.from} -> ${entry.to} is not in ${entry.from}'s imports`,
      );
    if (!entry.why?.trim())
      problems.push(`${TABLE_FILE}: the exception ${entry.from} -> ${entry.to} says no why`);
  }
  for (const seam of table.seams) {
    const name = `the seam ${seam.from} -> ${seam.to}`;
    if (!byName.get(seam.from)?.imports.includes(seam.to))
      problems.push(`${TABLE_FILE}: ${name} narrows an import ${seam.from}'s imports do not list`);
    if (!seam.through?.length) problems.push(`${TABLE_FILE}: ${name} names no file to go through`);
    for (const entry of seam.through ?? [])
      if (!entry.startsWith(`${seam.to}/`))
        problems.push(`${TABLE_FILE}: ${name} goes through ${entry}, which is not in ${display(seam.to)}`);
    if (!seam.why?.trim()) problems.push(`${TABLE_FILE}: ${name} says no why`);
  }
  // Exceptions are the only way up, so the only way to a cycle.
  const state = new Map();
  const visit = (name, trail) => {
    if (state.get(name) === 'done') return;
    if (state.get(name) === 'open') {
      problems.push(
        `${TABLE_FILE}: import cycle ${[...trail.slice(trail.indexOf(name)), name].join(' -> ')}`,
      );
      return;
    }
    state.set(name, 'open');
    for (const to of byName.get(name)?.imports ?? []) visit(to, [...trail, name]);
    state.set(name, 'done');
  };
  for (const node of table.nodes) visit(node.name, []);
  return problems;
}

/** Whether a file (relative to src/) is one a seam's `through` entry names: the file, or a file in the folder. */
const throughMatches = (entry, target) => (entry.endsWith('/') ? target.startsWith(entry) : target === entry);

/**
 * Problems of src/ against the table. `imports`: every import between two nodes, as
 * `{ file, line, specifier, from, to, target }` (file relative to the repository, target the imported
 * file relative to src/); `present`: the nodes src/ has; `files`, when given, every source file of src/
 * (relative to it), against which the seams' entries are checked.
 */
export function checkImports(table, imports, present, files) {
  const problems = [];
  const byName = new Map(table.nodes.map((node) => [node.name, node]));
  for (const name of present)
    if (!byName.has(name))
      problems.push(
        `src/${display(name)} is in no layer of ${TABLE_FILE}: add it to the layer it belongs to`,
      );
  for (const node of table.nodes)
    if (!present.has(node.name))
      problems.push(`${TABLE_FILE} names ${node.name}, which src/ does not have: remove it`);
  const unlisted = new Map();
  const made = new Set();
  for (const edge of imports) {
    made.add(`${edge.from} ${edge.to}`);
    const node = byName.get(edge.from);
    if (!node || table.everywhere.includes(edge.to) || node.imports.includes(edge.to)) continue;
    const key = `${edge.from} -> ${edge.to}`;
    if (!unlisted.has(key)) unlisted.set(key, []);
    unlisted.get(key).push(edge);
  }
  for (const [key, edges] of unlisted) {
    const [from, to] = key.split(' -> ');
    const allowed = byName.get(from).imports;
    const lines = edges.map((edge) => `  ${edge.file}:${edge.line}: imports '${edge.specifier}'`);
    problems.push(
      [
        `import ${display(from)} -> ${display(to)} is not in ${TABLE_FILE} (${display(from)} may import ` +
          `${allowed.length ? allowed.map(display).join(', ') : 'nothing'}, and ${table.everywhere.join(', ')}):`,
        ...lines,
        `  Import what you need through a layer ${from} may use, or move the code. If the layering itself should ` +
          `change, add "${to}" to ${from}'s imports in ${TABLE_FILE} (an import of a node that is not in a lower ` +
          `layer also needs an entry in "exceptions" with why) and run node scripts/check-layers.mjs --write.`,
      ].join('\n'),
    );
  }
  for (const seam of table.seams) {
    const around = imports.filter(
      (edge) =>
        edge.from === seam.from &&
        edge.to === seam.to &&
        !seam.through.some((entry) => throughMatches(entry, edge.target)),
    );
    if (around.length)
      problems.push(
        [
          `import ${display(seam.from)} -> ${display(seam.to)} reaches around its seam in ${TABLE_FILE} ` +
            `(${display(seam.from)} may reach ${display(seam.to)} only through ${seam.through.join(', ')}: ${seam.why}):`,
          ...around.map(
            (edge) => `  ${edge.file}:${edge.line}: imports '${edge.specifier}' (src/${edge.target})`,
          ),
          `  Import it through the seam (or add what you need to it), or, if the seam itself should change, ` +
            `its "through" list in ${TABLE_FILE} and run node scripts/check-layers.mjs --write.`,
        ].join('\n'),
      );
    if (files)
      for (const entry of seam.through)
        if (![...files].some((file) => throughMatches(entry, file)))
          problems.push(
            `${TABLE_FILE}: the seam ${seam.from} -> ${seam.to} goes through ${entry}, which src/ does not have`,
          );
  }
  for (const node of table.nodes)
    for (const to of node.imports)
      if (!made.has(`${node.name} ${to}`) && present.has(node.name))
        problems.push(
          `${TABLE_FILE}: ${node.name} may import ${to}, but no file of src/${display(node.name)} does: remove ` +
            `"${to}" from its imports and run node scripts/check-layers.mjs --write`,
        );
  return problems;
}

/** docs/ARCHITECTURE.md's layer table, top layer first (imports point down the page). */
export function renderLayers(table) {
  const code = (name) => `\`${display(name)}\``;
  const rows = [...table.nodes]
    .sort((a, b) => b.rank - a.rank)
    .map((node) => {
      const imports = node.imports.length ? node.imports.map(code).join(', ') : '—';
      return `| ${node.rank} | ${code(node.name)} | ${imports} | ${node.holds} |`;
    });
  const exceptions = table.exceptions.length
    ? table.exceptions.map((entry) => `- ${code(entry.from)} → ${code(entry.to)}: ${entry.why}`)
    : ['Imports against the layering (`exceptions`): none.'];
  const seams = table.seams.length
    ? [
        '',
        'Imports narrowed to a seam (`seams`): the importer reaches the imported node only through these files.',
        '',
        ...table.seams.map(
          (seam) =>
            `- ${code(seam.from)} → ${code(seam.to)} only through ${seam.through.map((entry) => `\`${entry}\``).join(', ')}: ${seam.why}`,
        ),
      ]
    : [];
  return [
    DOC_START,
    `| layer | node | imports (and ${table.everywhere.map((name) => `\`${name}\``).join(', ')}, which any node may import) | holds |`,
    '|---:|---|---|---|',
    ...rows,
    '',
    ...exceptions,
    ...seams,
    DOC_END,
  ].join('\n');
}

/** The doc with its layer section replaced, or undefined when it has no section markers. */
export function withLayerSection(doc, section) {
  const start = doc.indexOf(DOC_START);
  const end = doc.indexOf(DOC_END);
  if (start < 0 || end < start) return undefined;
  return doc.slice(0, start) + section + doc.slice(end + DOC_END.length);
}

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

/** Every import between two nodes of src/, and the nodes src/ has. */
async function scanSource(root) {
  const { default: ts } = await import('typescript');
  const src = path.join(root, 'src');
  const relativeToSrc = (file) => path.relative(src, file).split(path.sep).join('/');
  const imports = [];
  const present = new Set();
  const files = new Set();
  for (const file of sourceFiles(src)) {
    const from = nodeOf(relativeToSrc(file));
    present.add(from);
    files.add(relativeToSrc(file));
    const text = readFileSync(file, 'utf8');
    for (const { fileName, pos } of ts.preProcessFile(text, true, true).importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const target = path.resolve(path.dirname(file), fileName);
      if (!target.startsWith(src + path.sep)) continue;
      const to = nodeOf(relativeToSrc(target));
      if (to === from) continue;
      const line = text.slice(0, pos).split('\n').length;
      const imported = relativeToSrc(target).replace(/\.([mc]?)js$/, '.$1ts');
      imports.push({
        file: path.relative(root, file),
        line,
        specifier: fileName,
        from,
        to,
        target: imported,
      });
    }
  }
  return { imports, present, files };
}

async function main() {
  const write = process.argv.includes('--write');
  const table = readTable();
  const problems = checkTable(table);
  const { imports, present, files } = await scanSource(repoRoot);
  problems.push(...checkImports(table, imports, present, files));
  const docPath = path.join(repoRoot, DOC_FILE);
  const doc = readFileSync(docPath, 'utf8');
  const updated = withLayerSection(doc, renderLayers(table));
  if (updated === undefined)
    problems.push(`${DOC_FILE}: the layer section's markers are missing (${DOC_START})`);
  else if (updated !== doc) {
    if (write) writeFileSync(docPath, updated);
    else
      problems.push(
        `${DOC_FILE}: the layer table is not the one ${TABLE_FILE} gives: run node scripts/check-layers.mjs --write`,
      );
  }
  if (problems.length) {
    process.stderr.write(`${problems.join('\n')}\n`);
    process.exitCode = 1;
    return;
  }
  const edges = new Set(imports.map((edge) => `${edge.from} ${edge.to}`)).size;
  process.stdout.write(`layers: ${present.size} nodes, ${edges} folder imports, all in ${TABLE_FILE}\n`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) await main();
