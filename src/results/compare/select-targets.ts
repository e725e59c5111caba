/**
 * Which (task, metric, filter) rows two runs are compared on. Only leaf tasks have samples; a group named
 * in --tasks expands to its leaf tasks. Without --metric each task is compared on the first metric of its
 * metric list (every filter), so the family that Holm/BH adjusts is one test per task and filter.
 */
import { AssayError, closestNames } from '../../errors.js';
import type { LoadedRun } from '../read-run.js';
import type { ReadResults } from '../schema.js';
import { judgeMismatch } from './judge-match.js';
import type { ComparisonTarget } from './pair-samples.js';

/** What a comparison reads of a run: its results and where its sample logs are (a LoadedRun, a viewed run). */
export type ComparedRun = Pick<LoadedRun, 'resultsFile' | 'results' | 'sampleFiles'>;

export interface TargetSelection {
  targets: ComparisonTarget[];
  /** Tasks present in one run only, or without the requested metric, with the reason. */
  skipped: Array<{ task: string; reason: string }>;
  /** Group → its leaf tasks that were compared (for the pooled group rows). */
  groups: Map<string, string[]>;
}

function leavesOf(results: ReadResults, name: string, seen = new Set<string>()): string[] {
  if (seen.has(name)) return [];
  seen.add(name);
  const children = results.group_subtasks[name];
  if (name in results.configs) return [name];
  if (!children) return [];
  return children.flatMap((child) => leavesOf(results, child, seen));
}

/** `metric,filter` keys of a results entry, in file order (lm-eval's metric_list order). */
function metricKeys(entry: Record<string, unknown> | undefined): Array<{ metric: string; filter: string }> {
  if (!entry) return [];
  return Object.keys(entry)
    .filter((key) => key.includes(','))
    .map((key) => {
      const at = key.indexOf(',');
      return { metric: key.slice(0, at), filter: key.slice(at + 1) };
    })
    .filter(({ metric }) => !metric.endsWith('_stderr') && !metric.endsWith('_ci') && metric !== 'bypass');
}

/**
 * Token perplexity divides by a token count, and two tokenizers cut the same text into different
 * numbers of tokens, so the values are on different scales. bits_per_byte (and word/byte perplexity)
 * divide by counts of the text itself and stay comparable.
 */
function tokenizerMismatch(a: ComparedRun, b: ComparedRun, task: string): string | undefined {
  const left = a.results.perplexity?.[task]?.tokenizer;
  const right = b.results.perplexity?.[task]?.tokenizer;
  const label = (tokenizer: typeof left) =>
    tokenizer
      ? tokenizer.vocab_sha256 === null
        ? `${tokenizer.name} (vocabulary not exposed by its server)`
        : `${tokenizer.name} (vocab ${tokenizer.vocab_size}, sha256 ${tokenizer.vocab_sha256.slice(0, 12)})`
      : 'an unrecorded tokenizer';
  // An unknown vocabulary never matches: equal names do not prove equal token spaces.
  if (
    left &&
    right &&
    left.vocab_sha256 !== null &&
    left.vocab_sha256 === right.vocab_sha256 &&
    left.vocab_size === right.vocab_size
  )
    return undefined;
  return `token_perplexity of ${task} is not compared: run A counted tokens with ${label(left)} and run B with ${label(right)}, and perplexities per token of different tokenizers are on different scales; compare bits_per_byte (tokenizer-independent) instead`;
}

export function selectTargets(
  a: ComparedRun,
  b: ComparedRun,
  options: { tasks?: string[]; metric?: string },
): TargetSelection {
  const skipped: TargetSelection['skipped'] = [];
  const comparable = (task: string) => a.sampleFiles.has(task) && b.sampleFiles.has(task);
  let tasks: string[];
  const groups = new Map<string, string[]>();
  const requested = new Set<string>();
  if (options.tasks?.length) {
    tasks = [];
    for (const name of options.tasks) {
      const leaves = leavesOf(a.results, name);
      if (!leaves.length) {
        const known = [...Object.keys(a.results.configs), ...Object.keys(a.results.group_subtasks)];
        const close = closestNames(name, known);
        throw new AssayError(
          'unknown_task',
          `task ${name} is not in run A (${a.resultsFile})${close.length ? `; did you mean ${close.join(', ')}?` : `; it has ${Object.keys(a.results.configs).join(', ')}`}`,
        );
      }
      for (const leaf of leaves) {
        if (!comparable(leaf)) {
          const which = a.sampleFiles.has(leaf) ? `run B (${b.resultsFile})` : `run A (${a.resultsFile})`;
          throw new AssayError(
            'missing_sample_logs',
            `task ${leaf} has no sample log in ${which}; rerun it with \`logSamples\``,
          );
        }
        requested.add(leaf);
        if (!tasks.includes(leaf)) tasks.push(leaf);
      }
      if (leaves.length > 1 || !(name in a.results.configs)) groups.set(name, leaves);
    }
  } else {
    tasks = [...a.sampleFiles.keys()].filter((task) => {
      if (comparable(task)) return true;
      skipped.push({ task, reason: 'not in run B' });
      return false;
    });
    for (const task of b.sampleFiles.keys())
      if (!a.sampleFiles.has(task)) skipped.push({ task, reason: 'not in run A' });
    // Groups whose leaves were all compared get a pooled row.
    for (const group of Object.keys(a.results.groups ?? {})) {
      const leaves = leavesOf(a.results, group);
      if (leaves.length && leaves.every((leaf) => tasks.includes(leaf))) groups.set(group, leaves);
    }
  }

  const targets: ComparisonTarget[] = [];
  for (const task of tasks) {
    const inA = metricKeys(a.results.results[task]);
    const inB = new Set(
      metricKeys(b.results.results[task]).map(({ metric, filter }) => `${metric},${filter}`),
    );
    const shared = inA.filter(({ metric, filter }) => inB.has(`${metric},${filter}`));
    const metric = options.metric ?? shared[0]?.metric;
    const chosen = shared.filter((key) => key.metric === metric);
    if (!chosen.length) {
      const available = [...new Set(inA.map((key) => key.metric))];
      if (options.metric && requested.has(task)) {
        throw new AssayError(
          'unknown_metric',
          `task ${task} has no metric ${options.metric} in both runs; it has ${available.join(', ') || 'none'}`,
        );
      }
      skipped.push({
        task,
        reason: options.metric
          ? `no metric ${options.metric} (has ${available.join(', ')})`
          : 'no metric shared by both runs',
      });
      continue;
    }
    const refusal =
      metric === 'token_perplexity'
        ? tokenizerMismatch(a, b, task)
        : judgeMismatch(a.results, b.results, task, metric as string);
    if (refusal) {
      if (options.metric && requested.has(task)) throw new AssayError('incompatible_runs', refusal);
      skipped.push({ task, reason: refusal });
      continue;
    }
    const higherIsBetter = a.results.higher_is_better[task]?.[metric as string] ?? true;
    for (const key of chosen) targets.push({ task, metric: key.metric, filter: key.filter, higherIsBetter });
  }
  if (!targets.length) {
    const reasons = skipped.map((entry) => `${entry.task}: ${entry.reason}`).join('; ');
    throw new AssayError(
      'unknown_metric',
      `nothing to compare${options.metric ? ` on metric ${options.metric}` : ''}${reasons ? ` (${reasons})` : ''}`,
    );
  }
  for (const [group, leaves] of groups) {
    const compared = leaves.filter((leaf) => targets.some((target) => target.task === leaf));
    if (compared.length) groups.set(group, compared);
    else groups.delete(group);
  }
  return { targets, skipped, groups };
}
