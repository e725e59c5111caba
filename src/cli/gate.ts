import { writeFileSync } from 'node:fs';
import { AssayError } from '../errors.js';
import { checkErroredRuns } from '../results/compare/errored-runs.js';
import { gateRuns } from '../results/compare/gate.js';
import { GATE_FLAGS } from './command-flags.js';
import { reportError, withFlagNames } from './errors.js';
import { parseFlags } from './option-table.js';

const LABEL = { pass: 'PASS', fail: 'FAIL', underpowered: 'UNDECIDED' } as const;

export async function gateCommand(raw: Record<string, unknown>): Promise<number> {
  try {
    const flags = parseFlags(GATE_FLAGS, raw);
    if (flags.baseline === undefined) throw new AssayError('bad_option', '--baseline RUN is required');
    if (flags.current === undefined) throw new AssayError('bad_option', '--current RUN is required');
    const maxDrop = flags.max_drop;
    if (maxDrop === undefined)
      throw new AssayError(
        'bad_option',
        '--max-drop is required (e.g. --max-drop 0.005 for half a point of accuracy)',
      );
    const { mode, format } = flags;
    const warnings = checkErroredRuns(
      [
        { role: 'baseline', location: flags.baseline },
        { role: 'current', location: flags.current },
      ],
      { allowErrors: flags.allow_errors === true, timeoutsAs: flags.timeouts_as, tasks: flags.tasks },
    );
    for (const warning of warnings) process.stderr.write(`assay: warning: ${withFlagNames(warning)}\n`);
    const report = gateRuns(flags.baseline, flags.current, {
      maxDrop,
      alpha: flags.alpha,
      mode,
      tasks: flags.tasks,
      metric: flags.metric,
      timeoutsAs: flags.timeouts_as,
      ...(flags.min_judge_agreement === undefined
        ? {}
        : { minJudgeAgreement: { threshold: flags.min_judge_agreement, statistic: flags.judge_agreement } }),
    });
    const json = `${JSON.stringify(report, null, 2)}\n`;
    if (flags.json !== undefined) writeFileSync(flags.json, json);
    if (format === 'json') process.stdout.write(json);
    else {
      const lines = report.tasks.map(
        (task) =>
          `${LABEL[task.status].padEnd(9)} ${task.task} (${task.metric}, ${task.filter}), n = ${task.n}: ${withFlagNames(task.reason)}`,
      );
      for (const entry of report.skipped) lines.push(`SKIPPED   ${entry.task}: ${entry.reason}`);
      const summary =
        report.status === 'pass'
          ? `gate passed: no task dropped by more than ${report.maxDrop}`
          : report.status === 'fail'
            ? `gate failed: ${[
                ...report.tasks
                  .filter((task) => task.status === 'fail' && !task.judgeAgreementFailed)
                  .map((task) => `${task.task} dropped by more than ${report.maxDrop}`),
                ...report.tasks
                  .filter((task) => task.judgeAgreementFailed)
                  .map((task) => `${task.task}'s judge agreement is below --min_judge_agreement or unknown`),
              ].join('; ')}`
            : `gate undecided (exit 3): ${report.tasks
                .filter((task) => task.status === 'underpowered')
                .map((task) => task.task)
                .join(', ')} cannot be told apart from a ${report.maxDrop} drop with these samples`;
      const late = report.tasks.reduce((total, task) => total + task.timedOut.a + task.timedOut.b, 0);
      const lateNote =
        late === 0
          ? ''
          : `; ${late} timed-out docs ${report.timeoutsAs === 'wrong' ? 'counted as wrong' : 'left out: the verdict covers the docs answered in both runs'}`;
      const undecided =
        report.status === 'underpowered'
          ? 'undecided is not evidence of a regression, nor of its absence: `assay gate --help` says how a CI job treats exit 3\n'
          : '';
      process.stdout.write(
        `${lines.join('\n')}\n${summary} (mode ${report.mode}, alpha ${report.alpha}${lateNote})\n${undecided}`,
      );
    }
    return report.exitCode;
  } catch (error) {
    return reportError(error);
  }
}
