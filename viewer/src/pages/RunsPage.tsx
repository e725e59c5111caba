import { Fragment, useMemo, useState } from 'react';
import type { CompareResponse, RunSummary, TaskStar } from '../../../src/view/api.js';
import {
  cellScore,
  distinguishingArgs,
  groupByModel,
  type MatrixColumn,
  type MatrixSort,
  type MatrixSortKey,
  matrixColumns,
  pairableRuns,
  shortModelName,
  significance,
  starOf,
} from '../../../src/view/results-matrix.js';
import type { ApiClient } from '../client.js';
import { formatCi, formatDate, formatNumber, formatP } from '../format.js';
import { href } from '../router.js';
import { type Loaded, useData } from '../use-data.js';

const SIGNS = { better: '▲', worse: '▼', changed: '◆' } as const;

/** The paired tests of every pairable run against the chosen baseline (the compare page's engine). */
function useBaselineComparison(
  client: ApiClient,
  runs: RunSummary[],
  baselineId: string,
): Loaded<CompareResponse | undefined> {
  const baseline = runs.find((run) => run.id === baselineId);
  const candidates = baseline ? pairableRuns(runs, baseline).map((run) => run.id) : [];
  const ids = baseline && candidates.length ? [baseline.id, ...candidates] : [];
  return useData(`matrix:${ids.join(',')}`, async () => (ids.length ? client.compare(ids) : undefined));
}

function ScoreCell({
  run,
  column,
  star,
  compare,
  baselineId,
}: {
  run: RunSummary;
  column: MatrixColumn;
  star: TaskStar | undefined;
  compare: CompareResponse | undefined;
  baselineId: string;
}) {
  const best = star?.run === run.id;
  const score = cellScore(run, column);
  if (!score) {
    const other = run.scores[column.task];
    return (
      <td className="score missing muted" data-score-task={column.task}>
        {other ? `${other.metric} ${formatNumber(other.value)}` : '—'}
      </td>
    );
  }
  const test = run.id === baselineId ? undefined : significance(compare, column, run.id);
  const classes = ['score', best ? 'best' : '', test?.direction ? `sig-${test.direction}` : ''].filter(
    Boolean,
  );
  const title = test
    ? `${test.significant ? 'significantly different from' : 'not significantly different from'} the baseline: difference ${formatNumber(test.difference)}, p ${formatP(test.pValue)}, Holm-adjusted p ${formatP(test.adjustedPValue)}`
    : undefined;
  return (
    <td className={classes.join(' ')} data-score-task={column.task} title={title}>
      <span className="value">{formatNumber(score.value)}</span>
      {best && (
        <span className="best-mark" title={star?.note}>
          {' '}
          ★
        </span>
      )}
      {test?.direction && (
        <span className={`sig ${test.direction}`} data-significant={test.direction}>
          {' '}
          {SIGNS[test.direction]}
        </span>
      )}
      {(run.timeouts?.byTask[column.task] ?? 0) > 0 && (
        <span
          className="badge timed-out"
          title={`${run.timeouts?.byTask[column.task]} doc(s) went over the ${run.timeouts?.maxLatencyS} s latency cap: in no metric`}
        >
          {run.timeouts?.byTask[column.task]} timed out
        </span>
      )}
      <div className="ci muted small">{formatCi(score.ci)}</div>
    </td>
  );
}

export function RunsPage({ client }: { client: ApiClient }) {
  const data = useData('runs', () => client.runs());
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState<MatrixSort>({ key: 'date', descending: true });
  const [selected, setSelected] = useState<string[]>([]);
  const [baselineId, setBaselineId] = useState('');
  const runs = data.state === 'ready' ? data.value.runs : [];
  const shown = useMemo(() => {
    const needle = search.toLowerCase();
    return runs.filter((run) =>
      [run.model, run.modelArgs, run.label, run.gitHash ?? '', ...run.tasks, formatDate(run.date)].some(
        (text) => text.toLowerCase().includes(needle),
      ),
    );
  }, [runs, search]);
  const groups = useMemo(() => groupByModel(shown, sort), [shown, sort]);
  const columns = useMemo(() => matrixColumns(shown), [shown]);
  // What tells a model's runs apart, over all its runs (not only those a search leaves).
  const tellApart = useMemo(
    () =>
      new Map(
        groupByModel(runs, { key: 'model', descending: false }).flatMap((group) => [
          ...distinguishingArgs(group.runs),
        ]),
      ),
    [runs],
  );
  // The ★s rank all the runs viewed (a search narrows the rows, not the field): computed by the server.
  const starData = useData('stars', () => client.stars());
  const stars = starData.state === 'ready' ? starData.value : undefined;
  const comparison = useBaselineComparison(client, runs, baselineId);
  const compare = comparison.state === 'ready' ? comparison.value : undefined;

  if (data.state === 'loading') return <p className="muted">Loading runs…</p>;
  if (data.state === 'error') return <p className="error">Could not load runs: {data.message}</p>;

  const header = (key: MatrixSortKey, label: string, className = '', title?: string) => (
    <th className={className} title={title} data-column={key}>
      <button
        type="button"
        className="sort"
        data-sort={key}
        onClick={() =>
          setSort({
            key,
            // Dates and scores open newest / highest first.
            descending: sort.key === key ? !sort.descending : key === 'date' || key.startsWith('task:'),
          })
        }
      >
        {label}
        {sort.key === key ? (sort.descending ? ' ▼' : ' ▲') : ''}
      </button>
    </th>
  );
  const toggle = (id: string) =>
    setSelected((current) => (current.includes(id) ? current.filter((x) => x !== id) : [...current, id]));
  const logged = runs.filter((run) => run.sampleTasks.length > 0);

  return (
    <section>
      <h1>Runs</h1>
      <div className="toolbar">
        <input
          type="search"
          placeholder="Search model, task, git hash, file…"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          aria-label="Search runs"
        />
        <span className="muted">
          {shown.length} of {runs.length} runs
        </span>
        <a
          className={`button${selected.length < 2 ? ' disabled' : ''}`}
          href={selected.length >= 2 ? href(['compare'], { runs: selected.join(',') }) : undefined}
          data-testid="compare-selected"
        >
          Compare {selected.length} selected
        </a>
        <a
          className={`button${selected.length < 1 ? ' disabled' : ''}`}
          href={selected.length >= 1 ? href(['charts'], { runs: selected.join(',') }) : undefined}
        >
          Charts
        </a>
        <label className="small">
          Baseline for paired tests{' '}
          <select
            aria-label="Baseline for paired tests"
            value={baselineId}
            onChange={(event) => setBaselineId(event.target.value)}
          >
            <option value="">none</option>
            {logged.map((run) => (
              <option key={run.id} value={run.id}>
                {run.model}
                {run.modelArgs ? ` (${run.modelArgs})` : ''} · {formatDate(run.date)}
              </option>
            ))}
          </select>
        </label>
      </div>
      {selected.length > 0 && (
        <p className="muted">The first run selected is the baseline of a comparison.</p>
      )}
      <p className="muted small" data-testid="matrix-legend">
        Each task column shows the run's primary score (the task's first metric) with its 95% interval.{' '}
        <span className="best-mark">★</span> the full run significantly better than every other full run on
        the task, as <code>assay compare</code> tests each pair (paired test on the sample logs, else the 95%
        interval of the difference); ties and differences within the noise get none, and runs made with
        --limit are not ranked.{starData.state === 'error' && ` Ranking failed: ${starData.message}`}
        {baselineId ? (
          <>
            {' '}
            <span className="sig better">▲</span> better, <span className="sig worse">▼</span> worse than the
            baseline: paired test on the sample logs (McNemar for 0/1 scores, else a permutation test),
            Holm-adjusted p &lt; 0.05.
            {comparison.state === 'loading' && ' Computing paired tests…'}
            {comparison.state === 'error' && ` Paired tests failed: ${comparison.message}`}
          </>
        ) : (
          ' Choose a baseline to flag scores that differ from it significantly.'
        )}
      </p>
      <div className="matrix-scroll">
        <table className="data matrix" data-testid="runs-table" data-stars={starData.state}>
          <thead>
            <tr>
              {header('model', 'Run', 'run-name')}
              {columns.map((column) => (
                <Fragment key={column.task}>
                  {header(
                    `task:${column.task}`,
                    `${column.task} · ${column.metric}${column.filter === 'none' ? '' : ` (${column.filter})`}${
                      column.higherIsBetter === null ? '' : column.higherIsBetter ? ' ↑' : ' ↓'
                    }`,
                    'score-column',
                    starOf(stars, column)?.note,
                  )}
                </Fragment>
              ))}
              {header('date', 'Date')}
              {header('partial', 'Partial')}
              {header('gitHash', 'Git hash')}
              <th>File</th>
            </tr>
          </thead>
          <tbody>
            {groups.flatMap((group) =>
              group.runs.map((run, index) => (
                <tr
                  key={run.id}
                  data-run={run.id}
                  data-model={group.model}
                  className={[run.partial ? 'partial-row' : '', index === 0 ? 'group-start' : '']
                    .filter(Boolean)
                    .join(' ')}
                >
                  <td className="run-name" title={`${run.model}${run.modelArgs ? `\n${run.modelArgs}` : ''}`}>
                    {index === 0 && (
                      <div className="group-label small" data-testid="model-group">
                        {group.model} · {group.runs.length} run{group.runs.length === 1 ? '' : 's'}
                      </div>
                    )}
                    <label className="pick">
                      <input
                        type="checkbox"
                        aria-label={`select ${run.label}`}
                        checked={selected.includes(run.id)}
                        onChange={() => toggle(run.id)}
                      />
                      {selected.includes(run.id) && (
                        <span className="order">{selected.indexOf(run.id) + 1}</span>
                      )}
                    </label>
                    <a href={href(['run', run.id])} className="model">
                      {shortModelName(run.model)}
                    </a>
                    {tellApart.get(run.id) && (
                      <span className="run-args muted small" data-testid="run-args">
                        {tellApart.get(run.id)}
                      </span>
                    )}
                    {run.id === baselineId && <span className="badge baseline"> baseline</span>}
                  </td>
                  {columns.map((column) => (
                    <ScoreCell
                      key={column.task}
                      run={run}
                      column={column}
                      star={starOf(stars, column)}
                      compare={compare}
                      baselineId={baselineId}
                    />
                  ))}
                  <td className="nowrap">{formatDate(run.date)}</td>
                  <td>
                    {run.partial ? (
                      <span className="badge partial">
                        PARTIAL{run.limit !== null ? ` · --limit ${run.limit}` : ''}
                      </span>
                    ) : (
                      <span className="muted">full</span>
                    )}
                  </td>
                  <td>
                    <code>{run.gitHash ?? '—'}</code>
                  </td>
                  <td className="muted small">{run.label}</td>
                </tr>
              )),
            )}
          </tbody>
        </table>
      </div>
      {data.value.problems.length > 0 && (
        <div className="problems">
          <h2>Files that could not be read</h2>
          <ul>
            {data.value.problems.map((problem) => (
              <li key={problem.file}>
                <code>{problem.file}</code>: {problem.message}
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
