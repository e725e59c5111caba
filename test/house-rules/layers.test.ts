/**
 * The layer table's checks (scripts/check-layers.mjs, run by `npm run lint` over every import of src/):
 * here over small tables, so each rule is seen to refuse what it should, and over the real table, which
 * must be layered and rendered as docs/ARCHITECTURE.md shows it. Scanning src/ needs TypeScript's scanner
 * (about 1.5 CPU s to load), so it stays in the lint.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  checkImports,
  checkTable,
  DOC_FILE,
  type FolderImport,
  type LayerTableJson,
  nodeOf,
  parseTable,
  readTable,
  renderLayers,
  withLayerSection,
} from '../../scripts/check-layers.mjs';
import { repoRoot } from '../support/helpers.js';

const small = parseTable({
  everywhere: ['errors.ts'],
  layers: [
    { 'errors.ts': { holds: 'errors', imports: [] } },
    { stats: { holds: 'statistics', imports: [] } },
    { evaluate: { holds: 'the evaluator', imports: ['stats'] } },
    { results: { holds: 'results', imports: ['evaluate', 'stats'] } },
    { view: { holds: 'the viewer API', imports: ['results'] } },
  ],
  exceptions: [],
});
const present = new Set(['errors.ts', 'stats', 'evaluate', 'results', 'view']);

const edge = (file: string, line: number, specifier: string): FolderImport => {
  const target = path.posix.join(path.posix.dirname(file.replace(/^src\//, '')), specifier);
  return {
    file,
    line,
    specifier,
    from: nodeOf(file.replace(/^src\//, '')),
    to: nodeOf(target),
    target: target.replace(/\.js$/, '.ts'),
  };
};
const allowed = [
  edge('src/view/store.ts', 2, '../results/read-run.js'),
  edge('src/view/store.ts', 4, '../errors.js'),
  edge('src/results/build.ts', 7, '../evaluate/aggregate.js'),
  edge('src/results/build.ts', 8, '../stats/index.js'),
  edge('src/evaluate/aggregate.ts', 3, '../stats/index.js'),
];

describe('the layer check', () => {
  it('finds the node of a file, a layer sub-folder and a file directly in src/', () => {
    expect(nodeOf('python/semantics/regex.ts')).toBe('python/semantics');
    expect(nodeOf('python/codec.ts')).toBe('python');
    expect(nodeOf('models/gguf/engine-worker.ts')).toBe('models');
    expect(nodeOf('errors.ts')).toBe('errors.ts');
    // An import names the compiled file: '../errors.js' is src/errors.ts.
    expect(nodeOf('errors.js')).toBe('errors.ts');
  });

  it('passes imports the table lists', () => {
    expect(checkTable(small)).toEqual([]);
    expect(checkImports(small, allowed, present)).toEqual([]);
  });

  it('refuses a view/ -> evaluate/ import (a type import counts) with its file, line and edge', () => {
    // The folder-cycle check this replaces let it pass: view/ above evaluate/ makes no cycle.
    const problems = checkImports(
      small,
      [...allowed, edge('src/view/store.ts', 3, '../evaluate/plan.js')],
      present,
    );
    expect(problems).toHaveLength(1);
    expect(problems[0].split('\n').slice(0, 2)).toEqual([
      'import view/ -> evaluate/ is not in scripts/layers.json (view/ may import results/, and errors.ts):',
      "  src/view/store.ts:3: imports '../evaluate/plan.js'",
    ]);
    expect(problems[0]).toContain('add "evaluate" to view\'s imports in scripts/layers.json');
  });

  it('lists every import of an edge it refuses', () => {
    const problems = checkImports(
      small,
      [...allowed, edge('src/stats/a.ts', 1, '../view/api.js'), edge('src/stats/b.ts', 9, '../view/api.js')],
      present,
    );
    expect(problems).toHaveLength(1);
    expect(problems[0].split('\n').slice(1, 3)).toEqual([
      "  src/stats/a.ts:1: imports '../view/api.js'",
      "  src/stats/b.ts:9: imports '../view/api.js'",
    ]);
  });

  it('refuses a listed import no file makes any more', () => {
    const problems = checkImports(
      small,
      allowed.filter((item) => item.file !== 'src/results/build.ts' || item.to !== 'stats'),
      present,
    );
    expect(problems).toEqual([
      'scripts/layers.json: results may import stats, but no file of src/results/ does: remove "stats" from its ' +
        'imports and run node scripts/check-layers.mjs --write',
    ]);
  });

  it('refuses a folder of src/ the table does not have, and a node src/ does not have', () => {
    expect(checkImports(small, allowed, new Set([...present, 'kld']))).toEqual([
      'src/kld/ is in no layer of scripts/layers.json: add it to the layer it belongs to',
    ]);
    const gone = new Set(present);
    gone.delete('view');
    expect(checkImports(small, allowed, gone)).toEqual([
      'scripts/layers.json names view, which src/ does not have: remove it',
    ]);
  });

  it('refuses a table import that does not point to a lower layer, unless it is a named exception', () => {
    const sideways = {
      everywhere: [],
      layers: [{ data: { holds: 'data', imports: [] }, python: { holds: 'the bridge', imports: ['data'] } }],
    };
    expect(checkTable(parseTable({ ...sideways, exceptions: [] }))).toEqual([
      'scripts/layers.json: python (layer 0) imports data (layer 0), which is not below it: move a node to ' +
        'another layer, or name the import in "exceptions" with why',
    ]);
    expect(
      checkTable(parseTable({ ...sideways, exceptions: [{ from: 'python', to: 'data', why: 'a reason' }] })),
    ).toEqual([]);
    expect(
      checkTable(parseTable({ ...sideways, exceptions: [{ from: 'python', to: 'data', why: ' ' }] })),
    ).toEqual(['scripts/layers.json: the exception python -> data says no why']);
  });

  it('refuses a cycle made through exceptions', () => {
    const table = parseTable({
      everywhere: [],
      layers: [
        { stats: { holds: 's', imports: ['evaluate'] } },
        { evaluate: { holds: 'e', imports: ['stats'] } },
      ],
      exceptions: [{ from: 'stats', to: 'evaluate', why: 'a reason' }],
    });
    expect(checkTable(table)).toEqual(['scripts/layers.json: import cycle stats -> evaluate -> stats']);
  });
});

describe('a seam within an allowed import', () => {
  // kld/ may import models/, but only through its seam files: never a backend's internals.
  const layered: LayerTableJson = {
    everywhere: [],
    layers: [
      { models: { holds: 'backends', imports: [] } },
      { kld: { holds: 'assay kld', imports: ['models'] } },
    ],
    exceptions: [],
  };
  const seam = {
    from: 'kld',
    to: 'models',
    through: ['models/backend.ts', 'models/spec/', 'models/distribution-comparison.ts'],
    why: 'kld uses its capability through the seam',
  };
  const table = parseTable({ ...layered, seams: [seam] });
  const nodes = new Set(['models', 'kld']);
  const files = new Set([
    'models/backend.ts',
    'models/spec/requests.ts',
    'models/distribution-comparison.ts',
    'models/gguf/engine.ts',
    'kld/kl-divergence.ts',
  ]);
  const through = [
    edge('src/kld/kl-divergence.ts', 13, '../models/distribution-comparison.js'),
    edge('src/kld/kl-divergence.ts', 14, '../models/spec/requests.js'),
    edge('src/kld/kl-divergence.ts', 15, '../models/backend.js'),
  ];

  it('passes imports of the seam files and of files in a seam folder', () => {
    expect(checkTable(table)).toEqual([]);
    expect(checkImports(table, through, nodes, files)).toEqual([]);
  });

  it('refuses kld/ importing models/gguf/ (a folder edge the table allows), naming the file, line and seam', () => {
    const around = edge('src/kld/kl-divergence.ts', 16, '../models/gguf/engine.js');
    // Without the seam the folder edge kld -> models passes: what the seam adds.
    expect(checkImports(parseTable(layered), [...through, around], nodes, files)).toEqual([]);
    const problems = checkImports(table, [...through, around], nodes, files);
    expect(problems).toHaveLength(1);
    expect(problems[0].split('\n').slice(0, 2)).toEqual([
      'import kld/ -> models/ reaches around its seam in scripts/layers.json (kld/ may reach models/ only ' +
        'through models/backend.ts, models/spec/, models/distribution-comparison.ts: kld uses its capability ' +
        'through the seam):',
      "  src/kld/kl-divergence.ts:16: imports '../models/gguf/engine.js' (src/models/gguf/engine.ts)",
    ]);
  });

  it('refuses a seam entry src/ does not have, outside the imported node, or over an import not listed', () => {
    const gone = new Set([...files].filter((file) => file !== 'models/distribution-comparison.ts'));
    expect(checkImports(table, through.slice(1), nodes, gone)).toEqual([
      'scripts/layers.json: the seam kld -> models goes through models/distribution-comparison.ts, which src/ does not have',
    ]);
    expect(
      checkTable(parseTable({ ...layered, seams: [{ ...seam, through: ['kld/x.ts'], why: ' ' }] })),
    ).toEqual([
      'scripts/layers.json: the seam kld -> models goes through kld/x.ts, which is not in models/',
      'scripts/layers.json: the seam kld -> models says no why',
    ]);
    expect(
      checkTable(
        parseTable({ ...layered, seams: [{ ...seam, from: 'models', to: 'kld', through: ['kld/a.ts'] }] }),
      ),
    ).toEqual(["scripts/layers.json: the seam models -> kld narrows an import models's imports do not list"]);
  });

  it('renders each seam below the layer table', () => {
    expect(renderLayers(table)).toContain(
      '- `kld/` → `models/` only through `models/backend.ts`, `models/spec/`, `models/distribution-comparison.ts`: kld uses its capability through the seam',
    );
  });
});

describe('scripts/layers.json', () => {
  const table = readTable();

  it('is layered: every import points to a lower layer or is a named exception, no cycle', () => {
    expect(checkTable(table)).toEqual([]);
  });

  it('holds kld/ and serve/ to the models/ seam: never models/gguf/', () => {
    const seams = Object.fromEntries(table.seams.map((seam) => [`${seam.from} ${seam.to}`, seam.through]));
    for (const from of ['kld', 'serve']) {
      const through = seams[`${from} models`];
      expect(through, from).toContain('models/spec/');
      expect(
        through.some(
          (entry) => 'models/gguf/engine.ts'.startsWith(entry) || entry.startsWith('models/gguf/'),
        ),
      ).toBe(false);
    }
  });

  it('is the layer table docs/ARCHITECTURE.md shows (node scripts/check-layers.mjs --write)', () => {
    const doc = readFileSync(path.join(repoRoot, DOC_FILE), 'utf8');
    expect(withLayerSection(doc, renderLayers(table))).toBe(doc);
  });
});
