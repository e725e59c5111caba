import { Fragment, memo, useMemo, useState } from 'react';
import type {
  HeadToHead,
  SuiteCellRun,
  SuiteDetail,
  SuiteLeaderboard,
  SuiteListing,
} from '../../../src/view/api.js';
import {
  cellRunIndex,
  type FacingPair,
  facingPairs,
  type LeaderboardSort,
  rankText,
  type SuiteIndex,
  sortedModels,
  suiteIndex,
  suiteTasks,
} from '../../../src/view/suite-leaderboard.js';
import type { ApiClient } from '../client.js';
import { IntervalBar } from '../components/IntervalBar.js';
import { formatCi, formatNumber, formatP } from '../format.js';
import { href } from '../router.js';
import { useData } from '../use-data.js';

/** What a click on the leaderboard selected: a model's cell of a task, or its row of a group. */
export type SuiteSelection = { model: string; task: string } | { model: string; group: string } | null;

const DIGITS = 3;
/** The task matrix's column widths (px): room for a value, two marks and a rank bar. */
const NAME_WIDTH = 160;
const TASK_WIDTH = 118;

function selectionHref(id: string, selection: NonNullable<SuiteSelection>): string {
  return href(
    ['suite', id],
    'task' in selection
      ? { model: selection.model, task: selection.task }
      : { model: selection.model, group: selection.group },
  );
}

function RankBar({
  rank,
  models,
  testId,
  compactWidth,
}: {
  rank: { point: number; best: number; worst: number };
  models: number;
  testId: string;
  compactWidth?: number;
}) {
  return (
    <IntervalBar
      lo={rank.best}
      hi={rank.worst}
      point={rank.point}
      min={1}
      max={models}
      title={`rank ${rankText(rank)} of ${models}: the 95% interval holds for every model together`}
      testId={testId}
      compactWidth={compactWidth}
    />
  );
}

/** Models × groups: HELM's mean win rate with its interval, the macro average, the rank interval. */
function Leaderboard({
  id,
  summary,
  index,
  selection,
}: {
  id: string;
  summary: SuiteLeaderboard;
  index: SuiteIndex;
  selection: SuiteSelection;
}) {
  const [sort, setSort] = useState<LeaderboardSort>(null);
  const models = sortedModels(summary, index, sort);
  const count = summary.models.length;
  const byName = new Map(summary.models.map((model) => [model.name, model]));
  return (
    <div className="matrix-scroll">
      <table className="data matrix suite-leaderboard" data-testid="suite-leaderboard">
        <thead>
          <tr>
            <th className="run-name" rowSpan={2}>
              <button type="button" className="sort" data-sort="model" onClick={() => setSort(null)}>
                Model{sort === null ? ' (suite order)' : ''}
              </button>
            </th>
            {summary.groups.map((group) => (
              <th
                key={group.group}
                colSpan={3}
                className="group-head"
                data-group={group.group}
                title={`${group.tasks.length} task(s): ${group.tasks.join(', ')}`}
              >
                <button
                  type="button"
                  className="sort"
                  data-sort={`group:${group.group}`}
                  onClick={() => setSort({ group: group.group })}
                >
                  {group.group}
                  {sort?.group === group.group ? ' ▼' : ''}
                </button>
              </th>
            ))}
            <th rowSpan={2} className="number">
              Cells
            </th>
            <th rowSpan={2} className="number">
              Seconds
            </th>
            <th rowSpan={2} className="number">
              Cost (USD)
            </th>
          </tr>
          <tr>
            {summary.groups.map((group) => (
              <Fragment key={group.group}>
                <th title="HELM's mean win rate over the group's tasks, with its simultaneous 95% interval">
                  Win rate
                </th>
                <th title={group.macro_average_reason ?? `unweighted mean of ${group.metric} over the tasks`}>
                  Mean{group.metric ? ` ${group.metric}` : ''}
                </th>
                <th title="rank (best–worst): simultaneous 95% rank interval">Rank</th>
              </Fragment>
            ))}
          </tr>
        </thead>
        <tbody>
          {models.map((model) => {
            const info = byName.get(model);
            return (
              <tr key={model} data-model={model}>
                <td className="run-name" title={info?.model}>
                  {model}
                </td>
                {summary.groups.map((group) => {
                  const row = index.groupRow(group.group, model);
                  const selected =
                    selection !== null &&
                    'group' in selection &&
                    selection.group === group.group &&
                    selection.model === model;
                  const link = selectionHref(id, { model, group: group.group });
                  return (
                    <Fragment key={group.group}>
                      <td className={`win-rate${selected ? ' selected' : ''}`} data-group={group.group}>
                        <a href={link} className="value" data-testid="win-rate">
                          {formatNumber(row?.mean_win_rate, DIGITS)}
                        </a>
                        {row?.win_rate_interval && (
                          <IntervalBar
                            lo={row.win_rate_interval[0]}
                            hi={row.win_rate_interval[1]}
                            point={row.mean_win_rate}
                            min={0}
                            max={1}
                            title={`mean win rate ${formatNumber(row.mean_win_rate, DIGITS)}, 95% interval ${formatCi(row.win_rate_interval, DIGITS)}`}
                            testId="win-rate-interval"
                          />
                        )}
                      </td>
                      <td
                        className="macro"
                        data-group={group.group}
                        title={group.macro_average_reason ?? undefined}
                      >
                        <span className="value">{formatNumber(row?.macro_average?.value, DIGITS)}</span>
                        <div className="ci muted small">{formatCi(row?.macro_average?.ci, DIGITS)}</div>
                      </td>
                      <td className="rank" data-group={group.group}>
                        <span className="rank-text">{rankText(row?.rank)}</span>
                        {row?.rank && <RankBar rank={row.rank} models={count} testId="group-rank" />}
                      </td>
                    </Fragment>
                  );
                })}
                <td className="number" title="done / failed / not run">
                  {info ? `${info.cells_done} / ${info.cells_failed} / ${info.cells_missing}` : '—'}
                </td>
                <td className="number">{formatNumber(info?.seconds, 1)}</td>
                <td className="number">{formatNumber(info?.cost_usd, 4)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

const STATUS_MARK: Record<string, string> = { partial: 'P', errored: 'E', failed: '✕', missing: '·' };

/** Models × tasks: each cell's value and its rank interval within the task; a cell opens its drill-down. */
const TaskMatrix = memo(function TaskMatrix({
  id,
  summary,
  index,
  runOf,
  selectedKey,
}: {
  id: string;
  summary: SuiteLeaderboard;
  index: SuiteIndex;
  runOf: (model: string, taskSet: string) => SuiteCellRun | undefined;
  selectedKey: string;
}) {
  const tasks = suiteTasks(summary);
  const count = summary.models.length;
  return (
    <div className="matrix-scroll">
      {/* Fixed layout: the browser sizes 60 columns from the header instead of measuring 1,200 cells. */}
      <table
        className="data matrix suite-tasks"
        data-testid="suite-tasks"
        style={{ width: NAME_WIDTH + tasks.length * TASK_WIDTH }}
      >
        <colgroup>
          <col style={{ width: NAME_WIDTH }} />
          {tasks.map((task) => (
            <col key={task} style={{ width: TASK_WIDTH }} />
          ))}
        </colgroup>
        <thead>
          <tr>
            <th className="run-name">Model</th>
            {tasks.map((task) => {
              const info = index.task(task);
              return (
                <th
                  key={task}
                  data-task={task}
                  title={
                    info
                      ? `${info.metric}${info.filter === 'none' ? '' : ` (${info.filter})`}, ${info.higher_is_better ? 'higher' : 'lower'} is better; shared docs ${info.shared_n}; minimum detectable difference ${formatNumber(info.minimum_detectable_difference, DIGITS)}`
                      : undefined
                  }
                >
                  {task}
                  {info && (
                    <div className="muted small">{`${info.metric}${info.higher_is_better ? ' ↑' : ' ↓'}`}</div>
                  )}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {summary.models.map(({ name: model }) => (
            <tr key={model} data-model={model}>
              <td className="run-name">{model}</td>
              {tasks.map((task) => {
                const cell = index.cell(model, task);
                const rank = index.taskRank(task, model)?.rank;
                const timedOut = cell ? (runOf(model, cell.task_set)?.run.timeouts?.byTask[task] ?? 0) : 0;
                const classes = [
                  'suite-cell',
                  cell ? `status-${cell.status}` : '',
                  selectedKey === `${model}\u0000${task}` ? 'selected' : '',
                ];
                return (
                  <td
                    key={task}
                    className={classes.filter(Boolean).join(' ')}
                    data-task={task}
                    data-status={cell?.status}
                  >
                    <a href={selectionHref(id, { model, task })} title={cell?.reason ?? undefined}>
                      <span className="value">{formatNumber(cell?.value, DIGITS)}</span>
                      {cell && cell.status !== 'ok' && (
                        <span className={`badge status ${cell.status}`} title={cell.reason ?? cell.status}>
                          {STATUS_MARK[cell.status]}
                        </span>
                      )}
                      {timedOut > 0 && (
                        <span
                          className="badge timed-out"
                          title={`${timedOut} doc(s) timed out (in no metric)`}
                        >
                          T{timedOut}
                        </span>
                      )}
                    </a>
                    {rank && (
                      <div className="small rank">
                        <span className="rank-text muted">{rankText(rank)}</span>
                        <RankBar rank={rank} models={count} testId="task-rank" compactWidth={44} />
                      </div>
                    )}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr className="muted small">
            <th className="run-name" title="docs every model scored: what the ranks use">
              shared n · MDE
            </th>
            {tasks.map((task) => {
              const info = index.task(task);
              return (
                <td key={task} data-task={task} className="task-foot">
                  {info
                    ? `${info.shared_n} · ${formatNumber(info.minimum_detectable_difference, DIGITS)}`
                    : '—'}
                </td>
              );
            })}
          </tr>
        </tfoot>
      </table>
    </div>
  );
});

/** A head-to-head matrix, loaded when a drill-down shows it, turned to face `model`. */
function Pairs({
  client,
  id,
  scope,
  name,
  model,
  confidence,
  compareHref,
}: {
  client: ApiClient;
  id: string;
  scope: HeadToHead['scope'];
  name: string;
  model: string;
  confidence: number;
  compareHref: (other: string) => string | undefined;
}) {
  const matrix = useData(`head-to-head:${id}/${scope}/${name}`, () => client.headToHead(id, scope, name));
  if (matrix.state === 'loading') return <p className="muted">Loading pairs…</p>;
  if (matrix.state === 'error') return <p className="error">Could not load the pairs: {matrix.message}</p>;
  return (
    <>
      {matrix.value.reason && <p className="muted">{matrix.value.reason}</p>}
      <PairsTable pairs={facingPairs(matrix.value, model, confidence)} compareHref={compareHref} />
    </>
  );
}

function PairsTable({
  pairs,
  compareHref,
}: {
  pairs: FacingPair[];
  compareHref: (other: string) => string | undefined;
}) {
  if (pairs.length === 0) return <p className="muted">No head-to-head pairs for this model.</p>;
  return (
    <table className="data compact" data-testid="cell-pairs">
      <thead>
        <tr>
          <th>Against</th>
          <th className="number">n</th>
          <th className="number">Difference</th>
          <th>95% CI</th>
          <th className="number">p</th>
          <th className="number">Holm p</th>
          <th>Test</th>
          <th />
        </tr>
      </thead>
      <tbody>
        {pairs.map((pair) => {
          const link = compareHref(pair.other);
          return (
            <tr
              key={pair.other}
              data-other={pair.other}
              className={pair.better === null ? '' : pair.better ? 'better' : 'worse'}
            >
              <td>{pair.other}</td>
              <td className="number">{pair.n}</td>
              <td className="number difference">{formatNumber(pair.difference, 4)}</td>
              <td className="ci">{formatCi(pair.ci, 4)}</td>
              <td className="number">{formatP(pair.pValue)}</td>
              <td className="number p-holm">{formatP(pair.pHolm)}</td>
              <td>{pair.test}</td>
              <td>
                {link ? (
                  <a href={link} data-testid="cell-compare">
                    compare
                  </a>
                ) : (
                  <span className="muted">—</span>
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** The drill-down of a selected cell: its numbers, its run and samples, and its pairwise comparisons. */
function CellPanel({
  client,
  id,
  detail,
  summary,
  index,
  runOf,
  selection,
}: {
  client: ApiClient;
  id: string;
  detail: SuiteDetail;
  summary: SuiteLeaderboard;
  index: SuiteIndex;
  runOf: (model: string, taskSet: string) => SuiteCellRun | undefined;
  selection: NonNullable<SuiteSelection>;
}) {
  const { model } = selection;
  const count = summary.models.length;
  if ('group' in selection) {
    const group = index.group(selection.group);
    const row = index.groupRow(selection.group, model);
    const hasMatrix = detail.headToHead.some(
      (entry) => entry.scope === 'group' && entry.name === selection.group,
    );
    if (!group || !row)
      return (
        <p className="error">
          The summary has no group {selection.group} for {model}.
        </p>
      );
    return (
      <section
        className="detail-pane suite-cell"
        data-testid="suite-cell"
        data-model={model}
        data-group={group.group}
      >
        <h2>
          {model} · group {group.group}
        </h2>
        <table className="data compact manifest-fields">
          <tbody>
            <tr>
              <th>Mean win rate</th>
              <td data-testid="cell-win-rate">
                {formatNumber(row.mean_win_rate, DIGITS)} {formatCi(row.win_rate_interval, DIGITS)}
              </td>
            </tr>
            <tr>
              <th>Macro average{group.metric ? ` (${group.metric})` : ''}</th>
              <td>
                {row.macro_average
                  ? `${formatNumber(row.macro_average.value, DIGITS)} ${formatCi(row.macro_average.ci, DIGITS)}`
                  : `— ${group.macro_average_reason ?? ''}`}
              </td>
            </tr>
            <tr>
              <th>Rank of {count}</th>
              <td data-testid="cell-rank">{rankText(row.rank)}</td>
            </tr>
            <tr>
              <th>Tasks</th>
              <td>
                {group.tasks.map((task, position) => (
                  <Fragment key={task}>
                    {position > 0 && ', '}
                    <a href={selectionHref(id, { model, task })}>{task}</a>
                  </Fragment>
                ))}
              </td>
            </tr>
          </tbody>
        </table>
        <h3>Head to head on the group's docs (this model − the other)</h3>
        {hasMatrix && (
          <Pairs
            client={client}
            id={id}
            scope="group"
            name={group.group}
            model={model}
            confidence={summary.confidence}
            compareHref={() => undefined}
          />
        )}
      </section>
    );
  }
  const cell = index.cell(model, selection.task);
  if (!cell)
    return (
      <p className="error">
        The summary has no cell {model} × {selection.task}.
      </p>
    );
  const task = index.task(cell.task);
  const rank = index.taskRank(cell.task, model)?.rank;
  const cellRun = runOf(model, cell.task_set);
  const timedOut = cellRun?.run.timeouts?.byTask[cell.task];
  const hasMatrix = detail.headToHead.some((entry) => entry.scope === 'task' && entry.name === cell.task);
  const compareHref = (other: string) => {
    const otherRun = runOf(other, cell.task_set);
    // The other model is the baseline: the compare page shows this run − the other's, as the table does.
    return cellRun && otherRun
      ? href(['compare'], { runs: `${otherRun.run.id},${cellRun.run.id}` })
      : undefined;
  };
  const field = (label: string, value: string, testId?: string) => (
    <tr>
      <th>{label}</th>
      <td data-testid={testId}>{value}</td>
    </tr>
  );
  return (
    <section
      className="detail-pane suite-cell"
      data-testid="suite-cell"
      data-model={model}
      data-task={cell.task}
    >
      <h2>
        {model} × {cell.task}
      </h2>
      <p>
        {cellRun ? (
          <>
            <a href={href(['run', cellRun.run.id])} data-testid="cell-run">
              run
            </a>
            {' · '}
            {cellRun.run.sampleTasks.includes(cell.task) ? (
              <a href={href(['run', cellRun.run.id, 'samples', cell.task])} data-testid="cell-samples">
                samples
              </a>
            ) : (
              <span className="muted">no sample log</span>
            )}
            <span className="muted small"> · {cellRun.run.label}</span>
          </>
        ) : (
          <span className="muted" data-testid="cell-no-run">
            No run of this cell under the viewed folder ({model}/{cell.task_set}/ has no finished run).
          </span>
        )}
      </p>
      <table className="data compact manifest-fields">
        <tbody>
          {field('Task set', cell.task_set)}
          {field('Status', cell.reason ? `${cell.status}: ${cell.reason}` : cell.status, 'cell-status')}
          {field(`Value (${cell.metric})`, formatNumber(cell.value, 4), 'cell-value')}
          {field('95% CI', formatCi(cell.ci, 4), 'cell-ci')}
          {field('n', cell.n === null ? '—' : String(cell.n))}
          {field(`Rank of ${count}`, rankText(rank), 'cell-rank')}
          {field('Errored samples', String(cell.errored_samples))}
          {timedOut !== undefined &&
            field(
              'Timed out',
              `${timedOut} doc(s) over ${cellRun?.run.timeouts?.maxLatencyS} s (in no metric)`,
              'cell-timed-out',
            )}
          {field('Latency p50 (ms)', formatNumber(cell.latency_p50_ms, 1))}
          {field('Cost (USD)', formatNumber(cell.cost_usd, 4))}
          {task &&
            field(
              'Shared docs · MDE',
              `${task.shared_n} · ${formatNumber(task.minimum_detectable_difference, 4)}`,
            )}
        </tbody>
      </table>
      <h3>Head to head on {cell.task} (this model − the other, on the docs both scored)</h3>
      <p className="muted small">
        Holm-adjusted over the task's pairs; a row is green or red when the adjusted p is below{' '}
        {formatNumber(1 - summary.confidence, 2)}. <em>compare</em> opens both runs on the Compare page.
      </p>
      {hasMatrix && (
        <Pairs
          client={client}
          id={id}
          scope="task"
          name={cell.task}
          model={model}
          confidence={summary.confidence}
          compareHref={compareHref}
        />
      )}
      {detail.staleSummary && <p className="muted small">{detail.staleSummary}</p>}
    </section>
  );
}

/** Without a summary: the cells' runs, so the suite can still be browsed run by run. */
function CellRunsList({ detail }: { detail: SuiteDetail }) {
  const runOf = cellRunIndex(detail.cellRuns);
  return (
    <table className="data compact" data-testid="suite-cell-runs">
      <thead>
        <tr>
          <th>Model</th>
          {Object.keys(detail.taskSets).map((taskSet) => (
            <th key={taskSet}>{taskSet}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {detail.suite.models.map((model) => (
          <tr key={model}>
            <td>{model}</td>
            {Object.keys(detail.taskSets).map((taskSet) => {
              const cell = runOf(model, taskSet);
              return (
                <td key={taskSet}>
                  {cell ? (
                    <a href={href(['run', cell.run.id])}>run</a>
                  ) : (
                    <span className="muted">not run</span>
                  )}
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function SuitePage({
  client,
  id,
  selection,
}: {
  client: ApiClient;
  id: string;
  selection: SuiteSelection;
}) {
  const data = useData(`suite:${id}`, () => client.suite(id));
  const detail = data.state === 'ready' ? data.value : undefined;
  const index = useMemo(() => (detail?.summary ? suiteIndex(detail.summary) : undefined), [detail]);
  const runOf = useMemo(() => cellRunIndex(detail?.cellRuns ?? []), [detail]);
  if (data.state === 'loading') return <p className="muted">Loading suite…</p>;
  if (data.state === 'error') return <p className="error">Could not load the suite: {data.message}</p>;
  const { suite, summary } = data.value;
  const selectedKey = selection && 'task' in selection ? `${selection.model}\u0000${selection.task}` : '';
  return (
    <section>
      <h1>
        Suite {suite.name} <span className="muted small">version {suite.version}</span>
      </h1>
      <p className="muted">
        {suite.description ? `${suite.description} · ` : ''}
        {suite.models.length} models × {suite.taskSets.length} task sets
        {suite.label === '.' ? '' : ` · ${suite.label}`}
        {summary &&
          ` · intervals ${summary.confidence * 100}%, simultaneous over every model (${summary.bootstrap_iterations} joint bootstrap draws, seed ${summary.seed})`}
      </p>
      {data.value.summaryProblem && (
        <div className="banner partial" role="alert" data-testid="summary-problem">
          {data.value.summaryProblem}
        </div>
      )}
      {data.value.staleSummary && (
        <div className="banner partial" role="alert" data-testid="summary-stale">
          {data.value.staleSummary}
        </div>
      )}
      {summary && index ? (
        <>
          <h2>Leaderboard</h2>
          <p className="muted small" data-testid="suite-legend">
            Per scenario group: HELM's mean win rate (the share of other models a model beats in each task, a
            tie counting half, averaged over the group's tasks) with its interval, the macro average of like
            metrics with its 95% interval, and the rank with its interval (best–worst). Bars draw the
            intervals: a rank bar spans the places the data cannot rule out, so a bar over several places is a
            tie. Click a value for its details and pairwise comparisons.
          </p>
          <Leaderboard id={id} summary={summary} index={index} selection={selection} />
          {selection && (
            <CellPanel
              client={client}
              id={id}
              detail={data.value}
              summary={summary}
              index={index}
              runOf={runOf}
              selection={selection}
            />
          )}
          <h2>Tasks</h2>
          <p className="muted small">
            Each cell: the task's primary metric as the run computed it, and the model's rank in the task with
            its interval. P partial (a limit), E errored samples, ✕ failed, · not run, T docs timed out (over
            the latency cap). The last row: the docs every model scored and the minimum detectable difference
            at that n.
          </p>
          <TaskMatrix id={id} summary={summary} index={index} runOf={runOf} selectedKey={selectedKey} />
        </>
      ) : (
        <>
          <h2>Cells</h2>
          <CellRunsList detail={data.value} />
        </>
      )}
    </section>
  );
}

/** The suites found under the viewed folders, for the Runs page (and the home page with several suites). */
export function SuitesList({ suites }: { suites: SuiteListing[] }) {
  if (suites.length === 0) return null;
  return (
    <div className="suites-list">
      <h2>Suites</h2>
      <table className="data compact" data-testid="suites-list">
        <thead>
          <tr>
            <th>Suite</th>
            <th>Version</th>
            <th className="number">Models</th>
            <th className="number">Task sets</th>
            <th>Summary</th>
            <th>Folder</th>
          </tr>
        </thead>
        <tbody>
          {suites.map((suite) => (
            <tr key={suite.id} data-suite={suite.name}>
              <td>
                <a href={href(['suite', suite.id])}>{suite.name}</a>
              </td>
              <td>{suite.version}</td>
              <td className="number">{suite.models.length}</td>
              <td className="number">{suite.taskSets.length}</td>
              <td>
                {suite.summary === 'ready' ? (
                  'summary.json'
                ) : (
                  <span className="badge partial">
                    {suite.summary === 'absent' ? 'not summarized' : 'summary unreadable'}
                  </span>
                )}
              </td>
              <td className="muted small">{suite.label}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
