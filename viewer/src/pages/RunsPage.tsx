import { useMemo, useState } from 'react';
import type { RunSummary } from '../../../src/view/api.js';
import type { ApiClient } from '../client.js';
import { formatDate } from '../format.js';
import { href } from '../router.js';
import { useData } from '../use-data.js';

type SortKey = 'model' | 'tasks' | 'date' | 'gitHash' | 'partial';

function sortValue(run: RunSummary, key: SortKey): string | number {
  if (key === 'date') return run.date;
  if (key === 'tasks') return run.tasks.join(',');
  if (key === 'partial') return run.partial ? 1 : 0;
  if (key === 'model') return `${run.model} ${run.modelArgs}`;
  return run.gitHash ?? '';
}

export function RunsPage({ client }: { client: ApiClient }) {
  const data = useData('runs', () => client.runs());
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState<{ key: SortKey; descending: boolean }>({ key: 'date', descending: true });
  const [selected, setSelected] = useState<string[]>([]);
  const runs = data.state === 'ready' ? data.value.runs : [];
  const shown = useMemo(() => {
    const needle = search.toLowerCase();
    const matching = runs.filter((run) =>
      [run.model, run.modelArgs, run.label, run.gitHash ?? '', ...run.tasks, formatDate(run.date)].some(
        (text) => text.toLowerCase().includes(needle),
      ),
    );
    const direction = sort.descending ? -1 : 1;
    return [...matching].sort((a, b) => {
      const x = sortValue(a, sort.key);
      const y = sortValue(b, sort.key);
      return (x < y ? -1 : x > y ? 1 : 0) * direction;
    });
  }, [runs, search, sort]);

  if (data.state === 'loading') return <p className="muted">Loading runs…</p>;
  if (data.state === 'error') return <p className="error">Could not load runs: {data.message}</p>;

  const header = (key: SortKey, label: string) => (
    <th>
      <button
        type="button"
        className="sort"
        data-sort={key}
        onClick={() => setSort({ key, descending: sort.key === key ? !sort.descending : key === 'date' })}
      >
        {label}
        {sort.key === key ? (sort.descending ? ' ▼' : ' ▲') : ''}
      </button>
    </th>
  );
  const toggle = (id: string) =>
    setSelected((current) => (current.includes(id) ? current.filter((x) => x !== id) : [...current, id]));

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
      </div>
      {selected.length > 0 && (
        <p className="muted">The first run selected is the baseline of a comparison.</p>
      )}
      <table className="data" data-testid="runs-table">
        <thead>
          <tr>
            <th>Select</th>
            {header('model', 'Model')}
            {header('tasks', 'Tasks')}
            {header('date', 'Date')}
            {header('gitHash', 'Git hash')}
            {header('partial', 'Partial')}
            <th>File</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((run) => (
            <tr key={run.id} data-run={run.id} className={run.partial ? 'partial-row' : ''}>
              <td>
                <input
                  type="checkbox"
                  aria-label={`select ${run.label}`}
                  checked={selected.includes(run.id)}
                  onChange={() => toggle(run.id)}
                />
                {selected.includes(run.id) && <span className="order">{selected.indexOf(run.id) + 1}</span>}
              </td>
              <td>
                <a href={href(['run', run.id])} className="model">
                  {run.model}
                </a>
                {run.modelArgs && <div className="muted small">{run.modelArgs}</div>}
              </td>
              <td className="tasks">{run.tasks.join(', ')}</td>
              <td className="nowrap">{formatDate(run.date)}</td>
              <td>
                <code>{run.gitHash ?? '—'}</code>
              </td>
              <td>
                {run.partial ? (
                  <span className="badge partial">
                    PARTIAL{run.limit !== null ? ` · --limit ${run.limit}` : ''}
                  </span>
                ) : (
                  <span className="muted">full</span>
                )}
              </td>
              <td className="muted small">{run.label}</td>
            </tr>
          ))}
        </tbody>
      </table>
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
