/**
 * compare and gate refuse runs with errored samples: a task whose requests partly failed has scores over
 * the answered docs only, and a verdict on them would look like one on the whole task. `--allow_errors`
 * compares the answered docs anyway. Timed-out docs (over a run's latency cap) are refused the same way
 * unless `timeoutsAs` counts them as wrong or skips them. Checked when the runs are loaded, before any
 * statistics; pairing (pair-samples.ts) applies the same rule to each task.
 */
import { readFileSync } from 'node:fs';
import { AssayError } from '../../errors.js';
import { type LoadedRun, loadRun } from '../read-run.js';
import type { TimeoutTreatment } from './pair-samples.js';

/** Task → docs of its sample log whose line has `key` (parsing only the lines that mention it). */
function countInSampleLogs(
  run: Pick<LoadedRun, 'results' | 'sampleFiles'>,
  key: 'error' | 'timed_out',
): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const [task, file] of run.sampleFiles) {
    const docs = new Set<number>();
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      // Parse only the lines that can hold the key: sample logs are large.
      if (!line.includes(`"${key}"`)) continue;
      try {
        const value = JSON.parse(line) as { doc_id?: unknown; error?: unknown; timed_out?: unknown };
        const has = key === 'error' ? typeof value.error === 'string' : value.timed_out === true;
        if (has && typeof value.doc_id === 'number') docs.add(value.doc_id);
      } catch {
        // a bad line is the pairing reader's to report
      }
    }
    if (docs.size) counts[task] = docs.size;
  }
  return counts;
}

/** Task → errored samples: results.json's `errors.by_task`, or counted in the sample logs of older runs. */
export function erroredSamplesOf(run: Pick<LoadedRun, 'results' | 'sampleFiles'>): Record<string, number> {
  if (run.results.errors) return run.results.errors.by_task;
  return countInSampleLogs(run, 'error');
}

/** Task → timed-out samples: results.json's `timeouts.by_task`, or counted in the sample logs. */
export function timedOutSamplesOf(run: Pick<LoadedRun, 'results' | 'sampleFiles'>): Record<string, number> {
  if (run.results.timeouts) return run.results.timeouts.by_task;
  return countInSampleLogs(run, 'timed_out');
}

function inSelection(run: LoadedRun, task: string, selected: string[] | undefined): boolean {
  if (!selected) return true;
  const seen = new Set<string>();
  const contains = (name: string): boolean => {
    if (name === task) return true;
    if (seen.has(name)) return false;
    seen.add(name);
    return (run.results.group_subtasks[name] ?? []).some(contains);
  };
  return selected.some(contains);
}

/**
 * Throws (exit 2) when a run has errored samples in the selected tasks, unless `allowErrors`, or
 * timed-out docs, unless `timeoutsAs` is `wrong` or `skip`; otherwise returns one warning per such run.
 */
export function checkErroredRuns(
  runs: Array<{ role: string; location: string }>,
  options: { allowErrors: boolean; timeoutsAs?: TimeoutTreatment; tasks?: string[] },
): string[] {
  const warnings: string[] = [];
  const timeoutsAs = options.timeoutsAs ?? 'refuse';
  for (const { role, location } of runs) {
    const run = loadRun(location);
    const selected = (counts: Record<string, number>) => {
      const entries = Object.entries(counts).filter(
        ([task, count]) => count > 0 && inSelection(run, task, options.tasks),
      );
      return {
        total: entries.reduce((sum, [, count]) => sum + count, 0),
        where: entries.map(([task, count]) => `${task}: ${count}`).join(', '),
      };
    };
    const errored = selected(erroredSamplesOf(run));
    if (errored.total > 0) {
      if (!options.allowErrors) {
        throw new AssayError(
          'incompatible_runs',
          `the ${role} run has ${errored.total} errored samples (${errored.where}): its scores cover only the answered docs, so a comparison would mislead. Rerun it (with \`useCache\` only the failed requests are sent again), or pass \`allowErrors\` to compare the docs answered in both runs`,
          { location: { file: run.resultsFile } },
        );
      }
      warnings.push(
        `the ${role} run has ${errored.total} errored samples (${errored.where}); \`allowErrors\`: comparing the docs answered in both runs`,
      );
    }
    const late = selected(timedOutSamplesOf(run));
    if (late.total > 0) {
      const cap = run.results.timeouts ? ` of ${run.results.timeouts.max_latency_s} s` : '';
      const docs = `${late.total} timed-out docs (${late.where}) over its latency cap${cap}`;
      if (timeoutsAs === 'refuse') {
        throw new AssayError(
          'incompatible_runs',
          `the ${role} run has ${docs}: they have no score, so a verdict on the answered docs alone would mislead. Rerun without the cap, or set \`timeoutsAs\` to 'wrong' (count them as wrong) or 'skip' (compare the docs answered in both runs)`,
          { location: { file: run.resultsFile, field: 'timeoutsAs' } },
        );
      }
      warnings.push(
        timeoutsAs === 'wrong'
          ? `the ${role} run has ${docs}; \`timeoutsAs\` wrong: each counts as wrong`
          : `the ${role} run has ${docs}; \`timeoutsAs\` skip: comparing the docs answered in both runs`,
      );
    }
  }
  return warnings;
}
