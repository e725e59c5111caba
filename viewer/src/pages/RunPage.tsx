import type { ManifestSection, MetricRow } from '../../../src/view/api.js';
import type { ApiClient } from '../client.js';
import { ForestPlot } from '../components/ForestPlot.js';
import { formatCi, formatDate, formatNumber } from '../format.js';
import { href } from '../router.js';
import { useData } from '../use-data.js';

export function PartialBanner({ limit }: { limit: number | null }) {
  return (
    <div className="banner partial" role="alert">
      PARTIAL RUN{limit !== null ? ` (--limit ${limit})` : ''}: only some docs were evaluated. These scores
      are for testing only and are not comparable with full runs.
    </div>
  );
}

export function forestRows(rows: MetricRow[]) {
  return rows
    .filter((row) => row.value !== null)
    .map((row) => ({
      label: `${row.kind === 'group' ? '▸ ' : ''}${row.name} · ${row.metric}${row.filter === 'none' ? '' : ` (${row.filter})`}`,
      value: row.value,
      lo: row.ci?.[0] ?? null,
      hi: row.ci?.[1] ?? null,
    }));
}

function ManifestPart({ section }: { section: ManifestSection }) {
  return (
    <div className="manifest-section" data-testid={`manifest-${section.title.toLowerCase()}`}>
      <h3>{section.title}</h3>
      {section.kind === 'fields' ? (
        <table className="data compact manifest-fields">
          <tbody>
            {section.fields.map((field) => (
              <tr key={field.label}>
                <th>{field.label}</th>
                <td>{field.value}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <table className="data compact manifest-table">
          <thead>
            <tr>
              {section.columns.map((column) => (
                <th key={column}>{column}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {section.rows.map((row, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: rows keep the manifest's order
              <tr key={i}>
                {row.map((cell, j) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: cells follow the columns
                  <td key={j}>{cell}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

export function RunPage({ client, id }: { client: ApiClient; id: string }) {
  const data = useData(`run:${id}`, () => client.run(id));
  if (data.state === 'loading') return <p className="muted">Loading run…</p>;
  if (data.state === 'error') return <p className="error">Could not load the run: {data.message}</p>;
  const { run, rows, manifest } = data.value;
  return (
    <section>
      <h1>
        {run.model} <span className="muted small">{run.modelArgs}</span>
      </h1>
      <p className="muted">
        {formatDate(run.date)} · git <code>{run.gitHash ?? '—'}</code> · {run.label}
        {data.value.totalSeconds !== null && ` · ${data.value.totalSeconds.toFixed(1)} s`}
      </p>
      {run.partial && <PartialBanner limit={run.limit} />}
      {run.timeouts && (
        <p className="muted" data-testid="timeouts-note">
          Latency cap {run.timeouts.maxLatencyS} s:{' '}
          {Object.values(run.timeouts.byTask).reduce((sum, count) => sum + count, 0)} doc(s) timed out. They
          are neither right nor wrong and count in no metric (the Timed out column).
        </p>
      )}
      <h2>Scores</h2>
      <table className="data" data-testid="scores-table">
        <thead>
          <tr>
            <th>Task / group</th>
            <th>Metric</th>
            <th>Filter</th>
            <th className="number">Value</th>
            <th className="number">Stderr</th>
            <th>95% CI</th>
            <th className="number">n</th>
            {run.timeouts && <th className="number">Timed out</th>}
            <th>Samples</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr
              key={`${row.kind}:${row.name}:${row.metric}:${row.filter}`}
              data-task={row.name}
              data-metric={row.metric}
              data-filter={row.filter}
              className={row.kind}
            >
              <td className="alias">
                {row.kind === 'group' && <span className="badge">group</span>} {row.alias}
              </td>
              <td>
                {row.metric}
                {row.higherIsBetter === null ? '' : row.higherIsBetter ? ' ↑' : ' ↓'}
              </td>
              <td>{row.filter}</td>
              <td className="number value">{formatNumber(row.value)}</td>
              <td className="number stderr">{formatNumber(row.stderr)}</td>
              <td className="ci">{formatCi(row.ci)}</td>
              <td className="number">{row.n ?? '—'}</td>
              {run.timeouts && (
                <td className="number timed-out">
                  {row.kind === 'task' ? (run.timeouts.byTask[row.name] ?? 0) : '—'}
                </td>
              )}
              <td>
                {run.sampleTasks.includes(row.name) ? (
                  <a href={href(['run', run.id, 'samples', row.name])}>samples</a>
                ) : (
                  <span className="muted">—</span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <ForestPlot title="Scores with 95% confidence intervals" rows={forestRows(rows)} testId="run-forest" />
      <h2>Manifest</h2>
      {manifest === null ? (
        <p className="muted">This results file has no manifest (lm-eval writes none).</p>
      ) : (
        <>
          <div className="manifest-sections" data-testid="manifest-sections">
            {data.value.manifestSections.map((section) => (
              <ManifestPart key={section.title} section={section} />
            ))}
          </div>
          <details className="raw-manifest" data-testid="raw-manifest">
            <summary>Raw manifest (JSON)</summary>
            <pre className="text manifest" data-testid="manifest">
              {JSON.stringify(manifest, null, 2)}
            </pre>
          </details>
        </>
      )}
    </section>
  );
}
