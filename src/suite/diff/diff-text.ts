/**
 * `assay suite diff`'s text: what was added, removed or changed, then the scores that moved beyond their
 * intervals (each saying how it was judged), then a count of those that did not.
 */
import type { ScoreDiff, SuiteDiff } from './diff-suites.js';

const number = (value: number) => value.toFixed(4);
const signed = (value: number) => `${value >= 0 ? '+' : ''}${value.toFixed(4)}`;
const interval = (ci: [number, number] | null) =>
  ci ? `[${number(ci[0])}, ${number(ci[1])}]` : '(no interval)';
const short = (sha256: string | null) => (sha256 ? sha256.slice(0, 12) : 'unknown');

function howJudged(score: ScoreDiff): string {
  if (score.method === 'paired')
    return `paired on ${score.shared_n} shared docs, ${signed(score.difference)} ${interval(score.ci)}, ${score.test} p ${(score.p_value as number).toPrecision(3)}, Holm p ${(score.p_holm as number).toPrecision(3)}`;
  if (score.method === 'intervals')
    return `intervals ${interval(score.before.ci)} → ${interval(score.after.ci)} ${score.moved ? 'do not overlap' : 'overlap'} (no paired sample logs)`;
  return 'not judged: no interval on one side';
}

export function renderSuiteDiff(diff: SuiteDiff): string {
  const { before, after } = diff;
  const lines = [
    `suite diff ${before.name} → ${after.name}: version ${before.version} → ${after.version}, suite file sha256 ${short(before.suite_sha256)} → ${short(after.suite_sha256)}${before.suite_sha256 === after.suite_sha256 ? ' (same file)' : ''}`,
    `assay ${before.assay_versions.join(', ') || '?'} → ${after.assay_versions.join(', ') || '?'}`,
  ];
  const list = (label: string, names: string[]) => {
    if (names.length) lines.push(`${label}: ${names.join('; ')}`);
  };
  list('models added', diff.models.added);
  list('models removed', diff.models.removed);
  list('tasks added', diff.tasks.added);
  list('tasks removed', diff.tasks.removed);
  for (const change of diff.task_changes)
    lines.push(
      `task ${change.task} changed (${change.changed.join(', ')}): content sha256 ${short(change.before)} → ${short(change.after)}`,
    );
  // Cells are `model × task set`: one line per model, its task sets listed.
  const byModel = new Map<string, string[]>();
  for (const { model, task_set } of diff.settings_changed)
    byModel.set(model, [...(byModel.get(model) ?? []), task_set]);
  list(
    'settings changed',
    [...byModel].map(([model, taskSets]) => `${model} × ${taskSets.join(', ')}`),
  );

  const moved = diff.scores.filter((score) => score.moved);
  const paired = diff.scores.filter((score) => score.method === 'paired').length;
  const byIntervals = diff.scores.filter((score) => score.method === 'intervals').length;
  lines.push(
    '',
    moved.length
      ? `scores moved beyond their intervals (after − before, 95%): ${moved.length} of ${diff.scores.length}`
      : `no score moved beyond its interval (${diff.scores.length} compared)`,
  );
  for (const score of moved)
    lines.push(
      `  ${score.direction === 'better' ? 'BETTER' : 'WORSE '} ${score.model} × ${score.task} ${score.metric}: ${number(score.before.value)} → ${number(score.after.value)}; ${howJudged(score)}`,
    );
  lines.push(
    `compared: ${paired} paired on shared docs (moved: the interval of the difference excludes 0), ${byIntervals} by the runs' own intervals (moved: they do not overlap)${diff.scores.length - paired - byIntervals ? `, ${diff.scores.length - paired - byIntervals} not judged (no interval)` : ''}`,
  );
  for (const skipped of diff.not_compared)
    lines.push(`not compared: ${skipped.model} × ${skipped.task}: ${skipped.reason}`);
  return `${lines.join('\n')}\n`;
}
