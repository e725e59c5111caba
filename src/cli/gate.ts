import { writeFileSync } from 'node:fs';
import { AssayError } from '../errors.js';
import { checkErroredRuns } from '../results/compare/errored-runs.js';
import { type GateMode, gateRuns } from '../results/compare/gate.js';
import { reportError } from './errors.js';
import { numberFlag, probabilityFlag, splitList } from './flag-values.js';

const LABEL = { pass: 'PASS', fail: 'FAIL', underpowered: 'UNDECIDED' } as const;

export async function gateCommand(flags: Record<string, unknown>): Promise<number> {
  try {
    if (typeof flags.baseline !== 'string')
      throw new AssayError('bad_argument', '--baseline RUN is required');
    if (typeof flags.current !== 'string') throw new AssayError('bad_argument', '--current RUN is required');
    const maxDrop = numberFlag(flags.max_drop, '--max-drop');
    if (maxDrop === undefined)
      throw new AssayError(
        'bad_argument',
        '--max-drop is required (e.g. --max-drop 0.005 for half a point of accuracy)',
      );
    const mode = String(flags.mode ?? 'test');
    if (mode !== 'test' && mode !== 'threshold')
      throw new AssayError('bad_argument', `--mode must be test or threshold, got "${mode}"`);
    const format = String(flags.format ?? 'text');
    if (format !== 'text' && format !== 'json')
      throw new AssayError('bad_argument', `--format must be text or json, got "${format}"`);
    const warnings = checkErroredRuns(
      [
        { role: 'baseline', location: flags.baseline },
        { role: 'current', location: flags.current },
      ],
      { allowErrors: flags.allow_errors === true, tasks: splitList(flags.tasks) },
    );
    for (const warning of warnings) process.stderr.write(`assay: warning: ${warning}\n`);
    const report = gateRuns(flags.baseline, flags.current, {
      maxDrop,
      alpha: probabilityFlag(flags.alpha, '--alpha'),
      mode: mode as GateMode,
      tasks: splitList(flags.tasks),
      metric: flags.metric === undefined ? undefined : String(flags.metric),
    });
    const json = `${JSON.stringify(report, null, 2)}\n`;
    if (typeof flags.json === 'string') writeFileSync(flags.json, json);
    if (format === 'json') process.stdout.write(json);
    else {
      const lines = report.tasks.map(
        (task) =>
          `${LABEL[task.status].padEnd(9)} ${task.task} (${task.metric}, ${task.filter}), n = ${task.n}: ${task.reason}`,
      );
      for (const entry of report.skipped) lines.push(`SKIPPED   ${entry.task}: ${entry.reason}`);
      const summary =
        report.status === 'pass'
          ? `gate passed: no task dropped by more than ${report.maxDrop}`
          : report.status === 'fail'
            ? `gate failed: ${report.tasks
                .filter((task) => task.status === 'fail')
                .map((task) => task.task)
                .join(', ')} dropped by more than ${report.maxDrop}`
            : `gate undecided (exit 3): ${report.tasks
                .filter((task) => task.status === 'underpowered')
                .map((task) => task.task)
                .join(', ')} cannot be told apart from a ${report.maxDrop} drop with these samples`;
      process.stdout.write(`${lines.join('\n')}\n${summary} (mode ${report.mode}, alpha ${report.alpha})\n`);
    }
    return report.exitCode;
  } catch (error) {
    return reportError(error);
  }
}
