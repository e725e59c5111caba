import { useCallback, useEffect, useRef, useState } from 'react';
import type { CorrectFilter, JudgeCallView, SampleQuery, SampleView } from '../../../src/view/api.js';
import type { ApiClient } from '../client.js';
import { VirtualList } from '../components/VirtualList.js';
import { href } from '../router.js';

const PAGE = 100;
const ROW_HEIGHT = 34;

interface Filters {
  correct: CorrectFilter;
  metric: string;
  min: string;
  max: string;
  text: string;
  filter: string;
}

const EMPTY: Filters = { correct: 'all', metric: '', min: '', max: '', text: '', filter: '' };

function toQuery(filters: Filters, offset: number): SampleQuery {
  const number = (text: string) =>
    text.trim() === '' || !Number.isFinite(Number(text)) ? undefined : Number(text);
  return {
    offset,
    limit: PAGE,
    correct: filters.correct,
    metric: filters.metric || undefined,
    min: number(filters.min),
    max: number(filters.max),
    text: filters.text || undefined,
    filter: filters.filter || undefined,
  };
}

function Verdict({ correct }: { correct: boolean | null }) {
  if (correct === null) return <span className="verdict neither">·</span>;
  return correct ? (
    <span className="verdict right" title="correct">
      ✓
    </span>
  ) : (
    <span className="verdict wrong" title="incorrect">
      ✗
    </span>
  );
}

function metricText(value: SampleView['metrics'][string]): string {
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : value.toFixed(4);
  return String(value);
}

function JudgeCall({ call }: { call: JudgeCallView }) {
  const who = [call.metric, call.model, call.order].filter(Boolean).join(' · ');
  return (
    <section className="judge-call" data-testid="judge-call" data-model={call.model}>
      <h4>Judge · {who}</h4>
      {call.system !== null && (
        <>
          <h5>System</h5>
          <pre className="text" data-testid="judge-system">
            {call.system}
          </pre>
        </>
      )}
      <h5>Prompt</h5>
      <pre className="text" data-testid="judge-prompt">
        {call.user}
      </pre>
      {call.options ? (
        <>
          <h5>Options (log-likelihood)</h5>
          <table className="data compact" data-testid="judge-options">
            <thead>
              <tr>
                <th>Option</th>
                <th className="number">log p</th>
                <th>Marks</th>
              </tr>
            </thead>
            <tbody>
              {call.options.map((option) => (
                <tr key={option.option} className={option.picked ? 'chosen' : ''}>
                  <td>
                    <pre className="text inline">{option.option}</pre>
                  </td>
                  <td className="number">
                    {Number.isFinite(option.logprob) ? option.logprob.toFixed(4) : '−∞'}
                  </td>
                  <td>{option.picked && <span className="badge chosen">picked</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : (
        <>
          <h5>Answer</h5>
          <pre className="text" data-testid="judge-raw">
            {call.raw ?? '(no answer)'}
          </pre>
        </>
      )}
      <p data-testid="judge-verdict">
        {call.verdict === null ? (
          <span className="error">No verdict: {call.error}</span>
        ) : (
          <>
            Verdict <code>{call.verdict}</code> · score {call.score}
          </>
        )}
      </p>
    </section>
  );
}

export function SampleDetail({ sample }: { sample: SampleView }) {
  return (
    <article className="sample-detail" data-testid="sample-detail" data-doc={sample.docId}>
      <h2>
        Doc {sample.docId} <Verdict correct={sample.correct} />{' '}
        <span className="muted small">
          filter {sample.filter} · line {sample.line + 1}
        </span>
      </h2>
      {sample.error && <p className="error">Error: {sample.error}</p>}
      <table className="data compact" data-testid="sample-metrics">
        <tbody>
          {Object.entries(sample.metrics).map(([name, value]) => (
            <tr key={name}>
              <th>{name}</th>
              <td className="number">{metricText(value)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h3>Prompt</h3>
      <pre className="text" data-testid="prompt">
        {sample.prompt}
      </pre>
      <h3>Target</h3>
      <pre className="text" data-testid="target">
        {sample.target}
      </pre>
      {sample.choices ? (
        <>
          <h3>Choices (log-likelihood)</h3>
          <table className="data compact" data-testid="choices">
            <thead>
              <tr>
                <th>#</th>
                <th>Continuation</th>
                <th className="number">log p</th>
                <th>Greedy</th>
                <th>Marks</th>
              </tr>
            </thead>
            <tbody>
              {sample.choices.map((choice, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: choices keep their order
                <tr key={i} className={`${choice.chosen ? 'chosen' : ''} ${choice.gold ? 'gold' : ''}`}>
                  <td>{i}</td>
                  <td>
                    <pre className="text inline">{choice.continuation}</pre>
                  </td>
                  <td className="number">{choice.logprob.toFixed(4)}</td>
                  <td>{choice.isGreedy ? 'yes' : 'no'}</td>
                  <td>
                    {choice.chosen && <span className="badge chosen">chosen</span>}{' '}
                    {choice.gold && <span className="badge gold">gold</span>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : (
        <>
          <h3>Response{sample.responses.length === 1 ? '' : 's'}</h3>
          {sample.responses.map((response, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: responses keep their order
            <pre key={i} className="text" data-testid="response">
              {response}
            </pre>
          ))}
        </>
      )}
      <h3>Filtered response</h3>
      <pre className="text" data-testid="filtered-response">
        {sample.filteredResponse}
      </pre>
      {sample.judge.length > 0 && (
        <div data-testid="judge">
          <h3>Judge{sample.judge.length === 1 ? '' : 's'}</h3>
          {sample.judge.map((call, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: judge calls keep their order
            <JudgeCall key={i} call={call} />
          ))}
        </div>
      )}
      <details>
        <summary>Doc</summary>
        <pre className="text">{JSON.stringify(sample.doc, null, 2)}</pre>
      </details>
    </article>
  );
}

/** The sample a page's address names: a doc id, and the filter when the log has several. */
export interface SampleSelection {
  doc: number;
  filter?: string;
}

export function SamplesPage({
  client,
  id,
  task,
  selection,
}: {
  client: ApiClient;
  id: string;
  task: string;
  selection: SampleSelection | null;
}) {
  const [form, setForm] = useState<Filters>(EMPTY);
  const [applied, setApplied] = useState<Filters>(EMPTY);
  const [pages, setPages] = useState<Map<number, SampleView[]>>(new Map());
  const [info, setInfo] = useState<{
    matched: number;
    total: number;
    complete: boolean;
    metrics: string[];
    filters: string[];
  } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [selected, setSelected] = useState<SampleView | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const generation = useRef(0);
  const requested = useRef(new Set<number>());

  // Typing in the search box waits for a pause; the other controls apply at once.
  useEffect(() => {
    const timer = setTimeout(() => setApplied(form), form.text === applied.text ? 0 : 300);
    return () => clearTimeout(timer);
  }, [form, applied.text]);

  const loadPage = useCallback(
    (page: number) => {
      if (requested.current.has(page)) return;
      requested.current.add(page);
      const mine = generation.current;
      client.samples(id, task, toQuery(applied, page * PAGE)).then(
        (result) => {
          if (mine !== generation.current) return;
          setPages((current) => new Map(current).set(page, result.items));
          setInfo({
            matched: result.matched,
            total: result.total,
            complete: result.complete,
            metrics: result.metrics,
            filters: result.filters,
          });
          setError(null);
        },
        (failure: Error) => {
          if (mine !== generation.current) return;
          requested.current.delete(page);
          setError(failure.message);
        },
      );
    },
    [client, id, task, applied],
  );

  useEffect(() => {
    generation.current++;
    requested.current = new Set();
    setPages(new Map());
    setInfo(null);
    loadPage(0);
  }, [loadPage]);

  // While a big log is still being indexed the count grows; ask again until it is complete.
  useEffect(() => {
    if (!info || info.complete) return;
    const timer = setTimeout(() => {
      requested.current.delete(0);
      loadPage(0);
    }, 400);
    return () => clearTimeout(timer);
  }, [info, loadPage]);

  const onRange = useCallback(
    (first: number, last: number) => {
      for (let page = Math.floor(first / PAGE); page <= Math.floor(Math.max(first, last - 1) / PAGE); page++)
        loadPage(page);
    },
    [loadPage],
  );

  // The selection lives in the page's address (replaced, not pushed: clicking through samples does not
  // fill the history), so a reload, or coming back from another page, shows the same sample.
  const select = useCallback(
    (sample: SampleView, filters: string[]) => {
      setSelected(sample);
      const params: Record<string, string> = { doc: String(sample.docId) };
      if (filters.length > 1) params.filter = sample.filter;
      window.history.replaceState(window.history.state, '', href(['run', id, 'samples', task], params));
    },
    [id, task],
  );

  // The sample named in the address, else the first sample of the log.
  const first = pages.get(0)?.[0];
  const filters = info?.filters;
  useEffect(() => {
    if (selected || !filters) return;
    if (!selection) {
      if (first) select(first, filters);
      return;
    }
    let live = true;
    client.samples(id, task, { offset: 0, limit: 1, doc: selection.doc, filter: selection.filter }).then(
      (result) => {
        if (!live) return;
        const [found] = result.items;
        if (found) select(found, filters);
        else {
          setNotice(
            `doc ${selection.doc}${selection.filter ? ` (filter ${selection.filter})` : ''} is not in this sample log; showing the first sample`,
          );
          if (first) select(first, filters);
        }
      },
      (failure: Error) => live && setError(failure.message),
    );
    return () => {
      live = false;
    };
  }, [client, id, task, selection, selected, first, filters, select]);

  const rowAt = (index: number): SampleView | undefined =>
    pages.get(Math.floor(index / PAGE))?.[index % PAGE];
  const set = (patch: Partial<Filters>) => setForm((current) => ({ ...current, ...patch }));

  return (
    <section>
      <h1>
        Samples · {task}{' '}
        <a className="small" href={href(['run', id])}>
          back to run
        </a>
      </h1>
      <div className="toolbar filters" data-testid="sample-filters">
        <label>
          Outcome
          <select
            value={form.correct}
            onChange={(event) => set({ correct: event.target.value as CorrectFilter })}
            aria-label="Outcome"
          >
            <option value="all">all</option>
            <option value="correct">correct</option>
            <option value="incorrect">incorrect</option>
          </select>
        </label>
        <label>
          Metric
          <select
            value={form.metric}
            onChange={(event) => set({ metric: event.target.value })}
            aria-label="Metric"
          >
            <option value="">{info?.metrics[0] ?? 'first'}</option>
            {(info?.metrics ?? []).slice(1).map((metric) => (
              <option key={metric}>{metric}</option>
            ))}
          </select>
        </label>
        <label>
          min
          <input
            className="narrow"
            inputMode="decimal"
            value={form.min}
            onChange={(event) => set({ min: event.target.value })}
            aria-label="Metric minimum"
          />
        </label>
        <label>
          max
          <input
            className="narrow"
            inputMode="decimal"
            value={form.max}
            onChange={(event) => set({ max: event.target.value })}
            aria-label="Metric maximum"
          />
        </label>
        <label>
          Filter
          <select
            value={form.filter}
            onChange={(event) => set({ filter: event.target.value })}
            aria-label="Filter name"
          >
            <option value="">any</option>
            {(info?.filters ?? []).map((filter) => (
              <option key={filter}>{filter}</option>
            ))}
          </select>
        </label>
        <input
          type="search"
          placeholder="Search prompt, target, responses…"
          value={form.text}
          onChange={(event) => set({ text: event.target.value })}
          aria-label="Search samples"
        />
        <span className="muted" data-testid="sample-count">
          {info
            ? `${info.matched.toLocaleString('en-US')} of ${info.total.toLocaleString('en-US')}${info.complete ? '' : '+ (indexing…)'} samples`
            : 'Loading…'}
        </span>
      </div>
      {error && <p className="error">{error}</p>}
      {notice && (
        <p className="muted" data-testid="selection-notice">
          {notice}
        </p>
      )}
      <div className="samples-layout">
        <VirtualList
          testId="sample-list"
          count={info?.matched ?? 0}
          rowHeight={ROW_HEIGHT}
          height={Math.max(300, window.innerHeight - 220)}
          onRange={onRange}
          renderRow={(index) => {
            const sample = rowAt(index);
            if (!sample) return <div className="sample-row muted">…</div>;
            return (
              <button
                type="button"
                className={`sample-row${selected?.line === sample.line ? ' selected' : ''}`}
                data-doc={sample.docId}
                data-correct={String(sample.correct)}
                onClick={() => select(sample, info?.filters ?? [])}
                title={sample.question}
              >
                <Verdict correct={sample.correct} />
                <span className="doc">#{sample.docId}</span>
                <span className="question">{sample.question}</span>
                <span className="response" title="the model's (filtered) response">
                  {sample.filteredResponse}
                </span>
                <span className="metrics muted">
                  {Object.entries(sample.metrics)
                    .map(([name, value]) => `${name}=${metricText(value)}`)
                    .join(' ')}
                </span>
              </button>
            );
          }}
        />
        <div className="detail-pane">
          {selected ? (
            <SampleDetail sample={selected} />
          ) : (
            <p className="muted">Select a sample to see its prompt, target, responses and metrics.</p>
          )}
        </div>
      </div>
    </section>
  );
}
