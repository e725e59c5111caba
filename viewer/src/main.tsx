import { type ReactElement, StrictMode, useMemo } from 'react';
import { createRoot } from 'react-dom/client';
import { createClient } from './client.js';
import { ChartsPage } from './pages/ChartsPage.js';
import { ComparePage } from './pages/ComparePage.js';
import { RunPage } from './pages/RunPage.js';
import { RunsPage } from './pages/RunsPage.js';
import { SamplesPage } from './pages/SamplesPage.js';
import { SuitePage, type SuiteSelection, SuitesList } from './pages/SuitePage.js';
import { href, type Route, useRoute } from './router.js';
import { useData } from './use-data.js';
import './styles.css';

function suiteSelection(route: Route): SuiteSelection {
  const model = route.params.get('model');
  const task = route.params.get('task');
  const group = route.params.get('group');
  if (model && task) return { model, task };
  if (model && group) return { model, group };
  return null;
}

function App() {
  const client = useMemo(() => createClient(), []);
  const route = useRoute();
  const suites = useData('suites', () => client.suites());
  const found = suites.state === 'ready' ? suites.value.suites : [];
  const [head, id, sub, task] = route.path;
  const ids = (route.params.get('runs') ?? '').split(',').filter(Boolean);
  // `assay view suites/NAME` opens on the suite: the one suite whose folder is a viewed directory.
  const home = found.filter((suite) => suite.isRoot);
  let page: ReactElement;
  if (head === undefined && suites.state === 'loading') page = <p className="muted">Loading…</p>;
  else if (head === undefined && home.length === 1)
    page = <SuitePage key={home[0].id} client={client} id={home[0].id} selection={suiteSelection(route)} />;
  else if (head === 'suite' && id)
    page = <SuitePage key={id} client={client} id={id} selection={suiteSelection(route)} />;
  else if (head === 'run' && id && sub === 'samples' && task) {
    const doc = route.params.get('doc');
    const filter = route.params.get('filter') ?? undefined;
    const selection = doc !== null && /^-?\d+$/.test(doc) ? { doc: Number(doc), filter } : null;
    page = (
      <SamplesPage
        key={`${id}/${task}?${doc}/${filter}`}
        client={client}
        id={id}
        task={task}
        selection={selection}
      />
    );
  } else if (head === 'run' && id) page = <RunPage key={id} client={client} id={id} />;
  else if (head === 'compare') page = <ComparePage client={client} ids={ids} />;
  else if (head === 'charts') page = <ChartsPage client={client} ids={ids} />;
  else
    page = (
      <>
        <SuitesList suites={found} />
        <RunsPage client={client} />
      </>
    );
  return (
    <>
      <header className="top">
        <a href={href([])} className="brand">
          assay view
        </a>
        <nav>
          {found.slice(0, 3).map((suite) => (
            <a key={suite.id} href={href(['suite', suite.id])} data-testid="nav-suite">
              Suite {suite.name}
            </a>
          ))}
          <a href={href(['runs'])}>Runs</a>
          <a href={href(['charts'], ids.length ? { runs: ids.join(',') } : undefined)}>Charts</a>
        </nav>
        {client.mode === 'static' && <span className="muted small">static copy</span>}
      </header>
      <main>{page}</main>
    </>
  );
}

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
