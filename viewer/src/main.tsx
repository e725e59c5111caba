import { type ReactElement, StrictMode, useMemo } from 'react';
import { createRoot } from 'react-dom/client';
import { createClient } from './client.js';
import { ChartsPage } from './pages/ChartsPage.js';
import { ComparePage } from './pages/ComparePage.js';
import { RunPage } from './pages/RunPage.js';
import { RunsPage } from './pages/RunsPage.js';
import { SamplesPage } from './pages/SamplesPage.js';
import { href, useRoute } from './router.js';
import './styles.css';

function App() {
  const client = useMemo(() => createClient(), []);
  const route = useRoute();
  const [head, id, sub, task] = route.path;
  const ids = (route.params.get('runs') ?? '').split(',').filter(Boolean);
  let page: ReactElement;
  if (head === 'run' && id && sub === 'samples' && task) {
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
  else page = <RunsPage client={client} />;
  return (
    <>
      <header className="top">
        <a href={href([])} className="brand">
          assay view
        </a>
        <nav>
          <a href={href([])}>Runs</a>
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
