/**
 * Which overrides matter. An `--include_path` tree such as lm-eval's defines again most of assay's
 * built-in tasks; where both configs are the same (includes merged, comments aside) the override changes
 * nothing and is not reported. The ones that differ are summarised in one warning per pair of folders,
 * and listed in full by `assay ls tasks --overrides`.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SETTLED_MS } from '../util/file-digest.js';
import { type FileStamp, sameStamp, stampOf } from '../util/file-stamp.js';
import type { Comparison } from './config-compare.js';
import type { IndexEntry, TaskOverride } from './index-types.js';

/** Bumped whenever what a comparison records changes. */
const FORMAT = 2;

interface CachedComparison extends Comparison {
  /** Every file both definitions read, with its stamp (util/file-stamp.ts) when compared. */
  files: Array<[file: string, ...stamp: FileStamp]>;
}

/**
 * Comparisons kept between commands in `<cacheDir>/overrides-<roots>.json`: loading both configs of
 * lm-eval's ~80 overrides of the built-in tasks costs ~60 ms of CPU on every command, reading this file
 * and stat-ing their files a few. An entry is used only while every file it read has the same stamp
 * (size, mtime, ctime and inode: the index cache's rule).
 */
export class OverrideComparisons {
  private readonly known: Map<string, CachedComparison>;
  private readonly fresh = new Map<string, CachedComparison>();
  private changed = false;

  constructor(private readonly file: string | undefined) {
    this.known = new Map();
    if (!file) return;
    try {
      const cache = JSON.parse(readFileSync(file, 'utf8')) as {
        format: number;
        pairs: Record<string, CachedComparison>;
      };
      if (cache.format === FORMAT)
        for (const [key, value] of Object.entries(cache.pairs)) this.known.set(key, value);
    } catch {}
  }

  /** The cache of a set of roots, in `cacheDir` (none: nothing is kept). */
  static forRoots(cacheDir: string | undefined, roots: readonly string[]): OverrideComparisons {
    if (cacheDir === undefined) return new OverrideComparisons(undefined);
    const key = createHash('sha256').update(JSON.stringify(roots)).digest('hex').slice(0, 24);
    return new OverrideComparisons(path.join(cacheDir, `overrides-${key}.json`));
  }

  /**
   * Whether each pair's configs are the same: from the cache while the files they read are unchanged, the
   * others loaded and compared (the YAML loader is imported only then: a warm listing needs none).
   */
  async compareAll(pairs: ReadonlyArray<[used: IndexEntry, replaced: IndexEntry]>): Promise<Comparison[]> {
    let compare: typeof import('./config-compare.js').compareConfigs | undefined;
    const out: Comparison[] = [];
    for (const [used, replaced] of pairs) {
      const key = `${used.path}\u0000${replaced.path}`;
      const cached = this.known.get(key);
      if (cached?.files.every(([file, ...stamp]) => sameStamp(file, stamp))) {
        this.fresh.set(key, cached);
        out.push({ sameConfig: cached.sameConfig, differingKeys: cached.differingKeys });
        continue;
      }
      compare ??= (await import('./config-compare.js')).compareConfigs;
      out.push(this.kept(key, compare(used, replaced)));
    }
    return out;
  }

  /** A fresh comparison, kept for the next command when every file it read has settled. */
  private kept(key: string, { files, ...comparison }: Comparison & { files: string[] }): Comparison {
    this.changed = true;
    const settled = Date.now() - SETTLED_MS;
    const stamps: CachedComparison['files'] = [];
    for (const file of new Set(files)) {
      const stats = statSync(file, { throwIfNoEntry: false });
      // A file changed in the last seconds could change again within the same mtime: not kept.
      if (!stats || stats.mtimeMs >= settled) return comparison;
      stamps.push([file, ...stampOf(stats)]);
    }
    if (stamps.length) this.fresh.set(key, { ...comparison, files: stamps });
    return comparison;
  }

  /**
   * The files this index's `count` comparisons read, with their stamps; undefined when one was
   * not kept (its files changed in the last seconds), so that nothing made from it is cached either.
   */
  stamps(count: number): CachedComparison['files'] | undefined {
    if (this.fresh.size !== count) return undefined;
    const files = new Map<string, CachedComparison['files'][number]>();
    for (const comparison of this.fresh.values())
      for (const stamp of comparison.files) files.set(stamp[0], stamp);
    return [...files.values()];
  }

  /** Writes the comparisons of this index (and only those) when any was made afresh. */
  save(): void {
    if (!this.file || !(this.changed || this.fresh.size !== this.known.size)) return;
    try {
      mkdirSync(path.dirname(this.file), { recursive: true });
      const staged = `${this.file}.${process.pid}.tmp`;
      writeFileSync(staged, JSON.stringify({ format: FORMAT, pairs: Object.fromEntries(this.fresh) }));
      renameSync(staged, this.file);
    } catch {
      // A cache that cannot be written only costs the next command the comparisons.
    }
  }
}

const LISTED_NAMES = 8;

function counted(count: number, singular: string, adjective: string): string {
  return `${count} ${adjective}${singular}${count === 1 ? '' : 's'}`;
}

/** lm-eval's own task tree (`--include_path lm_eval`, or its folder named directly). */
function isLmEvalTree(root: string): boolean {
  return /(^|[/\\])lm_eval[/\\]tasks[/\\]?$/.test(root);
}

/**
 * One line per (replaced folder, replacing folder) with overrides whose configs differ: "60 built-in tasks
 * are replaced by lm-eval's versions, whose configs differ: humaneval, …; `assay ls tasks --overrides`
 * lists them".
 */
export function overrideSummaries(overrides: readonly TaskOverride[]): string[] {
  const groups = new Map<string, TaskOverride[]>();
  for (const override of overrides) {
    if (override.sameConfig) continue;
    const key = `${override.replacedRoot}\u0000${override.root}`;
    groups.set(key, [...(groups.get(key) ?? []), override]);
  }
  return [...groups.values()].map((group) => {
    const first = group[0];
    const tasks = group.filter((entry) => entry.kind === 'task').length;
    const adjective = first.builtin ? 'built-in ' : '';
    const nouns = [
      ...(tasks ? [counted(tasks, 'task', adjective)] : []),
      ...(group.length - tasks ? [counted(group.length - tasks, 'group', adjective)] : []),
    ].join(' and ');
    const what = first.builtin ? nouns : `${nouns} of ${first.replacedRoot}`;
    const versions = `version${group.length === 1 ? '' : 's'}`;
    const by = isLmEvalTree(first.root) ? `lm-eval's ${versions}` : `the ${versions} in ${first.root}`;
    const names = group.map((entry) => entry.name).sort();
    const shown =
      names.length > LISTED_NAMES
        ? `${names.slice(0, LISTED_NAMES).join(', ')}, … (${names.length - LISTED_NAMES} more)`
        : names.join(', ');
    return `${what} ${group.length === 1 ? 'is' : 'are'} replaced by ${by}, whose config${group.length === 1 ? ' differs' : 's differ'}: ${shown}; \`assay ls tasks --overrides\` lists them`;
  });
}
