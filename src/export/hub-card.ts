/**
 * The dataset card (README.md) of a Hub repo that holds runs in lm-eval's layout, rebuilt from every
 * file in the repo at each export, as lm-eval's EvaluationTracker.recreate_metadata_card does: one
 * config per model's aggregated results (`<folder>__results`) and one per model and task
 * (`<folder>__<task>`), each with a split named after its newest run and a `latest` split, so
 * `load_dataset(repo, "<folder>__<task>", split="latest")` reads the newest sample log. Paths are the
 * files' own (lm-eval writes `**` globs, which also match other models' files of the same name).
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as Yaml from 'yaml';
import { isResultsFileName, parseSamplesFileName, stampOf } from '../results/run-files.js';

/** The `yaml` package, loaded when a card is built, not when `assay run` loads this module. */
const requireModule = createRequire(import.meta.url);
const stringify = (value: unknown, options: { lineWidth: number }): string =>
  (requireModule('yaml') as typeof Yaml).stringify(value, options);

export interface CardInput {
  /** Every file path in the repo after this commit (README.md aside). */
  files: string[];
  modelName: string;
  assayVersion: string;
  /** The `results` block of the run being exported, shown as the latest results. */
  latestResults: unknown;
  leaderboardUrl?: string;
  pointOfContact?: string;
  /** Why the run being exported is partial (a limit, errored or timed-out docs); empty when it is whole. */
  partialReasons?: string[];
}

interface ConfigFile {
  config: string;
  stamp: string;
  path: string;
}

/** lm-eval's sanitize_task_name (`\W` → `_`). */
function configPart(text: string): string {
  return text.replace(/\W/g, '_');
}

function configFile(file: string): ConfigFile | undefined {
  const name = path.posix.basename(file);
  const folder = path.posix.dirname(file);
  if (folder === '.') return undefined;
  const model = folder.split('/').join('__');
  if (isResultsFileName(name) && name.startsWith('results_')) {
    const stamp = stampOf(name);
    if (stamp) return { config: `${model}__results`, stamp, path: file };
  }
  const samples = parseSamplesFileName(name);
  if (samples) return { config: `${model}__${configPart(samples.task)}`, stamp: samples.stamp, path: file };
  return undefined;
}

/** A split name the Hub accepts: the run's time with every character but letters, digits, `_` and `.` as `_`. */
export function splitName(stamp: string): string {
  return stamp.replace(/[^\w.]/g, '_');
}

/** Says, above the latest results, that they cover only part of the run's docs and why. */
export function partialSection(reasons: string[]): string[] {
  if (reasons.length === 0) return [];
  return [
    '## Partial run',
    '',
    'The latest results cover only part of their docs, so they are not comparable with a full run:',
    '',
    ...reasons.map((reason) => `- ${reason}`),
    '',
  ];
}

export function buildDatasetCard(input: CardInput): string {
  const byConfig = new Map<string, ConfigFile[]>();
  for (const file of input.files) {
    const entry = configFile(file);
    if (!entry) continue;
    const list = byConfig.get(entry.config) ?? [];
    list.push(entry);
    byConfig.set(entry.config, list);
  }
  const configs = [...byConfig.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([config, entries]) => {
      const newest =
        entries
          .map((entry) => entry.stamp)
          .sort()
          .at(-1) ?? '';
      // The results repo's `org/model/` and the details repo's `org__model/` may be one repo: one copy each.
      const byName = new Map<string, string>();
      for (const entry of entries)
        if (entry.stamp === newest && !byName.has(path.posix.basename(entry.path)))
          byName.set(path.posix.basename(entry.path), entry.path);
      const paths = [...byName.values()];
      return {
        config_name: config,
        data_files: [
          { split: splitName(newest), path: paths },
          { split: 'latest', path: paths },
        ],
      };
    });
  const pretty = `Evaluation run of ${input.modelName}`;
  const header: Record<string, unknown> = { pretty_name: pretty };
  if (input.leaderboardUrl) header.leaderboard_url = input.leaderboardUrl;
  if (input.pointOfContact) header.point_of_contact = input.pointOfContact;
  header.configs = configs;
  const body = [
    `# ${pretty}`,
    '',
    `Written by assay ${input.assayVersion} in lm-evaluation-harness's layout. Each configuration holds one model's`,
    'aggregated results (`<model>__results`) or its per-sample results on one task (`<model>__<task>`); its',
    'splits are the newest run, named by its time, and `latest`.',
    '',
    ...partialSection(input.partialReasons ?? []),
    '## Latest results',
    '',
    '```json',
    JSON.stringify(input.latestResults, null, 2),
    '```',
    '',
  ].join('\n');
  return `---\n${stringify(header, { lineWidth: 0 })}---\n\n${body}`;
}
