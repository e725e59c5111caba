/**
 * The package's public API as designed (src/index.ts's header): one entry per face, each in package.json
 * `exports` with its types, built into dist/ (`npm run build` first). The lists of run-time exports below
 * are the design, written by hand; the type walk holds every exported signature to types the package
 * exports (test/support/public-types.ts); a run's result is plain data.
 */
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { defineTask, diffSuites, runSuite, simpleEvaluate, summarizeSuite } from 'assay';
import { RequestError, scriptedBackend } from 'assay/backend';
import { readSuiteManifest, readSuiteSummary } from 'assay/results';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { repoRoot, tempDir } from './support/helpers.js';
import { unexportedTypes } from './support/public-types.js';

const manifest = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
  exports: Record<string, { types: string; default: string }>;
};
const dist = path.join(repoRoot, 'dist');

/** Each subpath's run-time exports, as designed. */
const VALUES: Record<string, string[]> = {
  assay: [
    'AssayError',
    'ERROR_CODES',
    'PPL_MODES',
    'defineTask',
    'diffSuites',
    'evaluate',
    'mergeShards',
    'mergeSuite',
    'runOptionsSchema',
    'runSuite',
    'simpleEvaluate',
    'suiteFileSchema',
    'summarizeSuite',
    'validateSuite',
  ],
  'assay/backend': [
    'BACKEND_SPECIFICATION_VERSION',
    'CAPABILITY_NAMES',
    'DummyBackend',
    'MemoryResponseCache',
    'RequestError',
    'backendNames',
    'checkBackendSpec',
    'hasChatTemplate',
    'hasGenerationLogprobs',
    'hasTokenScoring',
    'hasUsage',
    'isRequestError',
    'registerBackend',
    'scriptedBackend',
    'unregisterBackend',
    'withResponseCache',
  ],
  'assay/results': [
    'LEADERBOARD_SCHEMA',
    'LEADERBOARD_SCHEMAS_READ',
    'RESULTS_SCHEMA',
    'RESULTS_SCHEMAS_READ',
    'SUITE_MANIFEST_SCHEMA',
    'SUITE_SUMMARY_SCHEMA',
    'groupSummarySchema',
    'headToHeadSchema',
    'leaderboardSchema',
    'leaderboardTaskSchema',
    'loadRun',
    'makeTable',
    'pairEntrySchema',
    'parseLeaderboard',
    'parseResults',
    'parseSuiteManifest',
    'parseSuiteSummary',
    'readLeaderboard',
    'readResultsFile',
    'readSamples',
    'readSuiteManifest',
    'readSuiteSummary',
    'resultsFileSchema',
    'sampleLineSchema',
    'suiteManifestCellSchema',
    'suiteManifestSchema',
    'suiteManifestTaskSchema',
    'suiteSummarySchema',
    'summaryCellSchema',
    'taskSummarySchema',
    'writtenResultsSchema',
    'writtenSampleLineSchema',
  ],
  'assay/compare': [
    'JUDGE_AGREEMENT_STATISTICS',
    'comparePairedScores',
    'compareRuns',
    'diffLeaderboards',
    'gateRuns',
    'loadLeaderboardSide',
    'renderComparison',
    'renderLeaderboardDiff',
  ],
  'assay/testing': ['runBackendConformance', 'runResponseCacheConformance', 'runTokenizerConformance'],
};

/** A few of the statistics docs/statistics.md documents (the module lists many more). */
const SOME_STATS = [
  'adjustPValues',
  'mcnemarTest',
  'pairedTTest',
  'passAtK',
  'proportionConfidenceInterval',
  'tangoScoreTest',
  'wilcoxonSignedRank',
];

/** A folder holding a package that depends on assay, installed as a link to this checkout. */
function consumer(): string {
  const folder = tempDir('assay-public-api-');
  writeFileSync(
    path.join(folder, 'package.json'),
    '{ "type": "module", "dependencies": { "assay": "file:../assay" } }\n',
  );
  mkdirSync(path.join(folder, 'node_modules'));
  symlinkSync(repoRoot, path.join(folder, 'node_modules', 'assay'));
  return folder;
}

/** Paths that are not plain data (a function, a class instance, a Map…) anywhere inside `value`. */
function notPlain(value: unknown, at = 'result'): string[] {
  if (value === null || ['string', 'number', 'boolean', 'undefined'].includes(typeof value)) return [];
  if (Array.isArray(value)) return value.flatMap((item, index) => notPlain(item, `${at}[${index}]`));
  const prototype = typeof value === 'object' ? Object.getPrototypeOf(value) : undefined;
  if (prototype !== Object.prototype && prototype !== null) return [`${at}: ${typeof value}`];
  return Object.entries(value as object).flatMap(([key, item]) => notPlain(item, `${at}.${key}`));
}

describe('the public API', () => {
  it('is one package.json export per face, each with its types, built into dist/', () => {
    expect(Object.keys(manifest.exports)).toEqual([
      '.',
      './backend',
      './results',
      './compare',
      './stats',
      './testing',
    ]);
    for (const [subpath, entry] of Object.entries(manifest.exports)) {
      expect(Object.keys(entry), subpath).toEqual(['types', 'default']);
      expect(entry.default.replace(/\.js$/, '.d.ts'), subpath).toBe(entry.types);
      expect(existsSync(path.join(repoRoot, entry.types)), entry.types).toBe(true);
      expect(existsSync(path.join(repoRoot, entry.default)), entry.default).toBe(true);
    }
  });

  it('resolves each subpath by the package name, at run time and for the type checker', () => {
    const folder = consumer();
    const subpaths = Object.keys(manifest.exports).map((key) =>
      key === '.' ? 'assay' : `assay/${key.slice(2)}`,
    );
    writeFileSync(
      path.join(folder, 'list.mjs'),
      `const out = {};\nfor (const name of ${JSON.stringify(subpaths)}) out[name] = Object.keys(await import(name)).sort();\nconsole.log(JSON.stringify(out));\n`,
    );
    const listed = spawnSync(process.execPath, ['list.mjs'], {
      cwd: folder,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(listed.status, listed.stderr).toBe(0);
    const { 'assay/stats': stats, ...designed } = JSON.parse(listed.stdout) as Record<string, string[]>;
    expect(designed).toEqual(VALUES);
    expect(stats).toEqual(expect.arrayContaining(SOME_STATS));

    const importer = path.join(folder, 'check.ts');
    for (const [key, entry] of Object.entries(manifest.exports)) {
      const name = key === '.' ? 'assay' : `assay/${key.slice(2)}`;
      const { resolvedModule } = ts.resolveModuleName(
        name,
        importer,
        { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext },
        ts.sys,
      );
      expect(resolvedModule && realpathSync(resolvedModule.resolvedFileName), name).toBe(
        path.join(repoRoot, entry.types),
      );
    }
  });

  it('has entry files that only re-export, and that no source file imports', () => {
    const sources = Object.values(manifest.exports).map((entry) =>
      path.join(repoRoot, entry.types.replace(/^\.\/dist\//, 'src/').replace(/\.d\.ts$/, '.ts')),
    );
    for (const source of sources) {
      const file = ts.createSourceFile(source, readFileSync(source, 'utf8'), ts.ScriptTarget.ES2022);
      const local = file.statements.filter(
        (statement) => !(ts.isExportDeclaration(statement) && statement.moduleSpecifier),
      );
      expect(
        local.map((statement) => statement.getText(file)),
        source,
      ).toEqual([]);
    }
    const importers: string[] = [];
    const src = path.join(repoRoot, 'src');
    for (const name of readdirSync(src, { recursive: true }) as string[]) {
      if (!name.endsWith('.ts') || name.endsWith('.test.ts')) continue;
      const file = path.join(src, name);
      for (const { fileName } of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
        const target = path.resolve(path.dirname(file), fileName).replace(/\.js$/, '.ts');
        if (fileName.startsWith('.') && sources.includes(target))
          importers.push(`${name} imports ${fileName}`);
      }
    }
    expect(importers).toEqual([]);
  });

  it('names in its exported signatures only types it exports', () => {
    const entries = Object.values(manifest.exports).map((entry) => path.join(repoRoot, entry.types));
    expect(unexportedTypes(entries, dist)).toEqual([]);
  });

  it('returns plain data from a run: no plans, functions or class instances', async () => {
    const task = defineTask<{ i: number }>({
      name: 'plain',
      docs: [{ i: 1 }, { i: 2 }, { i: 3 }],
      docToText: (doc) => `${doc.i} + ${doc.i} =`,
      docToTarget: (doc) => String(2 * doc.i),
      generationKwargs: { until: ['\n'] },
      processResults: (doc, [answer]) => ({ exact_match: answer === String(2 * doc.i) ? 1 : 0 }),
      aggregation: {
        exact_match: (items) => (items as number[]).reduce((sum, x) => sum + x, 0) / items.length,
      },
      higherIsBetter: { exact_match: true },
    });
    const model = scriptedBackend({
      generate: ({ context }) => (context.startsWith('3') ? new RequestError('no answer') : '2'),
    });
    const result = await simpleEvaluate({ model, tasks: [task] });
    expect(Object.keys(result).sort()).toEqual([
      'erroredSamples',
      'files',
      'groupResults',
      'results',
      'samples',
      'taskResults',
    ]);
    expect(notPlain(result)).toEqual([]);
    // One of the two answered docs is right; the third errored.
    expect(result.taskResults[0]).toMatchObject({ name: 'plain', erroredSamples: 1 });
    expect(result.taskResults[0].metrics[0]).toMatchObject({ metric: 'exact_match', value: 0.5, n: 2 });
    expect(result.samples.plain).toHaveLength(3);
  });
});

describe('suites through the public API', () => {
  it('runs, summarizes and diffs a suite, returning plain data that the readers of assay/results read back', async () => {
    const folder = tempDir('assay-public-suite-');
    const lines = Array.from({ length: 6 }, (_, i) =>
      JSON.stringify({ id: `q${i}`, prompt: `Q${i}?`, targets: ['A'], metric: 'multiple_choice' }),
    );
    writeFileSync(path.join(folder, 'q.jsonl'), `${lines.join('\n')}\n`);
    const suiteFile = path.join(folder, 'suite.yaml');
    writeFileSync(
      suiteFile,
      'version: "1"\nmodels:\n  - { name: d1, model: dummy, model_args: { seed: 1 } }\n  - { name: d2, model: dummy, model_args: { seed: 2 } }\ntasks:\n  - { name: q, task: q.jsonl }\n',
    );
    const suitesDirectory = path.join(folder, 'suites');
    const run = await runSuite({ suiteFile, suiteName: 'a', suitesDirectory });
    expect(notPlain(run)).toEqual([]);
    expect(run.cells.map((cell) => cell.status)).toEqual(['done', 'done']);
    const summarized = await summarizeSuite({ name: 'a', suitesDirectory, bootstrapIterations: 100 });
    expect(notPlain(summarized)).toEqual([]);
    expect(readSuiteSummary(summarized.files.json)).toEqual(summarized.summary);
    const manifest = readSuiteManifest(summarized.files.manifest);
    expect(manifest.cells.map((cell) => [cell.model, cell.status])).toEqual([
      ['d1', 'done'],
      ['d2', 'done'],
    ]);
    // The same suite under another name: nothing moved, every score paired on its 6 docs.
    await runSuite({ suiteFile, suiteName: 'b', suitesDirectory });
    const diff = diffSuites({ before: 'a', after: 'b', suitesDirectory });
    expect(notPlain(diff)).toEqual([]);
    expect(
      diff.scores.map((score) => [score.model, score.method, score.shared_n, score.difference, score.moved]),
    ).toEqual([
      ['d1', 'paired', 6, 0, false],
      ['d2', 'paired', 6, 0, false],
    ]);
  });
});

describe('unexportedTypes', () => {
  it('finds a type named directly, through an exported type, through an import type, and a module type', () => {
    const folder = tempDir('assay-public-types-');
    writeFileSync(path.join(folder, 'package.json'), '{ "type": "module" }\n');
    writeFileSync(
      path.join(folder, 'entry.d.ts'),
      [
        "import type { Inner } from './inner.js';",
        'interface Hidden { a: number }',
        'export interface Shown { inner: Inner }',
        'export declare function make(hidden: Hidden): Shown;',
        "export declare function whole(): typeof import('./inner.js');",
        'export interface Visible { at: Date; items: Array<Visible> }',
        'export declare function fine<T extends Visible>(value: T): Visible;',
        // As tsc writes a declaration file with local types: without it, every declaration is exported.
        'export {};',
        '',
      ].join('\n'),
    );
    writeFileSync(
      path.join(folder, 'inner.d.ts'),
      "export interface Inner { deep: import('./deep.js').Deep }\n",
    );
    writeFileSync(path.join(folder, 'deep.d.ts'), 'export interface Deep { n: number }\n');
    const found = unexportedTypes([path.join(folder, 'entry.d.ts')], realpathSync(folder), []);
    expect(found.sort((a, b) => a.type.localeCompare(b.type))).toEqual([
      { type: 'Deep (deep.d.ts)', namedBy: 'Inner' },
      { type: 'Hidden (entry.d.ts)', namedBy: 'entry.d.ts:make' },
      { type: 'Inner (inner.d.ts)', namedBy: 'entry.d.ts:Shown' },
      { type: "typeof './inner.js'", namedBy: 'entry.d.ts:whole' },
    ]);
  });
});
