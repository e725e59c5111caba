/**
 * compare and gate refuse runs with errored samples: a task whose requests partly failed has scores over
 * the answered docs only, and a verdict on them would look like one on the whole task. `--allow_errors`
 * compares the answered docs anyway. Checked when the runs are loaded, before any statistics.
 */
import { readFileSync } from 'node:fs';
import { AssayError } from '../../errors.js';
import { type LoadedRun, loadRun } from '../read-run.js';

/** Task → errored samples: results.json's `errors.by_task`, or counted in the sample logs of older runs. */
export function erroredSamplesOf(run: Pick<LoadedRun, 'results' | 'sampleFiles'>): Record<string, number> {
  if (run.results.errors) return run.results.errors.by_task;
  const counts: Record<string, number> = {};
  for (const [task, file] of run.sampleFiles) {
    const docs = new Set<number>();
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      // Parse only the lines that can hold an error: sample logs are large.
      if (!line.includes('"error"')) continue;
      try {
        const value = JSON.parse(line) as { doc_id?: unknown; error?: unknown };
        if (typeof value.error === 'string' && typeof value.doc_id === 'number') docs.add(value.doc_id);
      } catch {
        // a bad line is the pairing reader's to report
      }
    }
    if (docs.size) counts[task] = docs.size;
  }
  return counts;
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
 * Throws (exit 2) when a run has errored samples in the selected tasks, unless `allowErrors`; with it,
 * returns one warning per such run.
 */
export function checkErroredRuns(
  runs: Array<{ role: string; location: string }>,
  options: { allowErrors: boolean; tasks?: string[] },
): string[] {
  const warnings: string[] = [];
  for (const { role, location } of runs) {
    const run = loadRun(location);
    const counts = Object.entries(erroredSamplesOf(run)).filter(
      ([task, count]) => count > 0 && inSelection(run, task, options.tasks),
    );
    if (!counts.length) continue;
    const total = counts.reduce((sum, [, count]) => sum + count, 0);
    const where = counts.map(([task, count]) => `${task}: ${count}`).join(', ');
    if (!options.allowErrors) {
      throw new AssayError(
        'incompatible_runs',
        `the ${role} run has ${total} errored samples (${where}): its scores cover only the answered docs, so a comparison would mislead. Rerun it (with \`useCache\` only the failed requests are sent again), or pass \`allowErrors\` to compare the docs answered in both runs`,
        { location: { file: run.resultsFile } },
      );
    }
    warnings.push(
      `the ${role} run has ${total} errored samples (${where}); \`allowErrors\`: comparing the docs answered in both runs`,
    );
  }
  return warnings;
}
