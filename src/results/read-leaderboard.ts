/**
 * The one reader of leaderboard_<time>.json: compare's leaderboard diff and merge read it here. Both
 * versions are read; a v1 file (assay ≤ 0.1: `score` per task, no interval) comes back in v2's shape
 * with what v1 did not record left null.
 */
import { readFileSync } from 'node:fs';
import { AssayError } from '../errors.js';
import { firstIssue } from './read-run.js';
import {
  LEADERBOARD_SCHEMA,
  LEADERBOARD_SCHEMAS_READ,
  type Leaderboard,
  leaderboardSchema,
  leaderboardV1Schema,
} from './schema.js';

export function parseLeaderboard(value: unknown, file: string): Leaderboard {
  const version = (value as { schema?: unknown } | null)?.schema;
  if (typeof version !== 'string' || !LEADERBOARD_SCHEMAS_READ.includes(version)) {
    throw new AssayError(
      'bad_data',
      `not an assay leaderboard: its schema is ${JSON.stringify(version ?? null)}, and this assay reads ${LEADERBOARD_SCHEMAS_READ.join(', ')}`,
      { location: { file } },
    );
  }
  if (version === LEADERBOARD_SCHEMA) {
    const checked = leaderboardSchema.safeParse(value);
    if (!checked.success)
      throw new AssayError('bad_data', `not an assay leaderboard: ${firstIssue(checked.error)}`, {
        location: { file },
      });
    return checked.data;
  }
  const checked = leaderboardV1Schema.safeParse(value);
  if (!checked.success)
    throw new AssayError('bad_data', `not an assay leaderboard: ${firstIssue(checked.error)}`, {
      location: { file },
    });
  const v1 = checked.data;
  const tasks: Leaderboard['tasks'] = {};
  for (const [name, task] of Object.entries(v1.tasks)) {
    tasks[name] = {
      metric: task.metric,
      filter: task.filter,
      higher_is_better: null,
      scale: null,
      // v1 wrote lm-eval's predict-only placeholder as a score.
      value: task.metric === 'bypass' ? null : task.score,
      stderr: null,
      ci: null,
      ci_level: null,
      n: task.n,
      correct: null,
      errors: task.errors ?? 0,
      timeouts: 0,
      latency: null,
      sha256: task.sha256 ?? null,
    };
  }
  return {
    schema: LEADERBOARD_SCHEMA,
    model: v1.model,
    date: v1.date ?? null,
    results_file: null,
    partial: v1.partial ?? false,
    predict_only: Object.values(v1.tasks).some((task) => task.metric === 'bypass'),
    errors: v1.errors ?? 0,
    timeouts: 0,
    tasks,
    overall: null,
    overall_tasks: [],
    overall_note: 'a v1 leaderboard: its overall averaged tasks whatever their metrics, so it is not shown',
  };
}

export function readLeaderboard(file: string): Leaderboard {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new AssayError('bad_data', `cannot read leaderboard: ${(error as Error).message}`, {
      location: { file },
      cause: error,
    });
  }
  return parseLeaderboard(value, file);
}
