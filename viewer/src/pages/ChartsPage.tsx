import type { CompareResponse, RunDetail } from '../../../src/view/api.js';
import type { ApiClient } from '../client.js';
import { ForestPlot } from '../components/ForestPlot.js';
import { useData } from '../use-data.js';
import { differenceRows, runName } from './ComparePage.js';
import { forestRows } from './RunPage.js';

/** A forest plot of each run's scores, and with two or more runs a paired-difference plot per task. */
export function ChartsPage({ client, ids }: { client: ApiClient; ids: string[] }) {
  const data = useData(`charts:${ids.join(',')}`, async () => {
    const chosen = ids.length ? ids : (await client.runs()).runs.map((run) => run.id);
    const details: RunDetail[] = await Promise.all(chosen.map((id) => client.run(id)));
    const compare: CompareResponse | null =
      chosen.length >= 2 && ids.length >= 2 ? await client.compare(chosen) : null;
    return { details, compare };
  });
  if (data.state === 'loading') return <p className="muted">Loading charts…</p>;
  if (data.state === 'error') return <p className="error">Could not draw charts: {data.message}</p>;
  const { details, compare } = data.value;
  const tasks = compare ? [...new Set(compare.rows.map((row) => row.task))] : [];
  return (
    <section>
      <h1>Charts</h1>
      <h2>Scores per run</h2>
      {details.map((detail) => (
        <ForestPlot
          key={detail.run.id}
          title={`${detail.run.model}${detail.run.modelArgs ? ` (${detail.run.modelArgs})` : ''}${detail.run.partial ? ' — PARTIAL' : ''}`}
          rows={forestRows(detail.rows)}
          testId="charts-forest"
        />
      ))}
      {compare && (
        <>
          <h2>Paired differences per task (vs {runName(compare.runs, compare.baseline)})</h2>
          {tasks.map((task) => (
            <ForestPlot
              key={task}
              title={task}
              reference={0}
              rows={differenceRows({ ...compare, rows: compare.rows.filter((row) => row.task === task) })}
              testId="charts-difference"
            />
          ))}
        </>
      )}
      {!compare && (
        <p className="muted">Select two or more runs on the Runs page for paired-difference plots.</p>
      )}
    </section>
  );
}
