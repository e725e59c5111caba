/**
 * Every relative link of README.md, CONTRIBUTING.md and docs/*.md leads to a file that exists and, with
 * `#anchor`, to a heading of it as GitHub names it. The checker is first shown to find what it should.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, tempDir } from '../support/helpers.js';
import { brokenLinks, headingAnchors, linksOf } from './markdown-links.js';

describe('the link check', () => {
  it("names headings as GitHub does (README.md's and docs' own anchors)", () => {
    expect([
      ...headingAnchors(
        [
          '# For lm-eval users: vLLM, SGLang, tokenizers, clusters',
          "### `--shard auto`: shards from the cluster's scheduler",
          '## Latency cap: `--max_latency_s`',
          '## Per-run statistics (`results_<time>.json`)',
          '## Statistics: stats.ts',
          '## Statistics: stats.ts',
          '```',
          '# not a heading',
          '```',
          '<a id="kept"></a>',
        ].join('\n'),
      ),
    ]).toEqual([
      // The anchors the README and docs/library.md link to, written against GitHub's pages, and
      // github-slugger's rule for the rest: code spans are literal text, punctuation goes.
      'for-lm-eval-users-vllm-sglang-tokenizers-clusters',
      '--shard-auto-shards-from-the-clusters-scheduler',
      'latency-cap---max_latency_s',
      'per-run-statistics-results_timejson',
      'statistics-statsts',
      'statistics-statsts-1',
      'kept',
    ]);
  });

  it('reads links outside code only, with their lines', () => {
    expect(
      linksOf(
        [
          'See [a](a.md#x) and ![img](pic.png "title"), not [0, 1]:',
          '[−1, 1]: a continuation line, not a definition.',
          '',
          '`[not](a link)` and',
          '```md',
          '[not](either.md)',
          '```',
          '',
          '[ref]: other.md#y',
        ].join('\n'),
      ),
    ).toEqual([
      { line: 1, target: 'a.md#x' },
      { line: 1, target: 'pic.png' },
      { line: 9, target: 'other.md#y' },
    ]);
  });

  it('reports a missing file, a missing heading and an anchor into a folder', () => {
    const root = tempDir('assay-links-');
    mkdirSync(path.join(root, 'docs'));
    writeFileSync(path.join(root, 'docs', 'b.md'), '# Title\n\n## A `code` part\n');
    writeFileSync(
      path.join(root, 'README.md'),
      [
        '[ok](docs/b.md#a-code-part) [ok](docs/b.md) [ok](#here) [web](https://example.com/x#y)',
        '## Here',
        '[gone](docs/c.md) [no heading](docs/b.md#nope)',
        '[folder](docs#x)',
      ].join('\n'),
    );
    expect(brokenLinks(root, ['README.md'])).toEqual([
      'README.md:3: (docs/c.md): no file docs/c.md',
      'README.md:3: (docs/b.md#nope): no heading #nope in docs/b.md',
      'README.md:4: (docs#x): an anchor into docs, which is no Markdown file',
    ]);
  });
});

describe("the repository's docs", () => {
  const files = [
    'README.md',
    'CONTRIBUTING.md',
    ...readdirSync(path.join(repoRoot, 'docs'))
      .filter((name) => name.endsWith('.md'))
      .map((name) => `docs/${name}`),
  ];

  it('link only to files and headings that exist', () => {
    expect(brokenLinks(repoRoot, files)).toEqual([]);
  });

  it('are read: the README links to every page of docs/', () => {
    const linked = new Set(
      linksOf(readFileSync(path.join(repoRoot, 'README.md'), 'utf8')).map(
        ({ target }) => target.split('#')[0],
      ),
    );
    expect(files.filter((file) => file.startsWith('docs/') && !linked.has(file))).toEqual([]);
  });
});
