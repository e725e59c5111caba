import type { ShardRecord } from '../evaluate/shard.js';
import type { ResultsFile } from './build.js';

/**
 * Marks results.json as one shard of a run: `config.shard` ("i/N", beside lm-eval's config keys),
 * `manifest.shard` (what `assay merge` needs to rebuild the whole run) and `partial`, since a shard's
 * scores cover only its slice of each task. `manifest.limit` keeps describing --limit / --samples alone.
 */
export function recordShard(results: ResultsFile, record: ShardRecord): void {
  results.config.shard = `${record.index}/${record.count}`;
  results.manifest.shard = record;
  results.partial = true;
}

/** The inverse, for a merged run: what a single unsharded run would have written. */
export function withoutShard(results: ResultsFile): ResultsFile {
  const { shard: _configShard, ...config } = results.config;
  const { shard: _manifestShard, ...manifest } = results.manifest;
  return { ...results, config, manifest, partial: results.manifest.limit.used };
}
