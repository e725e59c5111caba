import { useState } from 'react';
import type { CompareResponse, RunSummary, TaskComparison } from '../../../src/view/api.js';
import type { ApiClient } from '../client.js';
import { ForestPlot } from '../components/ForestPlot.js';
import { DiffText, diffTokens } from '../components/TextDiff.js';
import { formatCi, formatDate, formatNumber, formatP } from '../format.js';
import { href } from '../router.js';
import { useData } from '../use-data.js';
import { PartialBanner } from './RunPage.js';

export function runName(runs: RunSummary[], id: string): string {
  const run = runs.find((candidate) => candidate.id === id);
  if (!run) return id;
  return `${run.model}${run.modelArgs ? ` (${run.modelArgs})` : ''} · ${formatDate(run.date)}`;
}

export function differenceRows(compare: CompareResponse) {
  const many = compare.runs.length > 2;
  return compare.rows.map((row) => ({
    label: `${row.task} · ${row.metric}${row.filter === 'none' ? '' : ` (${row.filter})`}${many ? ` · ${runName(compare.runs, row.candidateRun)}` : ''}`,
    value: row.difference,
    lo: row.ci[0],
    hi: row.ci[1],
  }));
}

function FlipTable({ flips }: { flips: NonNullable<TaskComparison['flips']> }) {
  return (
    <table className="data compact flips" data-testid="flip-table">
      <thead>
        <tr>
          <th />
          <th>candidate right</th>
          <th>candidate wrong</th>
        </tr>
      </thead>
      <tbody>
        <tr>
          <th>baseline right</th>
          <td className="number" data-flip="bothRight">
            {flips.bothRight}
          </td>
          <td className="number worse" data-flip="rightToWrong">
            {flips.rightToWrong}
          </td>
        </tr>
        <tr>
          <th>baseline wrong</th>
          <td className="number better" data-flip="wrongToRight">
            {flips.wrongToRight}
          </td>
          <td className="number" data-flip="bothWrong">
            {flips.bothWrong}
          </td>
        </tr>
      </tbody>
    </table>
  );
}

function Discordant({ row }: { row: TaskComparison }) {
  return (
    <div data-testid="discordant">
      <h3>
        Discordant samples: {row.discordantCount}
        {row.discordantCount > row.discordant.length && (
          <span className="muted small"> (first {row.discordant.length} shown)</span>
        )}
      </h3>
      {row.discordant.length > 0 && (
        <p className="diff-legend small" data-testid="diff-legend">
          Word differences between the two responses: <mark className="removed">removed</mark> words are in
          the baseline's response only, <mark className="added">added</mark> words in the candidate's only.
          The colours mark how the texts differ, not which answer is right or wrong: the scores above each
          response say that.
        </p>
      )}
      {row.discordant.map((sample) => {
        const diff = diffTokens(sample.baselineResponse, sample.candidateResponse);
        return (
          <div key={sample.docId} className="discordant" data-doc={sample.docId}>
            <div className="muted small">
              Doc {sample.docId} · target <code>{sample.target}</code>
            </div>
            <details>
              <summary>Prompt</summary>
              <pre className="text">{sample.prompt}</pre>
            </details>
            <div className="side-by-side">
              <div>
                <div className="small">
                  Baseline · {row.metric} = {formatNumber(sample.baselineScore, 3)}
                </div>
                <DiffText parts={diff.left} side="left" />
              </div>
              <div>
                <div className="small">
                  Candidate · {row.metric} = {formatNumber(sample.candidateScore, 3)}
                </div>
                <DiffText parts={diff.right} side="right" />
              </div>
            </div>
          </div>
        );
      })}
    </div>
  );
}

export function ComparePage({ client, ids }: { client: ApiClient; ids: string[] }) {
  const data = useData(`compare:${ids.join(',')}`, () => client.compare(ids));
  const [open, setOpen] = useState(0);
  if (ids.length < 2)
    return <p className="error">Select two or more runs on the Runs page to compare them.</p>;
  if (data.state === 'loading') return <p className="muted">Comparing…</p>;
  if (data.state === 'error') return <p className="error">Could not compare: {data.message}</p>;
  const compare = data.value;
  const row = compare.rows[open];
  return (
    <section>
      <h1>Compare</h1>
      <p>
        Baseline: <strong>{runName(compare.runs, compare.baseline)}</strong>
      </p>
      <ul className="muted">
        {compare.runs.slice(1).map((run) => (
          <li key={run.id}>Candidate: {runName(compare.runs, run.id)}</li>
        ))}
      </ul>
      {compare.runs.some((run) => run.partial) && <PartialBanner limit={null} />}
      <p className="muted small">
        Differences are candidate − baseline over docs scored in both runs (paired by content hash), each task
        on its first metric, with a 95% paired interval; p is McNemar's test for 0/1 scores and a paired
        permutation test otherwise; adjusted p is Holm's over each candidate's task rows, and over its group
        rows apart, as <code>assay compare</code> reports them.{' '}
        <a href={href(['charts'], { runs: ids.join(',') })}>Charts</a>
      </p>
      <table className="data" data-testid="compare-table">
        <thead>
          <tr>
            <th>Task</th>
            <th>Metric</th>
            <th>Filter</th>
            {compare.runs.length > 2 && <th>Candidate</th>}
            <th className="number">n</th>
            <th className="number">Baseline</th>
            <th className="number">Candidate</th>
            <th className="number">Difference</th>
            <th>95% CI</th>
            <th className="number">p</th>
            <th className="number">adjusted p</th>
            <th>Flips (−/+)</th>
          </tr>
        </thead>
        <tbody>
          {compare.rows.map((entry, i) => (
            <tr
              key={`${entry.kind}:${entry.task}:${entry.metric}:${entry.filter}:${entry.candidateRun}`}
              className={i === open ? 'selected' : ''}
              onClick={() => setOpen(i)}
              data-task={entry.task}
              data-metric={entry.metric}
            >
              <td>
                <button type="button" className="link">
                  {entry.kind === 'group' ? `group ${entry.task}` : entry.task}
                </button>
              </td>
              <td>{entry.metric}</td>
              <td>{entry.filter}</td>
              {compare.runs.length > 2 && (
                <td className="small">{runName(compare.runs, entry.candidateRun)}</td>
              )}
              <td className="number">{entry.n}</td>
              <td className="number">{formatNumber(entry.baselineMean)}</td>
              <td className="number">{formatNumber(entry.candidateMean)}</td>
              <td className="number difference">{formatNumber(entry.difference)}</td>
              <td>{formatCi(entry.ci)}</td>
              <td className="number p-value" title={entry.test}>
                {formatP(entry.pValue)}
              </td>
              <td className="number adjusted-p">{formatP(entry.adjustedPValue)}</td>
              <td>{entry.flips ? `${entry.flips.rightToWrong} / ${entry.flips.wrongToRight}` : '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {compare.skipped.length > 0 && (
        <ul className="muted small">
          {compare.skipped.map((skip) => (
            <li key={`${skip.task}:${skip.candidateRun}:${skip.reason}`}>
              {skip.task}: {skip.reason}
            </li>
          ))}
        </ul>
      )}
      <ForestPlot
        title="Paired differences (candidate − baseline) with 95% CI"
        rows={differenceRows(compare)}
        reference={0}
        testId="compare-plot"
      />
      {row && (
        <div className="compare-detail">
          <h2>
            {row.task} · {row.metric} ({row.filter})
          </h2>
          {row.flips ? (
            <FlipTable flips={row.flips} />
          ) : (
            <p className="muted">Scores are not 0/1: no flip table.</p>
          )}
          <Discordant row={row} />
        </div>
      )}
    </section>
  );
}
